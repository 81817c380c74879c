import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import { isNotificationEvent, formatPersonName } from '@radflow/core';
import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import type { TStudyDialogProps } from './dialog-props';
import { fetchStudyTimeline } from './study-actions.api';
import { TimelineList } from './TimelineList';

/** The report notification timeline (spec-core §2): the report's assignment, urgency, lock, rework and audit events. */
export function NotificationTimelineDialog({ row, onClose }: TStudyDialogProps) {
  const titleId = useId();
  const timeline = useQuery({
    // Its own key: the history dialog caches GET /history/{id} under ['study-history', id].
    queryKey: ['study-history', row.id, 'timeline'],
    queryFn: ({ signal }) => fetchStudyTimeline(row.id, signal),
    select: (events) => events.filter(isNotificationEvent),
  });
  return (
    <Dialog open onClose={onClose} maxWidth="sm" fullWidth aria-labelledby={titleId}>
      <DialogTitle id={titleId}>
        Report notifications · {row.id} {formatPersonName(row.patientName)}
      </DialogTitle>
      <DialogContent>
        <TimelineList
          events={timeline.data}
          isPending={timeline.isPending}
          isError={timeline.isError}
          emptyText="No notification for this report yet"
        />
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Close</Button>
      </DialogActions>
    </Dialog>
  );
}

export default NotificationTimelineDialog;
