import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import {
  CRITICAL_FINDING_MAX_LENGTH,
  CRITICAL_RESULT_CATEGORIES,
  CRITICAL_RESULT_CATEGORY_LABELS,
  ZCriticalFinding,
  type TCriticalResultCategory,
} from '@radflow/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useFeedback } from '../../components/feedback/feedback-context';
import {
  OPEN_CRITICAL_RESULTS_QUERY_KEY,
  criticalErrorText,
  criticalResultsQueryKey,
  raiseCriticalResult,
} from './critical-results-api';

/**
 * Raise a critical result (issue 23 §5): a category and a short finding. The server sends it at
 * once to the center and the referring doctor; the finding's rule is core's (`ZCriticalFinding`),
 * so the button waits for a valid text and a refusal is shown in the dialog.
 */
export function RaiseCriticalResultDialog({
  reportStatusId,
  onClose,
}: {
  reportStatusId: number;
  onClose(): void;
}) {
  const titleId = useId();
  const queryClient = useQueryClient();
  const { showInfo } = useFeedback();
  const [category, setCategory] = useState<TCriticalResultCategory>('CRITICAL');
  const [finding, setFinding] = useState('');
  const valid = ZCriticalFinding.safeParse(finding);
  const raise = useMutation({
    mutationFn: () => raiseCriticalResult({ entityId: reportStatusId, category, finding }),
    onSuccess: async () => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: criticalResultsQueryKey(reportStatusId) }),
        queryClient.invalidateQueries({ queryKey: OPEN_CRITICAL_RESULTS_QUERY_KEY }),
      ]);
      showInfo('Critical result sent to the center and the referring doctor');
      onClose();
    },
  });
  return (
    <Dialog open onClose={onClose} maxWidth="sm" fullWidth aria-labelledby={titleId}>
      <DialogTitle id={titleId}>Raise a critical result</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          <TextField
            select
            label="Category"
            value={category}
            onChange={(e) => setCategory(e.target.value as TCriticalResultCategory)}
          >
            {CRITICAL_RESULT_CATEGORIES.map((c) => (
              <MenuItem key={c} value={c}>
                {CRITICAL_RESULT_CATEGORY_LABELS[c]}
              </MenuItem>
            ))}
          </TextField>
          <TextField
            label="Finding"
            multiline
            minRows={3}
            value={finding}
            onChange={(e) => setFinding(e.target.value)}
            helperText={
              finding.trim() && !valid.success
                ? valid.error.issues[0]?.message
                : `${finding.trim().length}/${CRITICAL_FINDING_MAX_LENGTH} · sent by SMS and e-mail`
            }
            error={Boolean(finding.trim()) && !valid.success}
          />
          {raise.isError ? <Alert severity="error">{criticalErrorText(raise.error)}</Alert> : null}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Cancel</Button>
        <Button
          variant="contained"
          color="error"
          disabled={!valid.success || raise.isPending}
          onClick={() => raise.mutate()}
        >
          Send critical result
        </Button>
      </DialogActions>
    </Dialog>
  );
}
