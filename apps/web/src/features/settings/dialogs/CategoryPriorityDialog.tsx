import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { ZLabCategoryPriorityUpdate, type TUserPreferences } from '@radflow/core';
import { useState, type KeyboardEvent } from 'react';
import { SettingDialogFrame } from '../SettingDialogFrame';
import { useSaveSection, useUserPreferences } from '../settings-api';

type TEntry = TUserPreferences['LAB_CATEGORY_PRIORITY']['categoriesAndPriorities'][number];
type TType = TEntry['type'];

/**
 * The list with one more entry, checked by the rule the server applies (spec-lab §5: the name 'none'
 * and a duplicate name of the same type, case-insensitive, are refused; a category's discount is a
 * number from 0 to 100, a priority has none). `discount` is the text as typed.
 */
export function addCategoryEntry(
  list: readonly TEntry[],
  entry: { name: string; discount: string; type: TType },
): { list: TEntry[] } | { error: string } {
  const parsed = ZLabCategoryPriorityUpdate.safeParse({
    categoriesAndPriorities: [...list, { ...entry, disabled: false }],
  });
  if (!parsed.success) return { error: parsed.error.issues[0]?.message ?? 'Invalid entry' };
  return { list: parsed.data.categoriesAndPriorities };
}

const SECTIONS: { type: TType; title: string; withDiscount: boolean }[] = [
  { type: 'PATIENT_CATEGORY', title: 'Patient categories', withDiscount: true },
  { type: 'PRIORITY', title: 'Priorities', withDiscount: false },
];

/**
 * Category and Priority (spec-lab §3 category/priority entry, §4 "entries can be toggled active or
 * disabled"): two lists of one section, LAB_CATEGORY_PRIORITY, saved whole. Entries are disabled, not
 * deleted, since bills keep their names.
 */
export default function CategoryPriorityDialog({ onClose }: { onClose: () => void }) {
  const stored = useUserPreferences().LAB_CATEGORY_PRIORITY.categoriesAndPriorities;
  const [list, setList] = useState<TEntry[]>(() => [...stored]);
  const [problem, setProblem] = useState<string | null>(null);
  const save = useSaveSection('LAB_CATEGORY_PRIORITY');

  const add = (entry: { name: string; discount: string; type: TType }): boolean => {
    const result = addCategoryEntry(list, entry);
    if ('error' in result) {
      setProblem(result.error);
      return false;
    }
    setProblem(null);
    setList(result.list);
    return true;
  };

  const toggle = (target: TEntry) =>
    setList((l) => l.map((e) => (e === target ? { ...e, disabled: !e.disabled } : e)));

  return (
    <SettingDialogFrame
      entry="CATEGORY_AND_PRIORITY"
      onClose={onClose}
      onSave={() => save.mutate({ categoriesAndPriorities: list }, { onSuccess: onClose })}
      busy={save.isPending}
      maxWidth="md"
    >
      <Stack spacing={2}>
        <Stack direction={{ xs: 'column', md: 'row' }} spacing={3}>
          {SECTIONS.map((s) => (
            <Stack key={s.type} spacing={1} sx={{ flex: 1 }} role="group" aria-label={s.title}>
              <Typography variant="subtitle1">{s.title}</Typography>
              <AddEntryRow
                withDiscount={s.withDiscount}
                onAdd={(name, discount) => add({ name, discount, type: s.type })}
              />
              <List dense aria-label={`${s.title} list`}>
                {list
                  .filter((e) => e.type === s.type)
                  .map((e) => (
                    <ListItem
                      key={e.name}
                      secondaryAction={
                        <Switch
                          edge="end"
                          checked={!e.disabled}
                          onChange={() => toggle(e)}
                          slotProps={{ input: { 'aria-label': `${e.name} active` } }}
                        />
                      }
                    >
                      <ListItemText
                        primary={e.name}
                        secondary={s.withDiscount ? `Discount ${e.discount}%` : undefined}
                      />
                      {e.disabled ? <Chip size="small" label="Disabled" sx={{ mr: 2 }} /> : null}
                    </ListItem>
                  ))}
              </List>
            </Stack>
          ))}
        </Stack>
        {problem ? (
          <Typography role="alert" color="error" variant="body2">
            {problem}
          </Typography>
        ) : null}
      </Stack>
    </SettingDialogFrame>
  );
}

/** The name (and discount) fields of one list; cleared after an accepted add. */
function AddEntryRow({
  withDiscount,
  onAdd,
}: {
  withDiscount: boolean;
  onAdd: (name: string, discount: string) => boolean;
}) {
  const [name, setName] = useState('');
  const [discount, setDiscount] = useState('');
  const submit = () => {
    if (onAdd(name, withDiscount ? discount : '')) {
      setName('');
      setDiscount('');
    }
  };
  const onEnter = (e: KeyboardEvent) => {
    // Enter adds the entry instead of saving the dialog.
    if (e.key === 'Enter') {
      e.preventDefault();
      submit();
    }
  };
  return (
    <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
      <TextField
        label="Name"
        size="small"
        value={name}
        onChange={(e) => setName(e.target.value)}
        onKeyDown={onEnter}
      />
      {withDiscount ? (
        <TextField
          label="Discount (%)"
          size="small"
          value={discount}
          onChange={(e) => setDiscount(e.target.value)}
          onKeyDown={onEnter}
          slotProps={{ htmlInput: { inputMode: 'decimal' } }}
          sx={{ width: 120 }}
        />
      ) : null}
      <Button variant="outlined" onClick={submit}>
        Add
      </Button>
    </Stack>
  );
}
