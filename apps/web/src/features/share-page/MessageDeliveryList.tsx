import Alert from '@mui/material/Alert';
import Chip from '@mui/material/Chip';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import type { TReportMessage } from '@radflow/core';
import { useQuery } from '@tanstack/react-query';
import { formatTimestamp } from '../../lib/format';
import { fetchReportMessages, reportMessagesQueryKey } from './share-page.api';

export const DELIVERY_LABELS = {
  title: 'Messages sent',
  none: 'Nothing sent yet',
  failedToLoad: 'The messages could not be loaded',
} as const;

export const CHANNEL_LABELS: Record<TReportMessage['channel'], string> = {
  SMS: 'SMS',
  WHATSAPP: 'WhatsApp',
  EMAIL: 'E-mail',
};

/** A provider that only records (no gateway configured) leaves a message PENDING: handed over, not confirmed. */
export const STATUS_LABELS: Record<TReportMessage['status'], string> = {
  PENDING: 'Queued',
  SENT: 'Sent',
  FAILED: 'Failed',
};

const STATUS_COLORS = { PENDING: 'default', SENT: 'success', FAILED: 'error' } as const;

/**
 * The study's messages with their delivery status (issue 7 §5 "each message's delivery status kept
 * and shown"), newest first. The share dialog refreshes it after every send.
 */
export function MessageDeliveryList({ reportStatusId }: { reportStatusId: number }) {
  const messages = useQuery({
    queryKey: reportMessagesQueryKey(reportStatusId),
    queryFn: ({ signal }) => fetchReportMessages(reportStatusId, signal),
  });
  if (messages.isPending) return null;
  if (messages.isError) return <Alert severity="warning">{DELIVERY_LABELS.failedToLoad}</Alert>;
  if (messages.data.length === 0) {
    return (
      <Typography variant="body2" color="textSecondary">
        {DELIVERY_LABELS.none}
      </Typography>
    );
  }
  return (
    <Table size="small" aria-label={DELIVERY_LABELS.title}>
      <TableHead>
        <TableRow>
          <TableCell>Channel</TableCell>
          <TableCell>Recipient</TableCell>
          <TableCell>Status</TableCell>
          <TableCell>Time</TableCell>
        </TableRow>
      </TableHead>
      <TableBody>
        {messages.data.map((m) => (
          <TableRow key={m.id}>
            <TableCell>{CHANNEL_LABELS[m.channel]}</TableCell>
            <TableCell sx={{ wordBreak: 'break-all' }}>
              {m.recipient}
              {m.attachments.length > 0 && (
                <Typography variant="caption" color="textSecondary" sx={{ display: 'block' }}>
                  Attached: {m.attachments.join(', ')}
                </Typography>
              )}
            </TableCell>
            <TableCell>
              <Chip size="small" label={STATUS_LABELS[m.status]} color={STATUS_COLORS[m.status]} />
              {m.failureReason && (
                <Typography variant="caption" color="error" sx={{ display: 'block' }}>
                  {m.failureReason}
                </Typography>
              )}
            </TableCell>
            <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatTimestamp(m.sentAt)}</TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
