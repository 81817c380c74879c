import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import { type TTurnaroundAtRiskRow, formatPersonName } from '@radflow/core';
import { useState } from 'react';
import { formatTimestamp } from '../../lib/format';
import { assignDoctor } from '../study-actions/study-actions.api';
import { useStudiesChanged } from '../study-actions/use-study-actions';
import { timeLeftText } from './turnaround-api';

const doctorName = (d: { name: string; email: string } | null) => (d ? d.name || d.email : '—');

/**
 * The at-risk list (issue 24 §4): each open study forecast to miss its sign-off limit, or past it,
 * with the doctor to give it to. 'Reassign to …' is the study actions' assign call (its timeline
 * row, bell and live event follow); then every list and this one refresh.
 */
export function AtRiskPanel({
  count,
  rows,
  onClose,
}: {
  count: number;
  rows: readonly TTurnaroundAtRiskRow[];
  onClose(): void;
}) {
  const [busy, setBusy] = useState<number | null>(null);
  const changed = useStudiesChanged(() => undefined);
  const reassign = async (row: TTurnaroundAtRiskRow, email: string) => {
    setBusy(row.id);
    try {
      await assignDoctor(row.id, email);
      changed();
    } catch {
      // The client's snackbar has said why; the row stays as it was.
    } finally {
      setBusy(null);
    }
  };
  return (
    <Dialog open onClose={onClose} maxWidth="lg" fullWidth aria-labelledby="at-risk-title">
      <DialogTitle id="at-risk-title">At risk of missing the sign-off time</DialogTitle>
      <DialogContent>
        {count > rows.length && (
          <Alert severity="info" sx={{ mb: 1 }}>
            The first {rows.length} of {count}: those still to save first, then the longest overdue.
          </Alert>
        )}
        {rows.length === 0 ? (
          <Alert severity="success">No study is at risk.</Alert>
        ) : (
          <Table size="small" aria-label="Studies at risk">
            <TableHead>
              <TableRow>
                <TableCell>Patient</TableCell>
                <TableCell>Study</TableCell>
                <TableCell>Center</TableCell>
                <TableCell>Time left</TableCell>
                <TableCell>Forecast sign-off</TableCell>
                <TableCell>Assigned doctor</TableCell>
                <TableCell>Suggested doctor</TableCell>
                <TableCell />
              </TableRow>
            </TableHead>
            <TableBody>
              {rows.map((row) => (
                <TableRow key={row.id} data-testid={`at-risk-row-${row.id}`}>
                  <TableCell>{formatPersonName(row.patientName)}</TableCell>
                  <TableCell>
                    {[row.modality, row.studyName].filter(Boolean).join(' · ') || `Study ${row.id}`}
                    {row.urgent && <Chip size="small" color="warning" label="Urgent" sx={{ ml: 1 }} />}
                  </TableCell>
                  <TableCell>{row.centerName}</TableCell>
                  <TableCell>
                    <Chip
                      size="small"
                      color={row.state === 'BREACHED' ? 'error' : 'warning'}
                      label={timeLeftText(row.timeLeftMinutes)}
                    />
                  </TableCell>
                  <TableCell>
                    {row.forecastFinish ? formatTimestamp(row.forecastFinish) : 'Nobody to read it'}
                  </TableCell>
                  <TableCell>{doctorName(row.assignedTo)}</TableCell>
                  <TableCell>
                    {row.suggested
                      ? `${doctorName(row.suggested)} (by ${formatTimestamp(row.suggested.forecastFinish)})`
                      : '—'}
                  </TableCell>
                  <TableCell>
                    {row.suggested && (
                      <Button
                        size="small"
                        variant="contained"
                        disabled={busy !== null}
                        onClick={() => void reassign(row, row.suggested!.email)}
                      >
                        Reassign to {doctorName(row.suggested)}
                      </Button>
                    )}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Close</Button>
      </DialogActions>
    </Dialog>
  );
}

export default AtRiskPanel;
