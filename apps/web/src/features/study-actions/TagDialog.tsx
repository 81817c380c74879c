import DeleteIcon from '@mui/icons-material/DeleteOutlined';
import PublicIcon from '@mui/icons-material/Public';
import PublicOffIcon from '@mui/icons-material/PublicOff';
import Autocomplete from '@mui/material/Autocomplete';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import IconButton from '@mui/material/IconButton';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { CONFIRMATIONS, MESSAGES, TAG_MAX_LENGTH, type TStudyTag } from '@radflow/core';
import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useFeedback } from '../../components/feedback/feedback-context';
import { useServerTask } from '../../lib/server-call';
import type { TStudyDialogProps } from './dialog-props';
import { addTag, deleteTag, fetchTagChoices, updateTag } from './study-actions.api';
import { canChangeTag, tagToAssign, tagChoiceOptions } from './tag-rules';
import { useActor } from './use-study-actions';

export const TAG_CHOICES_QUERY_KEY = ['tag-choices'] as const;

/**
 * The tag dialog (spec-core §2, §4 Tags, §5, §7 report-tag calls): choose an existing tag or type a
 * new one and assign it (nothing happens while empty), and delete a tag or make it local or global.
 * Every change asks for confirmation first (spec-core §4 Tags; the three §5 texts word for word).
 */
export function TagDialog({ row, onClose, onChanged }: TStudyDialogProps) {
  const titleId = useId();
  const actor = useActor();
  const { confirm, showInfo } = useFeedback();
  const choices = useQuery({
    queryKey: TAG_CHOICES_QUERY_KEY,
    queryFn: ({ signal }) => fetchTagChoices(signal),
  });
  const [tags, setTags] = useState<TStudyTag[]>(row.tags);
  const [text, setText] = useState('');
  const [global, setGlobal] = useState(false);
  const task = useServerTask({
    onSuccess: (_answer, { doneText }) => {
      showInfo(doneText);
      onChanged();
    },
  });
  const busy = task.isPending;

  const act = async (confirmText: string, call: () => Promise<void>, doneText: string) => {
    if (!(await confirm({ message: confirmText }))) return;
    task.mutate({ call, doneText });
  };

  const assign = () => {
    const tag = tagToAssign(text, tags);
    // spec-core §5: "Tag assign needs a chosen tag (nothing happens if empty)".
    if (!tag) return;
    void act(
      CONFIRMATIONS.createTag.text,
      async () => {
        const { id } = await addTag(row.id, tag, global);
        setTags((list) => [
          ...list,
          { id, tag, globalTag: global, createdBy: actor.email, reportStatusId: row.id },
        ]);
        setText('');
      },
      'Tag added',
    );
  };

  const remove = (tag: TStudyTag) =>
    void act(
      CONFIRMATIONS.deleteTag.text,
      async () => {
        await deleteTag(tag.id);
        setTags((list) => list.filter((t) => t.id !== tag.id));
      },
      'Tag deleted',
    );

  const toggleGlobal = (tag: TStudyTag) =>
    void act(
      tag.globalTag ? CONFIRMATIONS.makeTagLocal.text : CONFIRMATIONS.makeTagGlobal.text,
      async () => {
        await updateTag(tag.id, !tag.globalTag);
        setTags((list) => list.map((t) => (t.id === tag.id ? { ...t, globalTag: !t.globalTag } : t)));
      },
      tag.globalTag ? 'Tag made local' : 'Tag made global',
    );

  return (
    <Dialog open onClose={busy ? undefined : onClose} maxWidth="xs" fullWidth aria-labelledby={titleId}>
      <DialogTitle id={titleId}>Tags · {row.id}</DialogTitle>
      <DialogContent>
        <Stack spacing={1.5} sx={{ pt: 1 }}>
          <Autocomplete
            freeSolo
            options={tagChoiceOptions(choices.data?.tags ?? [], tags)}
            inputValue={text}
            onInputChange={(_e, next) => setText(next)}
            noOptionsText={MESSAGES.noResultFound}
            loading={choices.isPending}
            disabled={busy}
            renderInput={(params) => (
              <TextField
                {...params}
                label="Tag"
                placeholder="Choose or type a new tag"
                slotProps={{
                  ...params.slotProps,
                  htmlInput: { ...params.slotProps.htmlInput, maxLength: TAG_MAX_LENGTH },
                }}
              />
            )}
          />
          <Stack direction="row" sx={{ justifyContent: 'space-between', alignItems: 'center' }}>
            <FormControlLabel
              control={<Checkbox checked={global} onChange={(e) => setGlobal(e.target.checked)} />}
              label="Global tag"
            />
            <Button variant="contained" onClick={assign} disabled={busy}>
              Assign tag
            </Button>
          </Stack>
          <Typography variant="subtitle2">Tags of this study</Typography>
          {tags.length === 0 ? (
            <Typography variant="body2" color="text.secondary">
              No tag yet
            </Typography>
          ) : (
            <List dense aria-label="Tags of this study">
              {tags.map((tag) => {
                const mayChange = canChangeTag(actor, tag);
                return (
                  <ListItem
                    key={tag.id}
                    secondaryAction={
                      mayChange && (
                        <>
                          <IconButton
                            size="small"
                            aria-label={tag.globalTag ? `Make ${tag.tag} local` : `Make ${tag.tag} global`}
                            onClick={() => toggleGlobal(tag)}
                            disabled={busy}
                          >
                            {tag.globalTag ? (
                              <PublicOffIcon fontSize="small" />
                            ) : (
                              <PublicIcon fontSize="small" />
                            )}
                          </IconButton>
                          <IconButton
                            size="small"
                            aria-label={`Delete tag ${tag.tag}`}
                            onClick={() => remove(tag)}
                            disabled={busy}
                          >
                            <DeleteIcon fontSize="small" />
                          </IconButton>
                        </>
                      )
                    }
                  >
                    <ListItemText
                      primary={<Chip size="small" label={tag.tag} />}
                      secondary={tag.globalTag ? 'Global' : 'Local'}
                    />
                  </ListItem>
                );
              })}
            </List>
          )}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={busy}>
          Close
        </Button>
      </DialogActions>
    </Dialog>
  );
}

export default TagDialog;
