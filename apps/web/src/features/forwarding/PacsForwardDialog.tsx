import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { FORWARDING_MESSAGES, formatForwardFailure, type TForwardRecord } from '@radflow/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useSnackbar } from '../../components/feedback/feedback-context';
import { CaseSendBadge } from './CaseSendBadge';
import {
  errorTextOf,
  fetchForwardStatus,
  fetchForwardingPacs,
  forwardStatusKey,
  forwardingPacsKey,
  resendToPacs,
  sendToPacs,
} from './forwarding-api';

/** How often the dialog refreshes the counts while a send runs. */
export const FORWARD_POLL_MS = 4_000;

const STATUS_LABELS: Record<TForwardRecord['status'], string> = {
  IN_PROGRESS: 'In progress',
  SEND: 'Sent',
  FAILED: 'Failed',
};

/**
 * The PACS forward dialog (spec-core §2, §4 Forward to PACS): pick a destination of the study's
 * center and send; every send of the study with its destination, pending, success and failed counts
 * and Resend for the failed. Opening it without a forwarding PACS alerts 'Please create pacs server'
 * (spec-core §5) and closes it. A failure says 'Report Id: {id} | {message}' (spec-core §8).
 */
export function PacsForwardDialog({
  open,
  onClose,
  reportStatusId,
  centerId = null,
}: {
  open: boolean;
  onClose: () => void;
  reportStatusId: number;
  /** The study's center, for group staff; null for a center user (their own center). */
  centerId?: number | null;
}) {
  const { showError, showInfo } = useSnackbar();
  const queryClient = useQueryClient();
  const [pacsId, setPacsId] = useState('');

  const pacs = useQuery({
    queryKey: forwardingPacsKey(centerId),
    queryFn: ({ signal }) => fetchForwardingPacs(centerId, signal),
    enabled: open,
  });
  const status = useQuery({
    queryKey: forwardStatusKey(reportStatusId),
    queryFn: ({ signal }) => fetchForwardStatus([reportStatusId], signal),
    enabled: open,
    refetchInterval: (query) =>
      query.state.data?.studies[0]?.records.some((r) => r.status === 'IN_PROGRESS') ? FORWARD_POLL_MS : false,
  });

  const isEmpty = pacs.data !== undefined && pacs.data.length === 0;
  // Once per opening, whatever the parent's re-renders do to `onClose`.
  const alerted = useRef(false);
  useEffect(() => {
    if (!open) alerted.current = false;
    else if (isEmpty && !alerted.current) {
      alerted.current = true;
      showError(FORWARDING_MESSAGES.createPacsServer);
      onClose();
    }
  }, [open, isEmpty, showError, onClose]);

  const refresh = () => void queryClient.invalidateQueries({ queryKey: forwardStatusKey(reportStatusId) });
  const fail = (error: unknown) => showError(formatForwardFailure(reportStatusId, errorTextOf(error)));
  const send = useMutation({ mutationFn: sendToPacs, onSuccess: refresh, onError: fail });
  const resend = useMutation({ mutationFn: resendToPacs, onSuccess: refresh, onError: fail });

  const selected = pacsId || (pacs.data?.[0] ? String(pacs.data[0].id) : '');
  const study = status.data?.studies[0];

  return (
    <Dialog
      open={open && !isEmpty}
      onClose={onClose}
      fullWidth
      maxWidth="md"
      aria-labelledby="pacs-forward-title"
    >
      <DialogTitle id="pacs-forward-title">Forward to PACS</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
            <TextField
              select
              label="Destination"
              value={selected}
              onChange={(e) => setPacsId(e.target.value)}
              sx={{ minWidth: 280 }}
              disabled={!pacs.data}
            >
              {(pacs.data ?? []).map((p) => (
                <MenuItem key={p.id} value={String(p.id)}>
                  {p.name ? `${p.name} — ` : ''}
                  {p.aeTitle} ({p.ip}:{p.port})
                </MenuItem>
              ))}
            </TextField>
            <Button
              variant="contained"
              disabled={!selected || send.isPending}
              onClick={() =>
                send.mutate(
                  { reportStatusId, pacsId: Number(selected) },
                  { onSuccess: () => showInfo('Sending to PACS') },
                )
              }
            >
              Send
            </Button>
            {study && <CaseSendBadge badge={study.badge} />}
          </Stack>
          {study?.records.find((r) => r.failureMessage) && (
            <Alert severity="error">{study.records.find((r) => r.failureMessage)?.failureMessage}</Alert>
          )}
          {study && study.records.length > 0 ? (
            <Table size="small" aria-label="Sends to PACS">
              <TableHead>
                <TableRow>
                  <TableCell>Destination</TableCell>
                  <TableCell>Status</TableCell>
                  <TableCell align="right">Pending</TableCell>
                  <TableCell align="right">Success</TableCell>
                  <TableCell align="right">Failed</TableCell>
                  <TableCell />
                </TableRow>
              </TableHead>
              <TableBody>
                {study.records.map((record) => (
                  <TableRow key={record.id}>
                    <TableCell>
                      {record.aeTitle} @ {record.destination}
                    </TableCell>
                    <TableCell>
                      {record.status === 'IN_PROGRESS'
                        ? `${STATUS_LABELS.IN_PROGRESS} ${record.percentage}%`
                        : STATUS_LABELS[record.status]}
                    </TableCell>
                    <TableCell align="right">{record.pending}</TableCell>
                    <TableCell align="right">{record.success}</TableCell>
                    <TableCell align="right">{record.failed}</TableCell>
                    <TableCell align="right">
                      {record.failed > 0 && (
                        <Button
                          size="small"
                          disabled={resend.isPending}
                          onClick={() => resend.mutate(record.id)}
                        >
                          Resend
                        </Button>
                      )}
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          ) : (
            <Typography variant="body2" color="text.secondary">
              {status.isPending ? 'Loading…' : 'Not sent to a PACS yet'}
            </Typography>
          )}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Close</Button>
      </DialogActions>
    </Dialog>
  );
}
