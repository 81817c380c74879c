import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import MenuItem from '@mui/material/MenuItem';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import {
  LAB_PAYMENT_METHODS,
  paymentProblem,
  rupeeText,
  toPaise,
  type TBill,
  type TLabPaymentMethod,
} from '@radflow/core';
import { useRef, useState } from 'react';
import { ApiError } from '../../api/client';
import { formatTimestamp } from '../../lib/format';
import { newIdempotencyKey } from '../../lib/idempotency-key';
import { addTransactions } from './bill-api';

export const PAYMENT_AMOUNT_LABEL = 'Amount';
export const PAYMENT_METHOD_LABEL = 'Payment Method';
export const TRANSACTION_ID_LABEL = 'Transaction Id';
export const NO_TRANSACTIONS = 'No Transactions Yet';

/** spec-lab §4: Add amount is offered while OPEN or SCHEDULED with money due. */
export function canAddAmount(bill: { status: string; dueAmount: number }): boolean {
  return (bill.status === 'OPEN' || bill.status === 'SCHEDULED') && bill.dueAmount > 0;
}

/**
 * The payment dialog (spec-lab §2, §4, §5): the ledger ('No Transactions Yet' when empty) and one new
 * payment, above 0 and never past the final amount (core paymentProblem words 'Advance Paid: X should
 * be less than Final Amount: Y'). PUT /api/lab/bill/update-transaction with an Idempotency-Key, so a
 * double-click records one payment.
 */
export function PaymentDialog({
  bill,
  onClose,
  onPaid,
}: {
  bill: TBill;
  onClose(): void;
  onPaid(bill: TBill): void;
}) {
  const [amount, setAmount] = useState('');
  const [method, setMethod] = useState<TLabPaymentMethod>('UPI');
  const [transactionId, setTransactionId] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const inFlight = useRef(false);
  const attempt = useRef<{ body: string; key: string } | null>(null);
  const finalPaise = toPaise(bill.finalAmount);
  const advancePaise = toPaise(bill.advancePaid);

  const submit = async () => {
    if (inFlight.current) return;
    const value = Number(amount);
    const amountPaise = amount.trim() && Number.isFinite(value) ? toPaise(value) : 0;
    const refused = paymentProblem(amountPaise, finalPaise, advancePaise);
    if (refused) {
      setProblem(refused);
      return;
    }
    const body = {
      id: bill.id,
      labTransactions: [
        { paymentMethod: method, transactionId: transactionId.trim() || null, amount: value },
      ],
    };
    const json = JSON.stringify(body);
    // The same payment asked again (a retry) keeps its key; a different one gets a new key.
    if (attempt.current?.body !== json) attempt.current = { body: json, key: newIdempotencyKey() };
    inFlight.current = true;
    setBusy(true);
    try {
      onPaid(await addTransactions(body, attempt.current.key));
    } catch (error) {
      setProblem(error instanceof ApiError ? error.message : String(error));
    } finally {
      inFlight.current = false;
      setBusy(false);
    }
  };

  return (
    <Dialog open onClose={onClose} aria-labelledby="payment-title" fullWidth maxWidth="sm">
      <DialogTitle id="payment-title">Add Amount · {bill.invoiceNumber}</DialogTitle>
      <DialogContent>
        <Box sx={{ display: 'flex', gap: 3, mb: 2 }} data-testid="payment-summary">
          <Typography>Final Amount: ₹{rupeeText(finalPaise)}</Typography>
          <Typography>Advance Paid: ₹{rupeeText(advancePaise)}</Typography>
          <Typography>Due: ₹{rupeeText(toPaise(bill.dueAmount))}</Typography>
        </Box>
        <Table size="small" aria-label="Transactions">
          <TableHead>
            <TableRow>
              <TableCell>Method</TableCell>
              <TableCell>Transaction Id</TableCell>
              <TableCell align="right">Amount</TableCell>
              <TableCell>Recorded</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {bill.labTransactions.length === 0 ? (
              <TableRow>
                <TableCell colSpan={4} sx={{ textAlign: 'center', color: 'text.secondary' }}>
                  {NO_TRANSACTIONS}
                </TableCell>
              </TableRow>
            ) : (
              bill.labTransactions.map((t) => (
                <TableRow key={t.id}>
                  <TableCell>{t.paymentMethod}</TableCell>
                  <TableCell>{t.transactionId ?? '—'}</TableCell>
                  <TableCell align="right">₹{rupeeText(toPaise(t.amount))}</TableCell>
                  <TableCell>
                    {formatTimestamp(t.recordedAt, { label: false })} · {t.recordedBy}
                  </TableCell>
                </TableRow>
              ))
            )}
          </TableBody>
        </Table>
        {canAddAmount(bill) && (
          <Box sx={{ display: 'flex', gap: 2, mt: 2, flexWrap: 'wrap' }}>
            <TextField
              label={PAYMENT_AMOUNT_LABEL}
              type="number"
              value={amount}
              onChange={(e) => {
                setAmount(e.target.value);
                setProblem(null);
              }}
              slotProps={{ htmlInput: { min: 0, step: 0.01 } }}
            />
            <TextField
              select
              label={PAYMENT_METHOD_LABEL}
              value={method}
              onChange={(e) => setMethod(e.target.value as TLabPaymentMethod)}
              sx={{ minWidth: 140 }}
            >
              {LAB_PAYMENT_METHODS.map((m) => (
                <MenuItem key={m} value={m}>
                  {m}
                </MenuItem>
              ))}
            </TextField>
            <TextField
              label={TRANSACTION_ID_LABEL}
              value={transactionId}
              onChange={(e) => setTransactionId(e.target.value)}
              slotProps={{ htmlInput: { maxLength: 100 } }}
            />
          </Box>
        )}
        {problem && (
          <Alert severity="error" sx={{ mt: 2 }}>
            {problem}
          </Alert>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Close</Button>
        {canAddAmount(bill) && (
          <Button variant="contained" onClick={() => void submit()} disabled={busy}>
            Add Payment
          </Button>
        )}
      </DialogActions>
    </Dialog>
  );
}
