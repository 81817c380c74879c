import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import {
  BILLING_PAYMENT_MODES,
  BILLING_PAYMENT_MODE_LABELS,
  type TBillingPaymentMode,
  type TPayoutStatement,
} from '@radflow/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { type TPaymentEntry, PaymentFields } from '../../components/PaymentFields';
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
  const [entry, setEntry] = useState<TPaymentEntry<TBillingPaymentMode>>(() => ({
    amount: String(statement.due),
    mode: 'BANK_TRANSFER',
    reference: '',
    paidOn: todayInDisplayZone(),
  }));
  const pay = useMutation({
    mutationFn: () =>
      recordPayoutPayment(statement.id, {
        amount: Number(entry.amount),
        mode: entry.mode,
        reference: entry.reference,
        receivedOn: entry.paidOn ?? todayInDisplayZone(),
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
        <PaymentFields
          value={entry}
          onChange={setEntry}
          modes={BILLING_PAYMENT_MODES}
          modeLabels={BILLING_PAYMENT_MODE_LABELS}
          dateLabel="Paid on"
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
