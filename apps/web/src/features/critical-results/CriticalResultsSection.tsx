import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { type TCriticalResult, mayReadCriticalResults } from '@radflow/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useSignedInSession } from '../auth/session';
import { AcknowledgeButton } from './AcknowledgeButton';
import {
  criticalResultRaisedText,
  criticalResultStatusText,
  criticalResultTitle,
} from './critical-result-text';
import { criticalResultsQueryKey, fetchCriticalResults } from './critical-results-api';
import { RaiseCriticalResultDialog } from './RaiseCriticalResultDialog';

/**
 * The report editor's critical results (issue 23 §5): the row's results with where each stands
 * (acknowledged, escalated, waiting), 'Acknowledge' for whoever may, and — for the doctor who may
 * write this report (`canRaise`) — 'Critical result', which opens the raise dialog.
 */
export function CriticalResultsSection({
  reportStatusId,
  canRaise,
}: {
  reportStatusId: number;
  canRaise: boolean;
}) {
  const session = useSignedInSession();
  const reads = mayReadCriticalResults(session.roles);
  const [raising, setRaising] = useState(false);
  const results = useQuery({
    queryKey: criticalResultsQueryKey(reportStatusId),
    queryFn: ({ signal }) => fetchCriticalResults(reportStatusId, signal),
    enabled: reads,
  });
  if (!reads) return null;
  const list: readonly TCriticalResult[] = results.data ?? [];
  return (
    <Stack spacing={1} aria-label="Critical results" role="region">
      {canRaise ? (
        <Stack direction="row">
          <Button variant="outlined" color="error" size="small" onClick={() => setRaising(true)}>
            Critical result
          </Button>
        </Stack>
      ) : null}
      {list.map((r) => (
        <Alert
          key={r.id}
          severity={r.state === 'ACKNOWLEDGED' ? 'success' : 'error'}
          action={r.canAcknowledge ? <AcknowledgeButton result={r} /> : undefined}
        >
          <Typography variant="body2" sx={{ whiteSpace: 'pre-wrap' }}>
            {criticalResultTitle(r)}
          </Typography>
          <Typography variant="caption" component="p">
            {criticalResultRaisedText(r)} · {criticalResultStatusText(r)}
          </Typography>
        </Alert>
      ))}
      {raising ? (
        <RaiseCriticalResultDialog reportStatusId={reportStatusId} onClose={() => setRaising(false)} />
      ) : null}
    </Stack>
  );
}
