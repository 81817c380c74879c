import SupportIcon from '@mui/icons-material/SupportAgentOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Drawer from '@mui/material/Drawer';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { SUPPORT_CHAT_TEXTS as T, ZChatText, offersSupportChat } from '@radflow/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { formatTimestamp } from '../../lib/format';
import { useServerCall } from '../../lib/server-call';
import { useSignedInSession } from '../auth/session';
import { SUPPORT_CHAT_QUERY_KEY, fetchSupportThread, sendSupportMessage } from './support-chat-api';

/**
 * The support chat of spec-core §2 Shell (issue 29 §6): a button in the top bar, only while the
 * group's enableSupportChatBot is on, opening the user's own thread with the platform's support.
 */
export function SupportChatButton() {
  const { roles, flags } = useSignedInSession();
  const [open, setOpen] = useState(false);
  if (!offersSupportChat(roles, flags.enableSupportChatBot)) return null;
  return (
    <>
      <Tooltip title={T.open}>
        <IconButton color="inherit" aria-label={T.open} onClick={() => setOpen(true)}>
          <SupportIcon />
        </IconButton>
      </Tooltip>
      <Drawer anchor="right" open={open} onClose={() => setOpen(false)}>
        {open && <SupportChatPanel />}
      </Drawer>
    </>
  );
}

function SupportChatPanel() {
  const queryClient = useQueryClient();
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const thread = useQuery({
    queryKey: SUPPORT_CHAT_QUERY_KEY,
    queryFn: ({ signal }) => fetchSupportThread(signal),
    // Support's answers arrive while the panel is open.
    refetchInterval: 15_000,
  });
  const send = useServerCall({
    mutationFn: sendSupportMessage,
    onSuccess: (answer) => {
      queryClient.setQueryData(SUPPORT_CHAT_QUERY_KEY, answer);
      setText('');
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const checked = ZChatText.safeParse(text);
    if (!checked.success) {
      setError(checked.error.issues[0]?.message ?? null);
      return;
    }
    setError(null);
    send.mutate(checked.data);
  };
  const messages = thread.data?.messages ?? [];

  return (
    <Box
      role="dialog"
      aria-label={T.title}
      sx={{ width: { xs: '100vw', sm: 380 }, height: '100%', display: 'flex', flexDirection: 'column', p: 2 }}
    >
      <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
        {T.title}
      </Typography>
      <Stack spacing={1} sx={{ flex: 1, overflowY: 'auto' }} role="log" aria-label={T.title}>
        {messages.length === 0 && thread.isSuccess && (
          <Typography variant="body2" color="text.secondary">
            {T.empty}
          </Typography>
        )}
        {messages.map((m) => (
          <Box
            key={m.id}
            sx={{
              alignSelf: m.fromSupport ? 'flex-start' : 'flex-end',
              maxWidth: '85%',
              bgcolor: m.fromSupport ? 'action.hover' : 'primary.dark',
              borderRadius: 1,
              px: 1.25,
              py: 0.75,
            }}
          >
            <Typography variant="caption" color="text.secondary" component="div">
              {m.fromSupport ? T.fromSupport : T.you} · {formatTimestamp(m.createdAt)}
            </Typography>
            <Typography variant="body2" sx={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>
              {m.message}
            </Typography>
          </Box>
        ))}
      </Stack>
      <Box component="form" onSubmit={submit} sx={{ display: 'flex', gap: 1, mt: 1 }}>
        <TextField
          size="small"
          fullWidth
          multiline
          maxRows={4}
          label={T.placeholder}
          value={text}
          onChange={(e) => setText(e.target.value)}
          error={error !== null}
          helperText={error}
        />
        <Button type="submit" variant="contained" disabled={send.isPending}>
          {T.send}
        </Button>
      </Box>
    </Box>
  );
}
