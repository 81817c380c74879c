import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Link from '@mui/material/Link';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import {
  DESK_PAYMENT_MODES,
  PAYMENT_CURRENCIES,
  PAYMENT_MODE_LABELS,
  PAYMENT_STATUS_LABELS,
  type TDeskPaymentMode,
  type TPaymentCurrency,
  type TStudyPayment,
  type TStudyPayments,
  formatPaymentAmount,
  paymentActionsOf,
  paymentColumnText,
} from '@radflow/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { useFeedback } from '../../components/feedback/feedback-context';
import { formatTimestamp } from '../../lib/format';
import type { TStudyDialogProps } from '../study-actions/dialog-props';
import { parseAmount } from './payment-form';
import {
  cancelPaymentRequest,
  fetchStudyPayments,
  recordDeskPayment,
  requestPayment,
  studyPaymentsQueryKey,
} from './payments.api';

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Box component="section" aria-label={title}>
      <Typography variant="subtitle1" sx={{ mb: 1 }}>
        {title}
      </Typography>
      {children}
    </Box>
  );
}

function describePayment(p: TStudyPayment): string {
  const amount = formatPaymentAmount(p.amountMinor, p.currency);
  if (p.status === 'PAID') return `${amount} paid${p.mode ? ` (${PAYMENT_MODE_LABELS[p.mode]})` : ''}`;
  if (p.status === 'CANCELLED') return `${amount} requested, cancelled`;
  return `${amount} requested, pending`;
}

function PaymentHistory({ payments }: { payments: TStudyPayment[] }) {
  if (payments.length === 0)
    return <Typography color="textSecondary">No payment was asked for yet.</Typography>;
  return (
    <Stack component="ul" spacing={0.5} sx={{ m: 0, pl: 2.5 }}>
      {payments.map((p) => (
        <li key={p.id}>
          <Typography variant="body2">
            {describePayment(p)} — {formatTimestamp(p.paidAt ?? p.cancelledAt ?? p.createdAt)}
            {p.transactionId && ` · ${p.transactionId}`}
            {(p.paidRecordedBy ?? p.cancelledBy ?? p.requestedBy) &&
              ` · ${p.paidRecordedBy ?? p.cancelledBy ?? p.requestedBy}`}
          </Typography>
        </li>
      ))}
    </Stack>
  );
}

/**
 * The payment dialog of a study (issue 5 §1 Viewer payment, staff side; payments DECISIONS.md):
 * the status and mode, the history, and by status: request a payment (the provider's pay link goes to
 * the viewer accounts the study is shared with), record one taken at the desk, cancel the pending one.
 */
