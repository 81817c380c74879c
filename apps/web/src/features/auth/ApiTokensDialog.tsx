import DeleteIcon from '@mui/icons-material/DeleteOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { API_TOKEN_TTL_DAYS, type TApiTokenInfo } from '@radflow/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { fetchApiTokens, mintApiToken, revokeApiToken } from '../../api/identity';
import { useFeedback } from '../../components/feedback/feedback-context';
import { formatTimestamp } from '../../lib/format';

export const API_TOKENS_QUERY_KEY = ['user', 'api-tokens'] as const;

/**
 * API tokens from the account menu: the owner's live tokens for DICOM clients (DICOMweb only), a new
 * one shown once to copy, and Revoke for each (server modules/auth/DECISIONS.md).
 */
export function ApiTokensDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const titleId = useId();
  const queryClient = useQueryClient();
  const { confirm, showInfo } = useFeedback();
  const [minted, setMinted] = useState<string | null>(null);
  const tokens = useQuery({
    queryKey: API_TOKENS_QUERY_KEY,
    queryFn: ({ signal }) => fetchApiTokens(signal),
    enabled: open,
  });
  const refresh = () => void queryClient.invalidateQueries({ queryKey: API_TOKENS_QUERY_KEY });
  const create = useMutation({
    mutationFn: mintApiToken,
    onSuccess: (answer) => {
      setMinted(answer.token);
      refresh();
    },
  });
  const revoke = useMutation({
    mutationFn: revokeApiToken,
    onSuccess: () => {
      showInfo('Token revoked');
      refresh();
    },
  });

  const onRevoke = async (token: TApiTokenInfo) => {
    if (!(await confirm({ message: `Revoke the token ${token.hint}…? Clients using it stop working.` })))
      return;
    revoke.mutate(token.id);
  };
  const close = () => {
    setMinted(null);
    create.reset();
    onClose();
  };
  const list = tokens.data ?? [];

  return (
    <Dialog open={open} onClose={close} maxWidth="sm" fullWidth aria-labelledby={titleId}>
      <DialogTitle id={titleId}>API tokens</DialogTitle>
      <DialogContent>
        <Stack spacing={1.5} sx={{ pt: 1 }}>
          <Typography variant="body2" color="text.secondary">
            For DICOM clients (DICOMweb at /api/dicomweb, header Authorization: Bearer). A token works for{' '}
            {API_TOKEN_TTL_DAYS} days and nowhere else in the app.
          </Typography>
          {minted && (
            <Alert severity="success">
              <Stack spacing={1}>
                <span>Copy the new token now: it is not shown again.</span>
                <TextField
                  label="New token"
                  value={minted}
                  size="small"
                  fullWidth
                  slotProps={{ htmlInput: { readOnly: true, 'aria-label': 'New token' } }}
                  onFocus={(e) => e.target.select()}
                />
              </Stack>
            </Alert>
          )}
          {tokens.isPending ? (
            <CircularProgress size={24} aria-label="Loading" />
          ) : tokens.isError ? (
            <Alert severity="error">The tokens could not be loaded</Alert>
          ) : list.length === 0 ? (
            <Typography variant="body2" color="text.secondary">
              No API token
            </Typography>
          ) : (
            <List dense aria-label="API tokens">
              {list.map((token) => (
                <ListItem
                  key={token.id}
                  divider
                  secondaryAction={
                    <IconButton
                      size="small"
                      aria-label={`Revoke ${token.hint}`}
                      onClick={() => void onRevoke(token)}
                      disabled={revoke.isPending}
                    >
                      <DeleteIcon fontSize="small" />
                    </IconButton>
                  }
                >
                  <ListItemText
                    primary={`${token.hint}…`}
                    secondary={
                      <Box component="span">
                        Created {formatTimestamp(token.createdAt)} · expires{' '}
                        {formatTimestamp(token.expiresAt)}
                        {' · '}
                        {token.lastUsedAt ? `last used ${formatTimestamp(token.lastUsedAt)}` : 'never used'}
                      </Box>
                    }
                  />
                </ListItem>
              ))}
            </List>
          )}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={close} color="inherit">
          Close
        </Button>
        <Button variant="contained" onClick={() => create.mutate()} disabled={create.isPending}>
          New token
        </Button>
      </DialogActions>
    </Dialog>
  );
}
