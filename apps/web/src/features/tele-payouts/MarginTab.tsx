import Box from '@mui/material/Box';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { TMarginRow } from '@radflow/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { EmptyTableRow } from '../../components/table/TableParts';
import { fetchMargin, payoutKeys } from './payouts.api';
import { money, periodOfMonth, previousMonth } from './payout-form';

function MarginTable({ title, rows, total }: { title: string; rows: TMarginRow[]; total: TMarginRow }) {
  return (
    <Table size="small" aria-label={`Margin per ${title.toLowerCase()}`} sx={{ mb: 3 }}>
      <TableHead>
        <TableRow>
          <TableCell>{title}</TableCell>
          <TableCell align="right">Studies</TableCell>
          <TableCell align="right">Invoiced</TableCell>
          <TableCell align="right">Paid out</TableCell>
          <TableCell align="right">Margin</TableCell>
        </TableRow>
      </TableHead>
      <TableBody>
        {rows.length === 0 && <EmptyTableRow colSpan={5} />}
        {[...rows, ...(rows.length > 0 ? [total] : [])].map((r) => (
          <TableRow key={r.key}>
            <TableCell sx={{ fontWeight: r === total ? 700 : undefined }}>{r.label}</TableCell>
            <TableCell align="right">{r.studies}</TableCell>
            <TableCell align="right">{money(r.invoiced)}</TableCell>
            <TableCell align="right">{money(r.paidOut)}</TableCell>
            <TableCell align="right">{money(r.margin)}</TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

/** The margin of the month's reads: what the centers were invoiced against what the doctors were paid. */
export function MarginTab() {
  const [month, setMonth] = useState(previousMonth(new Date()));
  const { periodStart, periodEnd } = periodOfMonth(month || previousMonth(new Date()));
  const { data } = useQuery({
    queryKey: payoutKeys.margin(periodStart, periodEnd),
    queryFn: ({ signal }) => fetchMargin(periodStart, periodEnd, signal),
  });
  return (
    <Box>
      <TextField
        size="small"
        type="month"
        label="Month"
        value={month}
        onChange={(e) => setMonth(e.target.value)}
        slotProps={{ inputLabel: { shrink: true } }}
        sx={{ mb: 2 }}
      />
      {data && (
        <>
          <Typography sx={{ mb: 2 }}>
            Read but not yet invoiced: {data.notInvoiced} · read but not yet paid out: {data.notPaidOut}
          </Typography>
          <MarginTable title="Center" rows={data.byCenter} total={data.total} />
          <MarginTable title="Doctor" rows={data.byDoctor} total={data.total} />
          <MarginTable title="Modality" rows={data.byModality} total={data.total} />
        </>
      )}
    </Box>
  );
}
