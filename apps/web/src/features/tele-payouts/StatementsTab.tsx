import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { BILLING_DOCUMENT_STATUS_LABELS, type TPayoutPreview, type TPayoutStatement } from '@radflow/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { EmptyTableRow } from '../../components/table/TableParts';
import { useSnackbar } from '../../components/feedback/feedback-context';
import { PayoutPaymentDialog } from './PayoutPaymentDialog';
import { fetchStatements, issuePayouts, payoutKeys, previewPayouts, statementPdfUrl } from './payouts.api';
import { money, periodOfMonth, previousMonth } from './payout-form';

/** The month's run (preview, issue) for the tele roles, and the statements (a doctor: their own). */
export function StatementsTab({ manager }: { manager: boolean }) {
  const queryClient = useQueryClient();
  const { showInfo } = useSnackbar();
  const [month, setMonth] = useState(previousMonth(new Date()));
  const [preview, setPreview] = useState<TPayoutPreview | null>(null);
  const [paying, setPaying] = useState<TPayoutStatement | null>(null);
  const { data } = useQuery({
    queryKey: payoutKeys.statements,
    queryFn: ({ signal }) => fetchStatements(signal),
  });
  const runPreview = useMutation({
    mutationFn: () => previewPayouts(periodOfMonth(month)),
    onSuccess: setPreview,
  });
  const issue = useMutation({
    mutationFn: () => issuePayouts(periodOfMonth(month)),
    onSuccess: async (result) => {
      setPreview(null);
      showInfo(
        result.issued.length === 0
          ? 'Nothing new to issue for this month'
          : `${result.issued.length} payout statement(s) issued`,
      );
      await queryClient.invalidateQueries({ queryKey: payoutKeys.statements });
    },
  });
  return (
    <Box>
      {manager && (
        <Box sx={{ display: 'flex', gap: 1, alignItems: 'center', mb: 2, flexWrap: 'wrap' }}>
          <TextField
            size="small"
            type="month"
            label="Month"
            value={month}
            onChange={(e) => setMonth(e.target.value)}
            slotProps={{ inputLabel: { shrink: true } }}
          />
          <Button
            variant="outlined"
            onClick={() => runPreview.mutate()}
            disabled={!month || runPreview.isPending}
          >
            Preview
          </Button>
          <Button variant="contained" onClick={() => issue.mutate()} disabled={!month || issue.isPending}>
            Issue statements
          </Button>
        </Box>
      )}
      {preview && (
        <Box sx={{ mb: 3 }}>
          <Typography variant="h2" sx={{ fontSize: 18, mb: 1 }}>
            Preview {preview.periodStart} to {preview.periodEnd}: {money(preview.total)}
          </Typography>
          {preview.unpriced > 0 && (
            <Alert severity="warning" sx={{ mb: 1 }}>
              {preview.unpriced} charge(s) have no doctor rate in force and will not be paid until one is
              added.
            </Alert>
          )}
          <Table size="small" aria-label="Payout preview">
            <TableHead>
              <TableRow>
                <TableCell>Doctor</TableCell>
                <TableCell align="right">Reads</TableCell>
                <TableCell align="right">Addenda</TableCell>
                <TableCell align="right">Urgent</TableCell>
                <TableCell align="right">Total</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {preview.doctors.length === 0 && <EmptyTableRow colSpan={5} />}
              {preview.doctors.map((d) => (
                <TableRow key={d.doctorUserId}>
                  <TableCell>{d.doctorName}</TableCell>
                  <TableCell align="right">{d.counts.reads}</TableCell>
                  <TableCell align="right">{d.counts.addenda}</TableCell>
                  <TableCell align="right">{d.counts.urgent}</TableCell>
                  <TableCell align="right">{money(d.total)}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </Box>
      )}
      <Table size="small" aria-label="Payout statements">
        <TableHead>
          <TableRow>
            <TableCell>Number</TableCell>
            <TableCell>Doctor</TableCell>
            <TableCell>Period</TableCell>
            <TableCell align="right">Reads</TableCell>
            <TableCell align="right">Addenda</TableCell>
            <TableCell align="right">Urgent</TableCell>
            <TableCell align="right">Total</TableCell>
            <TableCell align="right">Paid</TableCell>
            <TableCell>Status</TableCell>
            <TableCell />
          </TableRow>
        </TableHead>
        <TableBody>
          {data?.statements.length === 0 && <EmptyTableRow colSpan={10} />}
          {data?.statements.map((s) => (
            <TableRow key={s.id}>
              <TableCell>{s.number}</TableCell>
              <TableCell>{s.doctorName}</TableCell>
              <TableCell>
                {s.periodStart} to {s.periodEnd}
              </TableCell>
              <TableCell align="right">{s.counts.reads}</TableCell>
              <TableCell align="right">{s.counts.addenda}</TableCell>
              <TableCell align="right">{s.counts.urgent}</TableCell>
              <TableCell align="right">{money(s.total)}</TableCell>
              <TableCell align="right">{money(s.paid)}</TableCell>
              <TableCell>{BILLING_DOCUMENT_STATUS_LABELS[s.status]}</TableCell>
              <TableCell sx={{ whiteSpace: 'nowrap' }}>
                <Link href={statementPdfUrl(s.id)} target="_blank" rel="noopener">
                  PDF
                </Link>
                {manager && s.due > 0 && (
                  <Button size="small" sx={{ ml: 1 }} onClick={() => setPaying(s)}>
                    Record payment
                  </Button>
                )}
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
      {paying && <PayoutPaymentDialog statement={paying} onClose={() => setPaying(null)} />}
    </Box>
  );
}
