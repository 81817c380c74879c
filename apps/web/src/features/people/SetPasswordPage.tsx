import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import {
  MESSAGE_PASSWORD_LINK_INVALID,
  MESSAGE_PASSWORD_TOO_SHORT,
  passwordLength,
  passwordProblem,
  PASSWORD_MIN_LENGTH,
} from '@radflow/core';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link as RouterLink, useSearchParams } from 'react-router';
import { fetchPasswordLink, setPasswordByLink } from '../../api/people';
import { BrandLogo } from '../brand/BrandLogo';
import { refusalText } from './people-form';

export const MESSAGE_PASSWORDS_DIFFER = 'The two passwords differ';

/**
 * /set-password?token=… (public; issue 21 §9): the page of an invitation or password-reset link. It
 * asks the server whom the link is for, then takes the new password under the core password rules
 * (the server also refuses common passwords) and sends the user to sign in.
 */
export function SetPasswordPage() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const link = useQuery({
    queryKey: ['password-link', token],
    queryFn: () => fetchPasswordLink(token),
    enabled: token.length > 0,
    retry: false,
    staleTime: Infinity,
  });
  const [password, setPassword] = useState('');
  const [repeat, setRepeat] = useState('');
  const [error, setError] = useState<string | null>(null);
  const mutation = useMutation({ mutationFn: () => setPasswordByLink(token, password) });

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!link.data) return;
    const problem =
      passwordLength(password) < PASSWORD_MIN_LENGTH
        ? MESSAGE_PASSWORD_TOO_SHORT
        : (passwordProblem(password, link.data) ?? (password !== repeat ? MESSAGE_PASSWORDS_DIFFER : null));
    setError(problem);
    if (!problem) mutation.mutate();
  };

  let content;
  if (!token || link.isError) {
    content = (
      <Alert severity="error">{MESSAGE_PASSWORD_LINK_INVALID}. Ask your administrator for a new one.</Alert>
    );
  } else if (!link.data) {
    content = <Typography>Checking the link…</Typography>;
  } else if (mutation.isSuccess) {
    content = (
      <Stack spacing={2}>
        <Alert severity="success">Your password is set.</Alert>
        <Button
          component={RouterLink}
          to={`/login-page/${encodeURIComponent(link.data.email)}`}
          variant="contained"
        >
          Sign in
        </Button>
      </Stack>
    );
  } else {
    content = (
      <form noValidate onSubmit={onSubmit}>
        <Stack spacing={2}>
          <Typography>
            {link.data.purpose === 'INVITE' ? 'Welcome' : 'Hello'}, {link.data.identifier}. Choose a password
            for <strong>{link.data.email}</strong>.
          </Typography>
          {mutation.isError && <Alert severity="error">{refusalText(mutation.error)}</Alert>}
          <TextField
            label="New password"
            name="newPassword"
            type="password"
            autoComplete="new-password"
            autoFocus
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            error={Boolean(error)}
            helperText={error ?? `At least ${PASSWORD_MIN_LENGTH} characters, not your name or e-mail`}
          />
          <TextField
            label="Repeat the password"
            name="repeatPassword"
            type="password"
            autoComplete="new-password"
            value={repeat}
            onChange={(e) => setRepeat(e.target.value)}
          />
          <Button type="submit" variant="contained" disabled={mutation.isPending}>
            Set password
          </Button>
        </Stack>
      </form>
    );
  }

  return (
    <Box sx={{ display: 'flex', justifyContent: 'center', pt: 6 }}>
      <Paper variant="outlined" sx={{ p: 3, width: '100%', maxWidth: 420 }}>
        <Stack spacing={2}>
          <BrandLogo scope={{ kind: 'public' }} />
          <Typography variant="h1">Set your password</Typography>
          {content}
        </Stack>
      </Paper>
    </Box>
  );
}

export default SetPasswordPage;
