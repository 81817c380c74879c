import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { SETTINGS_MESSAGES, ZLabDepartmentsSetting, type TLabDepartmentsSetting } from '@radflow/core';
import { useState, type KeyboardEvent } from 'react';
import { SettingDialogFrame } from '../SettingDialogFrame';
import { useSaveSection, useUserPreferences } from '../settings-api';

type TListKey = keyof TLabDepartmentsSetting;

/**
 * The section with `name` added to one list, checked by the rule the server applies (spec-lab §5:
 * trimmed and upper-cased; NONE and a name already listed are refused).
 */
export function addDepartment(
  section: TLabDepartmentsSetting,
  key: TListKey,
  name: string,
): { section: TLabDepartmentsSetting } | { error: string } {
  const parsed = ZLabDepartmentsSetting.safeParse({ ...section, [key]: [...section[key], name] });
  if (!parsed.success)
    return { error: parsed.error.issues[0]?.message ?? SETTINGS_MESSAGES.departmentRequired };
  return { section: parsed.data };
}

const LISTS: { key: TListKey; title: string }[] = [
  { key: 'labDepartmentList', title: 'Lab departments' },
  { key: 'referringDoctorDepartmentList', title: 'Referring doctor departments' },
];

/**
 * Lab Departments (spec-lab §3, §5): two lists of LAB_DEPARTMENTS. Each add is saved at once (the
 * whole section); departments cannot be deleted, which the dialog says, because bills, tests and
 * referring doctors keep the names.
 */
export default function LabDepartmentsDialog({ onClose }: { onClose: () => void }) {
  const section = useUserPreferences().LAB_DEPARTMENTS;
  const save = useSaveSection('LAB_DEPARTMENTS');
  const [problem, setProblem] = useState<string | null>(null);

  const add = (key: TListKey, name: string, onSaved: () => void) => {
    const result = addDepartment(section, key, name);
    if ('error' in result) {
      setProblem(result.error);
      return;
    }
    setProblem(null);
    save.mutate(result.section, {
      onSuccess: onSaved,
      onError: () => setProblem(SETTINGS_MESSAGES.departmentSaveFailed),
    });
  };

  return (
    <SettingDialogFrame entry="LAB_DEPARTMENTS" onClose={onClose} cancelLabel="Close" busy={save.isPending}>
      <Stack spacing={3}>
        <Typography variant="body2" color="text.secondary">
          {SETTINGS_MESSAGES.departmentCannotBeDeleted}
        </Typography>
        {LISTS.map((l) => (
          <Stack key={l.key} spacing={1} role="group" aria-label={l.title}>
            <Typography variant="subtitle1">{l.title}</Typography>
            <AddDepartmentRow busy={save.isPending} onAdd={(name, onSaved) => add(l.key, name, onSaved)} />
            {section[l.key].length === 0 ? (
              <Typography variant="body2" color="text.secondary">
                No departments yet
              </Typography>
            ) : (
              <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 1 }} aria-label={`${l.title} list`}>
                {section[l.key].map((name) => (
                  <Chip key={name} label={name} />
                ))}
              </Stack>
            )}
          </Stack>
        ))}
        {problem ? (
          <Typography role="alert" color="error" variant="body2">
            {problem}
          </Typography>
        ) : null}
      </Stack>
    </SettingDialogFrame>
  );
}

/** The department name field of one list; cleared once the department is saved. */
function AddDepartmentRow({
  busy,
  onAdd,
}: {
  busy: boolean;
  onAdd: (name: string, onSaved: () => void) => void;
}) {
  const [name, setName] = useState('');
  const submit = () => onAdd(name, () => setName(''));
  const onEnter = (e: KeyboardEvent) => {
    if (e.key === 'Enter') {
      e.preventDefault();
      submit();
    }
  };
  return (
    <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
      <TextField
        label="Department name"
        size="small"
        value={name}
        onChange={(e) => setName(e.target.value)}
        onKeyDown={onEnter}
        disabled={busy}
      />
      <Button variant="outlined" onClick={submit} disabled={busy}>
        Add
      </Button>
    </Stack>
  );
}
