import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import type { RouterClient } from './router-client';
import { errorText } from '../../lib/error-text';

/**
 * The router's sign-in (apps/router API.md "Who the user is"), for /pacs-router and the hybrid list.
 * A known e-mail (the cloud session's) is shown and fixed; without one (the router-served page, no
 * cloud session) it is typed.
 */
export function RouterSignInForm({
  client,
  knownEmail,
  intro,
  onSignedIn,
}: {
  client: RouterClient;
  knownEmail: string | null;
  intro: string;
  onSignedIn: () => void;
}) {
  const [email, setEmail] = useState(knownEmail ?? '');
  const [password, setPassword] = useState('');
  const signIn = useMutation({
    mutationFn: () => client.login({ email, password }),
    onSuccess: () => {
      setPassword('');
      onSignedIn();
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    signIn.mutate();
  };
  return (
    <Paper variant="outlined" sx={{ p: 3, maxWidth: 480 }}>
      <Box component="form" aria-label="Sign in to the router" onSubmit={submit}>
        <Typography sx={{ mb: 2 }}>{intro}</Typography>
        <TextField
          label="Email"
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          disabled={knownEmail !== null}
          fullWidth
          required
          sx={{ mb: 2 }}
        />
        <TextField
          label="Password"
          type="password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          fullWidth
          required
          autoComplete="current-password"
          sx={{ mb: 2 }}
        />
        {signIn.isError && (
          <Alert severity="error" sx={{ mb: 2 }}>
            {errorText(signIn.error)}
          </Alert>
        )}
        <Button
          type="submit"
          variant="contained"
          disabled={signIn.isPending || password === '' || email === ''}
        >
          Sign in to router
        </Button>
      </Box>
    </Paper>
  );
}
