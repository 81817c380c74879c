import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import type { TStudyDialogProps } from './dialog-props';
import { fetchHistory, historyQueryKey } from './study-actions.api';
import { TimelineList } from './TimelineList';
import { formatPersonName } from '@radflow/core';

/**
 * The study history view (spec-core §2; GET /history/{id}): the clinical history as written, then every
 * change of the study, who made it, when and from which status.
 */
export function StudyHistoryDialog({ row, onClose }: TStudyDialogProps) {
  const titleId = useId();
  const history = useQuery({
    queryKey: historyQueryKey(row.id),
    queryFn: ({ signal }) => fetchHistory(row.id, signal),
  });
  const text = history.data?.history ?? row.history;
  return (
    <Dialog open onClose={onClose} maxWidth="sm" fullWidth aria-labelledby={titleId}>
      <DialogTitle id={titleId}>
        Study history · {row.id} {formatPersonName(row.patientName)}
      </DialogTitle>
      <DialogContent>
        <Typography variant="subtitle2">History</Typography>
        <Typography
          variant="body2"
          sx={{ whiteSpace: 'pre-wrap', mb: 2 }}
          color={text ? undefined : 'text.secondary'}
        >
          {text || 'No history written'}
        </Typography>
        <Typography variant="subtitle2">Timeline</Typography>
        <TimelineList
          events={history.data?.timeline}
          isPending={history.isPending}
          isError={history.isError}
          emptyText="Nothing has happened to this study yet"
        />
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Close</Button>
      </DialogActions>
    </Dialog>
  );
}

export default StudyHistoryDialog;
