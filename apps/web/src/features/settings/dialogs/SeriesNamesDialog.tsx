import DeleteIcon from '@mui/icons-material/Delete';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { ZSeriesNameSetting, type TSeriesNameSetting } from '@radflow/core';
import { useState } from 'react';
import { SettingDialogFrame } from '../SettingDialogFrame';
import { useResetSection, useSaveSection, useUserPreferences } from '../settings-api';

type TMapping = TSeriesNameSetting['seriesMappings'][number];

/**
 * The list with one more mapping, checked by the rule the server applies (spec-lab §5: both names
 * required; a series name already listed is refused until its entry is deleted).
 */
export function addSeriesMapping(
  list: readonly TMapping[],
  entry: TMapping,
): { list: TMapping[] } | { error: string } {
  const parsed = ZSeriesNameSetting.safeParse({ seriesMappings: [...list, entry] });
  if (!parsed.success) return { error: parsed.error.issues[0]?.message ?? 'Invalid series name' };
  return { list: parsed.data.seriesMappings };
}

/**
 * Series Names (spec-lab §3 series mapping): the center's series name → preferred name list, edited
 * here and saved whole to SERIES_NAME (the server replaces the stored list by the one sent).
 */
export default function SeriesNamesDialog({ onClose }: { onClose: () => void }) {
  const stored = useUserPreferences().SERIES_NAME.seriesMappings;
  const [list, setList] = useState<TMapping[]>(() => [...stored]);
  const [draft, setDraft] = useState<TMapping>({ seriesName: '', preferredName: '' });
  const [problem, setProblem] = useState<string | null>(null);
  const save = useSaveSection('SERIES_NAME');
  const reset = useResetSection('SERIES_NAME');

  const add = () => {
    const result = addSeriesMapping(list, draft);
    if ('error' in result) {
      setProblem(result.error);
      return;
    }
    setProblem(null);
    setList(result.list);
    setDraft({ seriesName: '', preferredName: '' });
  };

  const field = (name: keyof TMapping, label: string) => (
    <TextField
      label={label}
      size="small"
      value={draft[name]}
      onChange={(e) => setDraft((d) => ({ ...d, [name]: e.target.value }))}
      onKeyDown={(e) => {
        // Enter adds the row instead of saving the dialog.
        if (e.key === 'Enter') {
          e.preventDefault();
          add();
        }
      }}
      sx={{ flex: 1 }}
    />
  );

  return (
    <SettingDialogFrame
      entry="SERIES_NAMES"
      onClose={onClose}
      onSave={() => save.mutate({ seriesMappings: list }, { onSuccess: onClose })}
      onReset={() => reset.mutate(undefined, { onSuccess: onClose })}
      busy={save.isPending || reset.isPending}
    >
      <Stack spacing={2}>
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
          {field('seriesName', 'Series name')}
          {field('preferredName', 'Preferred name')}
          <Button variant="outlined" onClick={add}>
            Add
          </Button>
        </Stack>
        {list.length === 0 ? (
          <Typography variant="body2" color="text.secondary">
            No series names yet
          </Typography>
        ) : (
          <List dense aria-label="Series names">
            {list.map((m, index) => (
              <ListItem
                key={m.seriesName}
                secondaryAction={
                  <IconButton
                    edge="end"
                    aria-label={`Delete ${m.seriesName}`}
                    onClick={() => setList((l) => l.filter((_, i) => i !== index))}
                  >
                    <DeleteIcon fontSize="small" />
                  </IconButton>
                }
              >
                <ListItemText primary={`${m.seriesName} → ${m.preferredName}`} />
              </ListItem>
            ))}
          </List>
        )}
        {problem ? (
          <Typography role="alert" color="error" variant="body2">
            {problem}
          </Typography>
        ) : null}
      </Stack>
    </SettingDialogFrame>
  );
}
