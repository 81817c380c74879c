import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import {
  BILLING_PAYMENT_MODES,
  BILLING_PAYMENT_MODE_LABELS,
  type TBillingPaymentMode,
  type TPayoutStatement,
} from '@radflow/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useSnackbar } from '../../components/feedback/feedback-context';
import { payoutKeys, recordPayoutPayment } from './payouts.api';
import { money } from './payout-form';
import { todayInDisplayZone } from '../../lib/format';

/** Records a payout paid (the dialog owns its call, its snackbar and the list's refresh). */
export function PayoutPaymentDialog({
  statement,
  onClose,
}: {
  statement: TPayoutStatement;
  onClose(): void;
}) {
  const queryClient = useQueryClient();
  const { showInfo } = useSnackbar();
  const [amount, setAmount] = useState(String(statement.due));
  const [mode, setMode] = useState<TBillingPaymentMode>('BANK_TRANSFER');
  const [reference, setReference] = useState('');
  const [receivedOn, setReceivedOn] = useState(() => todayInDisplayZone());
  const pay = useMutation({
    mutationFn: () =>
      recordPayoutPayment(statement.id, {
        amount: Number(amount),
        mode,
        reference,
        receivedOn,
        version: statement.version,
      }),
    onSuccess: async () => {
      showInfo('Payment recorded');
      await queryClient.invalidateQueries({ queryKey: payoutKeys.statements });
      onClose();
    },
  });
  return (
    <Dialog open onClose={onClose} aria-labelledby="payout-pay-title">
      <DialogTitle id="payout-pay-title">
        Record payment: {statement.number} (due {money(statement.due)})
      </DialogTitle>
      <DialogContent sx={{ display: 'flex', flexDirection: 'column', gap: 2, pt: '8px !important' }}>
        <TextField
          label="Amount (₹)"
          type="number"
          value={amount}
          onChange={(e) => setAmount(e.target.value)}
        />
        <TextField
          select
          label="Mode"
          value={mode}
          onChange={(e) => setMode(e.target.value as TBillingPaymentMode)}
        >
          {BILLING_PAYMENT_MODES.map((m) => (
            <MenuItem key={m} value={m}>
              {BILLING_PAYMENT_MODE_LABELS[m]}
            </MenuItem>
          ))}
        </TextField>
        <TextField label="Reference" value={reference} onChange={(e) => setReference(e.target.value)} />
        <TextField
          label="Paid on"
          type="date"
          value={receivedOn}
          onChange={(e) => setReceivedOn(e.target.value)}
          slotProps={{ inputLabel: { shrink: true } }}
        />
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Cancel</Button>
        <Button variant="contained" onClick={() => pay.mutate()} disabled={pay.isPending}>
          Record
        </Button>
      </DialogActions>
    </Dialog>
  );
}
