import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { type TSupportMessage, ZChatText } from '@radflow/core';
import { type FormEvent, useState } from 'react';
import { formatTimestamp } from '../../lib/format';

/**
 * A support thread's messages, as one side sees them: its own on the right, the other side's on the
 * left (the user's panel and support's inbox, issue 29 §6).
 */
export function SupportThreadLog({
  label,
  messages,
  emptyText,
  isMine,
  whoOf,
}: {
  label: string;
  messages: readonly TSupportMessage[];
  emptyText: string | null;
  isMine: (m: TSupportMessage) => boolean;
  whoOf: (m: TSupportMessage) => string;
}) {
  return (
    <Stack spacing={1} sx={{ flex: 1, overflowY: 'auto' }} role="log" aria-label={label}>
      {messages.length === 0 && emptyText && (
        <Typography variant="body2" color="text.secondary">
          {emptyText}
        </Typography>
      )}
      {messages.map((m) => (
        <Box
          key={m.id}
          sx={{
            alignSelf: isMine(m) ? 'flex-end' : 'flex-start',
            maxWidth: '85%',
            bgcolor: isMine(m) ? 'primary.dark' : 'action.hover',
            borderRadius: 1,
            px: 1.25,
            py: 0.75,
          }}
        >
          <Typography variant="caption" color="text.secondary" component="div">
            {whoOf(m)} · {formatTimestamp(m.createdAt)}
          </Typography>
          <Typography variant="body2" sx={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>
            {m.message}
          </Typography>
        </Box>
      ))}
    </Stack>
  );
}

/** The text box and its button; the chat's text rule (core ZChatText) before anything is sent. */
export function SupportReplyForm({
  label,
  sendLabel,
  isPending,
  onSend,
}: {
  label: string;
  sendLabel: string;
  isPending: boolean;
  /** Sends the checked text; resolves once sent, so the box empties. */
  onSend: (message: string, sent: () => void) => void;
}) {
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const checked = ZChatText.safeParse(text);
    if (!checked.success) {
      setError(checked.error.issues[0]?.message ?? null);
      return;
    }
    setError(null);
    onSend(checked.data, () => setText(''));
  };
  return (
    <Box component="form" onSubmit={submit} sx={{ display: 'flex', gap: 1, mt: 1 }}>
      <TextField
        size="small"
        fullWidth
        multiline
        maxRows={4}
        label={label}
        value={text}
        onChange={(e) => setText(e.target.value)}
        error={error !== null}
        helperText={error}
      />
      <Button type="submit" variant="contained" disabled={isPending}>
        {sendLabel}
      </Button>
    </Box>
  );
}
