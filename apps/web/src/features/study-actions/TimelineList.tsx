import Alert from '@mui/material/Alert';
import CircularProgress from '@mui/material/CircularProgress';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import type { TStudyEvent } from '@radflow/core';
import { formatTimestamp } from '../../lib/format';
import { eventActor, eventDetail, eventLabel, eventStatusChange } from './timeline-text';

/** A study timeline, newest first: what happened, the status change, who and when. */
export function TimelineList({
  events,
  isPending,
  isError,
  emptyText,
}: {
  events: readonly TStudyEvent[] | undefined;
  isPending: boolean;
  isError: boolean;
  emptyText: string;
}) {
  if (isPending) return <CircularProgress size={24} aria-label="Loading" />;
  if (isError) return <Alert severity="error">The timeline could not be loaded</Alert>;
  if (!events || events.length === 0) return <Alert severity="info">{emptyText}</Alert>;
  const newestFirst = [...events].reverse();
  return (
    <List dense aria-label="Timeline">
      {newestFirst.map((event) => {
        const change = eventStatusChange(event);
        const detail = eventDetail(event);
        return (
          <ListItem key={event.id} divider>
            <ListItemText
              primary={[eventLabel(event.eventType), change, detail].filter(Boolean).join(' · ')}
              secondary={`${formatTimestamp(event.createdAt)} · ${eventActor(event)}`}
            />
          </ListItem>
        );
      })}
    </List>
  );
}
