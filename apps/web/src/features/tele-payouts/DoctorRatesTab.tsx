import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import { PRICE_CHARGES, PRICE_CHARGE_LABELS, type TPriceCharge } from '@radflow/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { EmptyTableRow } from '../../components/table/TableParts';
import { useSnackbar } from '../../components/feedback/feedback-context';
import { addDoctorRate, fetchDoctorRates, payoutKeys } from './payouts.api';
import { money } from './payout-form';
import { todayInDisplayZone } from '../../lib/format';

const DEFAULT = 'default';

/** Doctor rates: the list (newest rows show their start day) and the form that adds one. */
export function DoctorRatesTab() {
  const queryClient = useQueryClient();
  const { showInfo } = useSnackbar();
  const { data } = useQuery({
    queryKey: payoutKeys.rates,
    queryFn: ({ signal }) => fetchDoctorRates(signal),
  });
  const [doctor, setDoctor] = useState(DEFAULT);
  const [modality, setModality] = useState('');
  const [studyPart, setStudyPart] = useState('');
  const [charge, setCharge] = useState<TPriceCharge>('READ');
  const [amount, setAmount] = useState('');
  const [effectiveFrom, setEffectiveFrom] = useState(() => todayInDisplayZone());
  const add = useMutation({
    mutationFn: () =>
      addDoctorRate({
        doctorUserId: doctor === DEFAULT ? null : Number(doctor),
        modality,
        studyPart,
        charge,
        amount: Number(amount),
        effectiveFrom,
      }),
    onSuccess: async () => {
      showInfo('Rate added');
      setAmount('');
      await queryClient.invalidateQueries({ queryKey: payoutKeys.rates });
    },
  });
  return (
    <Box>
      <Box
        component="form"
        aria-label="Add a doctor rate"
        sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', mb: 2 }}
        onSubmit={(e) => {
          e.preventDefault();
          add.mutate();
        }}
      >
        <TextField
          select
          size="small"
          label="Doctor"
          value={doctor}
          onChange={(e) => setDoctor(e.target.value)}
          sx={{ minWidth: 200 }}
        >
          <MenuItem value={DEFAULT}>Default doctor rate</MenuItem>
          {data?.doctors.map((d) => (
            <MenuItem key={d.id} value={String(d.id)}>
              {d.name}
            </MenuItem>
          ))}
        </TextField>
        <TextField
          size="small"
          label="Modality"
          value={modality}
          onChange={(e) => setModality(e.target.value)}
          required
        />
        <TextField
          size="small"
          label="Study part"
          value={studyPart}
          onChange={(e) => setStudyPart(e.target.value)}
        />
        <TextField
          select
          size="small"
          label="Charge"
          value={charge}
          onChange={(e) => setCharge(e.target.value as TPriceCharge)}
        >
          {PRICE_CHARGES.map((c) => (
            <MenuItem key={c} value={c}>
              {PRICE_CHARGE_LABELS[c]}
            </MenuItem>
          ))}
        </TextField>
        <TextField
          size="small"
          label="Amount (₹)"
          type="number"
          value={amount}
          onChange={(e) => setAmount(e.target.value)}
          required
        />
        <TextField
          size="small"
          label="Effective from"
          type="date"
          value={effectiveFrom}
          onChange={(e) => setEffectiveFrom(e.target.value)}
          slotProps={{ inputLabel: { shrink: true } }}
          required
        />
        <Button type="submit" variant="contained" disabled={add.isPending}>
          Add rate
        </Button>
      </Box>
      <Table size="small" aria-label="Doctor rates">
        <TableHead>
          <TableRow>
            <TableCell>Doctor</TableCell>
            <TableCell>Modality</TableCell>
            <TableCell>Study part</TableCell>
            <TableCell>Charge</TableCell>
            <TableCell align="right">Amount</TableCell>
            <TableCell>Effective from</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {data?.rates.length === 0 && <EmptyTableRow colSpan={6} />}
          {data?.rates.map((r) => (
            <TableRow key={r.id}>
              <TableCell>{r.doctorName ?? 'Default'}</TableCell>
              <TableCell>{r.modality}</TableCell>
              <TableCell>{r.studyPart || '—'}</TableCell>
              <TableCell>{PRICE_CHARGE_LABELS[r.charge]}</TableCell>
              <TableCell align="right">{money(r.amount)}</TableCell>
              <TableCell>{r.effectiveFrom}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </Box>
  );
}
