import Button from '@mui/material/Button';
import type { TCriticalResult } from '@radflow/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useFeedback } from '../../components/feedback/feedback-context';
import {
  OPEN_CRITICAL_RESULTS_QUERY_KEY,
  acknowledgeCriticalResult,
  criticalResultsQueryKey,
} from './critical-results-api';

/** 'Acknowledge' on one result; the open list and the row's results follow the answer. */
export function AcknowledgeButton({ result }: { result: TCriticalResult }) {
  const queryClient = useQueryClient();
  const { showInfo } = useFeedback();
  const acknowledge = useMutation({
    mutationFn: () => acknowledgeCriticalResult(result.id),
    onSuccess: async () => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: OPEN_CRITICAL_RESULTS_QUERY_KEY }),
        queryClient.invalidateQueries({ queryKey: criticalResultsQueryKey(result.entityId) }),
      ]);
      showInfo('Critical result acknowledged');
    },
  });
  return (
    <Button
      size="small"
      color="inherit"
      variant="outlined"
      disabled={acknowledge.isPending}
      onClick={() => acknowledge.mutate()}
      aria-label={`Acknowledge critical result ${result.id}`}
    >
      Acknowledge
    </Button>
  );
}
