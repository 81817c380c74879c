import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import DeleteIcon from '@mui/icons-material/Delete';
import { validateForwardingPacs, type TEchoResult } from '@radflow/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useSnackbar } from '../../components/feedback/feedback-context';
import {
  createForwardingPacs,
  deleteForwardingPacs,
  echoForwardingPacs,
  errorTextOf,
  fetchForwardingPacs,
  forwardingPacsKey,
} from './forwarding-api';

const EMPTY = { name: '', aeTitle: '', ip: '', port: '' };

/** What the C-ECHO test says. */
export function describeEcho(result: TEchoResult): string {
  return result.ok ? `Echo OK (${result.elapsedMs ?? 0} ms)` : `Echo failed: ${result.error ?? 'no answer'}`;
}

/**
 * The forwarding PACS settings entry (spec-lab §3 settings object aeTitle, ip, port; §5 rules,
 * checked by core's `validateForwardingPacs`, the server answering the same texts): the center's
 * list with a C-ECHO test and delete, and a form to add one.
 */
export function ForwardingPacsSettings({ centerId = null }: { centerId?: number | null }) {
  const [form, setForm] = useState(EMPTY);
  const [problem, setProblem] = useState<string | null>(null);
  const { showInfo, showError } = useSnackbar();
  const queryClient = useQueryClient();
  const key = forwardingPacsKey(centerId);
  const list = useQuery({ queryKey: key, queryFn: ({ signal }) => fetchForwardingPacs(centerId, signal) });
  const refresh = () => void queryClient.invalidateQueries({ queryKey: key });

  const create = useMutation({
    mutationFn: createForwardingPacs,
    onSuccess: () => {
      setForm(EMPTY);
      refresh();
      showInfo('PACS server added');
    },
    onError: (error) => setProblem(errorTextOf(error)),
  });
  const remove = useMutation({ mutationFn: deleteForwardingPacs, onSuccess: refresh });
  const echo = useMutation({
    mutationFn: echoForwardingPacs,
    onSuccess: (result) => (result.ok ? showInfo(describeEcho(result)) : showError(describeEcho(result))),
  });

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const message = validateForwardingPacs(form);
    setProblem(message);
    if (message) return;
    create.mutate({ ...form, ...(centerId === null ? {} : { centerId }) });
  };

  const field = (name: keyof typeof EMPTY, label: string) => (
    <TextField
      label={label}
      name={name}
      size="small"
      value={form[name]}
      onChange={(e) => setForm({ ...form, [name]: e.target.value })}
      disabled={create.isPending}
    />
  );

  return (
    <Stack spacing={2}>
      <Typography variant="h6">Forwarding PACS</Typography>
      {list.data && list.data.length === 0 && (
        <Typography variant="body2" color="text.secondary">
          No PACS server yet
        </Typography>
      )}
      <List dense aria-label="Forwarding PACS servers">
        {(list.data ?? []).map((p) => (
          <ListItem
            key={p.id}
            secondaryAction={
              <Stack direction="row" spacing={1}>
                <Button size="small" disabled={echo.isPending} onClick={() => echo.mutate(p.id)}>
                  Test
                </Button>
                <IconButton
                  aria-label={`Delete ${p.aeTitle}`}
                  size="small"
                  onClick={() => remove.mutate(p.id)}
                >
                  <DeleteIcon fontSize="small" />
                </IconButton>
              </Stack>
            }
          >
            <ListItemText
              primary={p.name ? `${p.name} (${p.aeTitle})` : p.aeTitle}
              secondary={`${p.ip}:${p.port}`}
            />
          </ListItem>
        ))}
      </List>
      <Stack
        component="form"
        direction="row"
        spacing={1}
        onSubmit={onSubmit}
        noValidate
        aria-label="Add PACS server"
      >
        {field('name', 'Name')}
        {field('aeTitle', 'AE title')}
        {field('ip', 'IP')}
        {field('port', 'Port')}
        <Button type="submit" variant="contained" disabled={create.isPending}>
          Add
        </Button>
      </Stack>
      {problem && <Alert severity="error">{problem}</Alert>}
    </Stack>
  );
}
