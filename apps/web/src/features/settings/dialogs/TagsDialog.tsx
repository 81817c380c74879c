import DeleteIcon from '@mui/icons-material/DeleteOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { SETTINGS_MESSAGES, TAG_PATTERN } from '@radflow/core';
import { useState, type FormEvent } from 'react';
import { useConfirm } from '../../../components/feedback/feedback-context';
import { SettingDialogFrame } from '../SettingDialogFrame';
import { settingErrorText, useResetSection, useSaveSection, useUserPreferences } from '../settings-api';

/** spec-lab §5 tags: letters and digits only (core's TAG_PATTERN), checked before anything is sent. */
export function tagProblem(tag: string): string | null {
  return TAG_PATTERN.test(tag) ? null : SETTINGS_MESSAGES.tagCharacters;
}

/**
 * The user's tags (spec-core §3 TAGS). Each add and delete saves the whole list at once (the server
 * replaces the list), so the dialog stays open for the next one and has only Close.
 */
export default function TagsDialog({ onClose }: { onClose: () => void }) {
  const tags = useUserPreferences().TAGS.tags;
  const [draft, setDraft] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const save = useSaveSection('TAGS');
  const reset = useResetSection('TAGS');
  const confirm = useConfirm();

  const add = (event: FormEvent) => {
    event.preventDefault();
    const tag = draft.trim();
    const found = tagProblem(tag);
    setProblem(found);
    if (found || save.isPending) return;
    if (tags.includes(tag)) {
      setDraft('');
      return;
    }
    save.mutate({ tags: [...tags, tag] }, { onSuccess: () => setDraft('') });
  };

  const remove = async (tag: string) => {
    const confirmed = await confirm({
      title: 'Delete tag',
      message: SETTINGS_MESSAGES.tagDeleteConfirm,
      confirmLabel: 'Delete',
    });
    if (confirmed) save.mutate({ tags: tags.filter((t) => t !== tag) });
  };

  const failed = save.error ?? reset.error;
  return (
    <SettingDialogFrame
      entry="TAGS"
      onClose={onClose}
      cancelLabel="Close"
      busy={save.isPending || reset.isPending}
      onReset={() => reset.mutate()}
      error={failed ? settingErrorText(failed) : null}
    >
      <Stack spacing={2}>
        <Box component="form" noValidate onSubmit={add} sx={{ display: 'flex', gap: 1, pt: 1 }}>
          <TextField
            label="New tag"
            size="small"
            value={draft}
            onChange={(e) => {
              setDraft(e.target.value);
              setProblem(null);
            }}
            error={Boolean(problem)}
            helperText={problem ?? 'Letters and digits only'}
            slotProps={{ htmlInput: { maxLength: 64 } }}
            sx={{ flex: 1 }}
          />
          <Button type="submit" variant="outlined" disabled={save.isPending} sx={{ alignSelf: 'flex-start' }}>
            Add
          </Button>
        </Box>
        {tags.length === 0 ? (
          <Typography color="textSecondary">No tags yet.</Typography>
        ) : (
          <Box
            component="ul"
            aria-label="Tags"
            sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, p: 0, m: 0 }}
          >
            {tags.map((tag) => (
              <li key={tag} style={{ listStyle: 'none' }}>
                <Chip
                  label={tag}
                  onDelete={() => void remove(tag)}
                  deleteIcon={<DeleteIcon aria-label={`Delete tag ${tag}`} />}
                />
              </li>
            ))}
          </Box>
        )}
      </Stack>
    </SettingDialogFrame>
  );
}
