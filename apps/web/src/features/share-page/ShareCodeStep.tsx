import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { OTP_PATTERN, SHARE_MESSAGES } from '@radflow/core';
import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { errorText } from '../../lib/error-text';
import { requestShareCode, verifyShareCode } from './share-page.api';

export const SHARE_CODE_LABELS = {
  title: 'This report is protected',
  send: 'Send code',
  resend: 'Resend code',
  code: 'Code',
  open: 'Open report',
  sent: (mobile: string) => `A code was sent to ${mobile}.`,
  badFormat: 'The code is 6 digits',
} as const;

/**
 * The code step of a protected link (group switch requireOtpForSharedReport): the code goes to the
 * patient's mobile on record, shown masked. Decision: the code is sent when the visitor asks, not
 * when the page opens, so a link preview (WhatsApp, mail scanners) never sends an SMS.
 */
export function ShareCodeStep({
  link,
  mobile,
  onVerified,
}: {
  link: string;
  mobile: string;
  onVerified: () => void;
}) {
  const [isSent, setIsSent] = useState(false);
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [info, setInfo] = useState<string | null>(null);
  const send = useMutation({
    mutationFn: () => requestShareCode(link),
    onMutate: () => setError(null),
    onSuccess: (sent) => {
      setIsSent(true);
      setInfo(SHARE_CODE_LABELS.sent(sent.mobile));
    },
    onError: (e) => setError(errorText(e)),
  });
  const verifyCode = useMutation({
    mutationFn: (typed: string) => verifyShareCode(link, typed),
    onMutate: () => setError(null),
    onSuccess: onVerified,
    onError: (e) => setError(errorText(e)),
  });
  // A verified code stays busy: the report replaces this step.
  const busy = send.isPending || verifyCode.isPending || verifyCode.isSuccess;

  const verify = (event: FormEvent) => {
    event.preventDefault();
    const typed = code.trim();
    if (!OTP_PATTERN.test(typed)) {
      setError(SHARE_CODE_LABELS.badFormat);
      return;
    }
    verifyCode.mutate(typed);
  };

  return (
    <Paper component="section" aria-label={SHARE_CODE_LABELS.title} sx={{ p: 3, maxWidth: 420, mx: 'auto' }}>
      <Stack spacing={2}>
        <Typography variant="h6" component="h1">
          {SHARE_CODE_LABELS.title}
        </Typography>
        <Typography>
          {SHARE_MESSAGES.codeRequired}: <strong>{mobile}</strong>
        </Typography>
        {info && <Alert severity="info">{info}</Alert>}
        {error && <Alert severity="error">{error}</Alert>}
        {isSent && (
          <Stack component="form" noValidate spacing={1.5} onSubmit={verify}>
            <TextField
              label={SHARE_CODE_LABELS.code}
              value={code}
              onChange={(e) => setCode(e.target.value.replace(/\D/g, '').slice(0, 6))}
              autoFocus
              disabled={busy}
              slotProps={{ htmlInput: { inputMode: 'numeric', autoComplete: 'one-time-code', maxLength: 6 } }}
            />
            <Box>
              <Button type="submit" variant="contained" disabled={busy}>
                {SHARE_CODE_LABELS.open}
              </Button>
            </Box>
          </Stack>
        )}
        <Box>
          <Button variant={isSent ? 'text' : 'contained'} onClick={() => send.mutate()} disabled={busy}>
            {isSent ? SHARE_CODE_LABELS.resend : SHARE_CODE_LABELS.send}
          </Button>
        </Box>
      </Stack>
    </Paper>
  );
}