export default function StudyPaymentDialog({ row, onClose, onChanged }: TStudyDialogProps) {
  const titleId = useId();
  const queryClient = useQueryClient();
  const { confirm, showInfo } = useFeedback();
  const payments = useQuery({
    queryKey: studyPaymentsQueryKey(row.id),
    queryFn: ({ signal }) => fetchStudyPayments(row.id, signal),
    retry: false,
  });
  const [amount, setAmount] = useState('');
  const [currency, setCurrency] = useState<TPaymentCurrency>('INR');
  const [note, setNote] = useState('');
  const [mode, setMode] = useState<TDeskPaymentMode>('CASH');
  const [deskAmount, setDeskAmount] = useState('');
  const [transactionId, setTransactionId] = useState('');
  const [fieldError, setFieldError] = useState<{ field: 'amount' | 'deskAmount'; message: string } | null>(
    null,
  );
  const task = useMutation({
    mutationFn: ({ call }: { call: () => Promise<TStudyPayments>; doneText: string }) => call(),
    onSuccess: (answer, { doneText }) => {
      queryClient.setQueryData(studyPaymentsQueryKey(row.id), answer);
      showInfo(doneText);
      onChanged();
    },
  });
  const busy = task.isPending;
  // Shown in the dialog, cleared when the next call starts.
  const failure = task.error ? (task.error instanceof Error ? task.error.message : String(task.error)) : null;
  const run = (call: () => Promise<TStudyPayments>, doneText: string) => task.mutate({ call, doneText });

  const data = payments.data;
  const pending = data?.payments.find((p) => p.status === 'PENDING') ?? null;
  const actions = paymentActionsOf(data?.paymentStatus);

  const submitRequest = (event: FormEvent) => {
    event.preventDefault();
    const parsed = parseAmount(amount);
    if (!parsed.ok) return setFieldError({ field: 'amount', message: parsed.message });
    setFieldError(null);
    run(() => requestPayment(row.id, { amount: parsed.value, currency, note }), 'Payment requested');
  };

  const submitDesk = (event: FormEvent) => {
    event.preventDefault();
    let value: number | undefined;
    if (!pending || deskAmount.trim()) {
      const parsed = parseAmount(deskAmount);
      if (!parsed.ok) return setFieldError({ field: 'deskAmount', message: parsed.message });
      value = parsed.value;
    }
    setFieldError(null);
    run(
      () =>
        recordDeskPayment(row.id, {
          mode,
          transactionId,
          ...(value !== undefined ? { amount: value, currency: pending ? undefined : currency } : {}),
        }),
      'Payment recorded',
    );
  };

  const cancel = async () => {
    if (!(await confirm({ message: 'Cancel the pending payment request?' }))) return;
    run(() => cancelPaymentRequest(row.id), 'Payment request cancelled');
  };

  return (
    <Dialog open onClose={onClose} aria-labelledby={titleId} fullWidth maxWidth="sm">
      <DialogTitle id={titleId}>Payment — study {row.id}</DialogTitle>
      <DialogContent>
        <Stack spacing={2.5} sx={{ pt: 1 }}>
          {payments.isPending && <Typography>Loading…</Typography>}
          {payments.isError && <Alert severity="error">{payments.error.message}</Alert>}
          {failure && (
            <Alert severity="error" role="alert">
              {failure}
            </Alert>
          )}
          {data && (
            <>
              <Typography data-testid="payment-status">
                Status:{' '}
                {data.paymentStatus === 'NOT_REQUIRED'
                  ? PAYMENT_STATUS_LABELS.NOT_REQUIRED
                  : paymentColumnText(data)}
              </Typography>
              {pending && (
                <Section title="Pending request">
                  <Typography>
                    {formatPaymentAmount(pending.amountMinor, pending.currency)}
                    {pending.note && ` — ${pending.note}`}
                  </Typography>
                  {pending.payUrl && (
                    <Link href={pending.payUrl} target="_blank" rel="noopener" variant="body2">
                      Pay link
                    </Link>
                  )}
                  <Box sx={{ mt: 1 }}>
                    <Button color="warning" variant="outlined" disabled={busy} onClick={() => void cancel()}>
                      Cancel request
                    </Button>
                  </Box>
                </Section>
              )}
              {actions.request && (
                <Section title="Request a payment">
                  <Stack component="form" noValidate onSubmit={submitRequest} spacing={1.5}>
                    <Stack direction="row" spacing={1}>
                      <TextField
                        label="Amount"
                        value={amount}
                        onChange={(e) => setAmount(e.target.value)}
                        error={fieldError?.field === 'amount'}
                        helperText={fieldError?.field === 'amount' ? fieldError.message : undefined}
                        slotProps={{ htmlInput: { inputMode: 'decimal' } }}
                        sx={{ flex: 1 }}
                      />
                      <TextField
                        select
                        label="Currency"
                        value={currency}
                        onChange={(e) => setCurrency(e.target.value as TPaymentCurrency)}
                        sx={{ width: 110 }}
                      >
                        {PAYMENT_CURRENCIES.map((c) => (
                          <MenuItem key={c} value={c}>
                            {c}
                          </MenuItem>
                        ))}
                      </TextField>
                    </Stack>
                    <TextField
                      label="What it is for (shown to the payer)"
                      value={note}
                      onChange={(e) => setNote(e.target.value)}
                      slotProps={{ htmlInput: { maxLength: 200 } }}
                    />
                    <Box>
                      <Button type="submit" variant="contained" disabled={busy}>
                        Request payment
                      </Button>
                    </Box>
                  </Stack>
                </Section>
              )}
              <Section title="Record a payment taken at the desk">
                <Stack component="form" noValidate onSubmit={submitDesk} spacing={1.5}>
                  <Stack direction="row" spacing={1}>
                    <TextField
                      select
                      label="Mode"
                      value={mode}
                      onChange={(e) => setMode(e.target.value as TDeskPaymentMode)}
                      sx={{ width: 120 }}
                    >
                      {DESK_PAYMENT_MODES.map((m) => (
                        <MenuItem key={m} value={m}>
                          {PAYMENT_MODE_LABELS[m]}
                        </MenuItem>
                      ))}
                    </TextField>
                    <TextField
                      label={pending ? 'Amount (the pending request’s)' : 'Amount'}
                      value={deskAmount}
                      placeholder={pending ? String(pending.amountMinor / 100) : undefined}
                      onChange={(e) => setDeskAmount(e.target.value)}
                      error={fieldError?.field === 'deskAmount'}
                      helperText={fieldError?.field === 'deskAmount' ? fieldError.message : undefined}
                      slotProps={{ htmlInput: { inputMode: 'decimal' } }}
                      sx={{ flex: 1 }}
                    />
                  </Stack>
                  <TextField
                    label="Receipt or transaction id"
                    value={transactionId}
                    onChange={(e) => setTransactionId(e.target.value)}
                    slotProps={{ htmlInput: { maxLength: 60 } }}
                  />
                  <Box>
                    <Button type="submit" variant="outlined" disabled={busy}>
                      Record payment
                    </Button>
                  </Box>
                </Stack>
              </Section>
              <Section title="History">
                <PaymentHistory payments={data.payments} />
              </Section>
            </>
          )}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Close</Button>
      </DialogActions>
    </Dialog>
  );
}
