import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import {
  BILLING_DOCUMENT_STATUSES,
  BILLING_DOCUMENT_STATUS_LABELS,
  BILLING_PAYMENT_MODES,
  BILLING_PAYMENT_MODE_LABELS,
  type TBillingDocumentDetail,
  type TBillingPaymentMode,
  type TInvoiceLineGroup,
  type TInvoicePreview,
  formatRupees,
  monthPeriod,
  rupeesToMinor,
} from '@radflow/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { PageHeader } from '../../components/PageHeader';
import { type TPaymentEntry, PaymentFields } from '../../components/PaymentFields';
import { newIdempotencyKey } from '../../lib/idempotency-key';
import { useFeedback } from '../../components/feedback/feedback-context';
import {
  TELE_INVOICES_KEY,
  TELE_PRICES_KEY,
  addCreditNote,
  emailInvoice,
  failureText,
  fetchInvoice,
  fetchInvoices,
  fetchTelePrices,
  invoiceMonth,
  invoicePdfUrl,
  issueInvoice,
  previewInvoice,
  recordPayment,
} from './tele-billing.api';
import { todayInDisplayZone } from '../../lib/format';

const money = (rupees: number) => formatRupees(rupeesToMinor(rupees));
const lastMonth = () => {
  const d = new Date();
  d.setDate(1);
  d.setMonth(d.getMonth() - 1);
  return d.toISOString().slice(0, 7);
};

function LinesTable({ lines }: { lines: TInvoiceLineGroup[] }) {
  return (
    <Table size="small" aria-label="Invoice lines">
      <TableHead>
        <TableRow>
          <TableCell>Description</TableCell>
          <TableCell align="right">Qty</TableCell>
          <TableCell align="right">Rate</TableCell>
          <TableCell align="right">Amount</TableCell>
        </TableRow>
      </TableHead>
      <TableBody>
        {lines.map((l, i) => (
          <TableRow key={i}>
            <TableCell>{l.description}</TableCell>
            <TableCell align="right">{l.quantity}</TableCell>
            <TableCell align="right">{money(l.unit)}</TableCell>
            <TableCell align="right">{money(l.amount)}</TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

function Totals({
  doc,
}: {
  doc: Pick<TInvoicePreview, 'subtotal' | 'adjustment' | 'taxPercent' | 'tax' | 'total'>;
}) {
  const rows: Array<[string, number, string]> = [
    ['Subtotal', doc.subtotal, 'invoice-subtotal'],
    ['Adjustments', doc.adjustment, 'invoice-adjustment'],
    [`GST @ ${doc.taxPercent}%`, doc.tax, 'invoice-tax'],
    ['Total', doc.total, 'invoice-total'],
  ];
  return (
    <Box sx={{ display: 'grid', gridTemplateColumns: 'auto auto', gap: 0.5, justifyContent: 'end', mt: 1 }}>
      {rows.map(([label, value, id]) => (
        <Box key={id} sx={{ display: 'contents' }}>
          <Typography sx={{ fontWeight: label === 'Total' ? 700 : 400 }}>{label}</Typography>
          <Typography data-testid={id} sx={{ textAlign: 'right', fontWeight: label === 'Total' ? 700 : 400 }}>
            {money(value)}
          </Typography>
        </Box>
      ))}
    </Box>
  );
}

function InvoiceDialog({ id, onClose }: { id: number; onClose: () => void }) {
  const { showInfo, showError } = useFeedback();
  const queryClient = useQueryClient();
  const query = useQuery({
    queryKey: [...TELE_INVOICES_KEY, 'detail', id],
    queryFn: ({ signal }) => fetchInvoice(id, signal),
  });
  const [pay, setPay] = useState<TPaymentEntry<TBillingPaymentMode>>(() => ({
    amount: '',
    mode: 'BANK_TRANSFER',
    reference: '',
    paidOn: todayInDisplayZone(),
  }));
  const [payKey, setPayKey] = useState(newIdempotencyKey);
  const [credit, setCredit] = useState({ amount: '', reason: '' });
  const doc = query.data;
  const done = async (next: TBillingDocumentDetail, text: string) => {
    queryClient.setQueryData([...TELE_INVOICES_KEY, 'detail', id], next);
    await queryClient.invalidateQueries({ queryKey: TELE_INVOICES_KEY });
    showInfo(text);
  };
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="md">
      <DialogTitle>
        {doc ? `${doc.kind === 'CREDIT_NOTE' ? 'Credit note' : 'Invoice'} ${doc.number}` : 'Invoice'}
      </DialogTitle>
      <DialogContent>
        {doc && (
          <>
            <Typography>
              {doc.centerName} · {doc.periodStart} to {doc.periodEnd} ·{' '}
              {BILLING_DOCUMENT_STATUS_LABELS[doc.status]}
              {doc.dueDate ? ` · due ${doc.dueDate}` : ''}
            </Typography>
            <LinesTable lines={doc.lines} />
            <Totals doc={doc} />
            {doc.kind === 'TELE_INVOICE' && (
              <Box
                sx={{ display: 'grid', gridTemplateColumns: 'auto auto', gap: 0.5, justifyContent: 'end' }}
              >
                <Typography>Paid</Typography>
                <Typography data-testid="invoice-paid" sx={{ textAlign: 'right' }}>
                  {money(doc.paid)}
                </Typography>
                <Typography>Credited</Typography>
                <Typography sx={{ textAlign: 'right' }}>{money(doc.credited)}</Typography>
                <Typography>Outstanding</Typography>
                <Typography data-testid="invoice-outstanding" sx={{ textAlign: 'right' }}>
                  {money(doc.outstanding)}
                </Typography>
              </Box>
            )}
            <Box sx={{ display: 'flex', gap: 1, my: 2 }}>
              <Button href={invoicePdfUrl(doc.id)} target="_blank">
                Download PDF
              </Button>
              <Button
                onClick={() =>
                  void emailInvoice(doc.id)
                    .then((r) => showInfo(`Sent to ${r.sentTo}`))
                    .then(() => query.refetch())
                    .catch((e: unknown) => showError(failureText(e)))
                }
              >
                Email to center
              </Button>
            </Box>
            {doc.emailedTo.length > 0 && (
              <Typography variant="body2">Emailed to {doc.emailedTo.join(', ')}</Typography>
            )}
            {doc.payments.length > 0 && (
              <>
                <Typography variant="h3" sx={{ mt: 2 }}>
                  Payments
                </Typography>
                {doc.payments.map((p) => (
                  <Typography key={p.id} variant="body2">
                    {p.receivedOn} · {BILLING_PAYMENT_MODE_LABELS[p.mode]} · {money(p.amount)}{' '}
                    {p.reference && `· ${p.reference}`}
                  </Typography>
                ))}
              </>
            )}
            {doc.kind === 'TELE_INVOICE' && doc.outstanding > 0 && (
              <Box sx={{ display: 'flex', gap: 1, mt: 2, flexWrap: 'wrap', alignItems: 'center' }}>
                <Typography sx={{ width: '100%' }} variant="h3">
                  Record a payment
                </Typography>
                <PaymentFields
                  size="small"
                  value={pay}
                  onChange={setPay}
                  modes={BILLING_PAYMENT_MODES}
                  modeLabels={BILLING_PAYMENT_MODE_LABELS}
                />
                <Button
                  variant="contained"
                  disabled={pay.amount === ''}
                  onClick={() =>
                    void recordPayment(
                      doc.id,
                      {
                        amount: Number(pay.amount),
                        mode: pay.mode,
                        reference: pay.reference,
                        receivedOn: pay.paidOn ?? todayInDisplayZone(),
                        version: doc.version,
                      },
                      payKey,
                    )
                      .then((next) => {
                        setPay({ ...pay, amount: '', reference: '' });
                        setPayKey(newIdempotencyKey());
                        return done(next, 'Payment recorded');
                      })
                      .catch((e: unknown) => showError(failureText(e)))
                  }
                >
                  Record payment
                </Button>
              </Box>
            )}
            {doc.kind === 'TELE_INVOICE' && doc.status !== 'CANCELLED_BY_CREDIT' && (
              <Box sx={{ display: 'flex', gap: 1, mt: 2, flexWrap: 'wrap', alignItems: 'center' }}>
                <Typography sx={{ width: '100%' }} variant="h3">
                  Credit note
                </Typography>
                <TextField
                  size="small"
                  label="Amount before GST (₹)"
                  type="number"
                  value={credit.amount}
                  onChange={(e) => setCredit({ ...credit, amount: e.target.value })}
                />
                <TextField
                  size="small"
                  label="Reason"
                  value={credit.reason}
                  onChange={(e) => setCredit({ ...credit, reason: e.target.value })}
                />
                <Button
                  disabled={credit.amount === '' || credit.reason.trim() === ''}
                  onClick={() =>
                    void addCreditNote(doc.id, {
                      amount: Number(credit.amount),
                      reason: credit.reason,
                      version: doc.version,
                    })
                      .then((next) => {
                        setCredit({ amount: '', reason: '' });
                        return done(next, 'Credit note issued');
                      })
                      .catch((e: unknown) => showError(failureText(e)))
                  }
                >
                  Issue credit note
                </Button>
              </Box>
            )}
          </>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Close</Button>
      </DialogActions>
    </Dialog>
  );
}

/**
 * /manage-tele-invoice (issue 26 §1): preview and issue a center's invoice for a period (with
 * adjustments), invoice every center for a month, the list by center / period / status, and an
 * invoice's PDF, e-mail, payments and credit notes.
 */
export function TeleInvoicePage() {
  const { showInfo, showError } = useFeedback();
  const queryClient = useQueryClient();
  const month = monthPeriod(lastMonth());
  const [form, setForm] = useState({
    centerId: '',
    periodStart: month.periodStart,
    periodEnd: month.periodEnd,
  });
  const [adjustment, setAdjustment] = useState({ amount: '', reason: '' });
  const [preview, setPreview] = useState<TInvoicePreview | null>(null);
  const [monthText, setMonthText] = useState(lastMonth());
  const [filter, setFilter] = useState({ centerId: '', status: '' });
  const [open, setOpen] = useState<number | null>(null);
  const centers = useQuery({
    queryKey: [...TELE_PRICES_KEY, null],
    queryFn: ({ signal }) => fetchTelePrices(null, signal),
  });
  const list = useQuery({
    queryKey: [...TELE_INVOICES_KEY, filter],
    queryFn: ({ signal }) =>
      fetchInvoices(
        { centerId: filter.centerId === '' ? undefined : Number(filter.centerId), status: filter.status },
        signal,
      ),
  });
  const request = () => ({
    centerId: Number(form.centerId),
    periodStart: form.periodStart,
    periodEnd: form.periodEnd,
    adjustments:
      adjustment.amount === '' ? [] : [{ amount: Number(adjustment.amount), reason: adjustment.reason }],
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: TELE_INVOICES_KEY });
  const centerItems = (centers.data?.centers ?? []).map((c) => (
    <MenuItem key={c.id} value={String(c.id)}>
      {c.name}
    </MenuItem>
  ));

  return (
    <Box sx={{ p: 2 }}>
      <PageHeader
        title="Manage Tele Invoice"
        actions={
          <Box sx={{ display: 'flex', gap: 1, alignItems: 'center' }}>
            <TextField
              size="small"
              label="Month"
              type="month"
              value={monthText}
              onChange={(e) => setMonthText(e.target.value)}
              slotProps={{ inputLabel: { shrink: true } }}
            />
            <Button
              onClick={() =>
                void invoiceMonth(monthText)
                  .then((r) => {
                    showInfo(`${r.documents.length} invoices for ${monthText}`);
                    return refresh();
                  })
                  .catch((e: unknown) => showError(failureText(e)))
              }
            >
              Invoice all centers
            </Button>
          </Box>
        }
      />
      <Paper sx={{ p: 2, mb: 2 }}>
        <Box sx={{ display: 'flex', gap: 2, flexWrap: 'wrap', alignItems: 'center' }}>
          <TextField
            select
            size="small"
            label="Center"
            value={form.centerId}
            onChange={(e) => setForm({ ...form, centerId: e.target.value })}
            sx={{ minWidth: 220 }}
          >
            {centerItems}
          </TextField>
          <TextField
            size="small"
            label="From"
            type="date"
            value={form.periodStart}
            onChange={(e) => setForm({ ...form, periodStart: e.target.value })}
            slotProps={{ inputLabel: { shrink: true } }}
          />
          <TextField
            size="small"
            label="To"
            type="date"
            value={form.periodEnd}
            onChange={(e) => setForm({ ...form, periodEnd: e.target.value })}
            slotProps={{ inputLabel: { shrink: true } }}
          />
          <TextField
            size="small"
            label="Adjustment (₹, − for a discount)"
            type="number"
            value={adjustment.amount}
            onChange={(e) => setAdjustment({ ...adjustment, amount: e.target.value })}
          />
          <TextField
            size="small"
            label="Adjustment reason"
            value={adjustment.reason}
            onChange={(e) => setAdjustment({ ...adjustment, reason: e.target.value })}
          />
          <Button
            disabled={form.centerId === ''}
            onClick={() =>
              void previewInvoice(request())
                .then(setPreview)
                .catch((e: unknown) => showError(failureText(e)))
            }
          >
            Preview
          </Button>
          <Button
            variant="contained"
            disabled={form.centerId === '' || preview === null}
            onClick={() =>
              void issueInvoice(request())
                .then((doc) => {
                  showInfo(`Invoice ${doc.number} issued`);
                  setPreview(null);
                  setOpen(doc.id);
                  return refresh();
                })
                .catch((e: unknown) => showError(failureText(e)))
            }
          >
            Issue invoice
          </Button>
        </Box>
        {preview && (
          <Box sx={{ mt: 2 }} data-testid="invoice-preview">
            <Typography>
              {preview.centerName}: {preview.studyCount} studies
              {preview.unpricedCount > 0 ? ` (${preview.unpricedCount} without a price)` : ''}
            </Typography>
            <LinesTable lines={preview.lines} />
            <Totals doc={preview} />
          </Box>
        )}
      </Paper>
      <Box sx={{ display: 'flex', gap: 2, mb: 1 }}>
        <TextField
          select
          size="small"
          label="Center"
          value={filter.centerId}
          onChange={(e) => setFilter({ ...filter, centerId: e.target.value })}
          sx={{ minWidth: 200 }}
          slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
        >
          <MenuItem value="">All centers</MenuItem>
          {centerItems}
        </TextField>
        <TextField
          select
          size="small"
          label="Status"
          value={filter.status}
          onChange={(e) => setFilter({ ...filter, status: e.target.value })}
          sx={{ minWidth: 180 }}
          slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
        >
          <MenuItem value="">Any status</MenuItem>
          {BILLING_DOCUMENT_STATUSES.map((s) => (
            <MenuItem key={s} value={s}>
              {BILLING_DOCUMENT_STATUS_LABELS[s]}
            </MenuItem>
          ))}
        </TextField>
      </Box>
      <TableContainer component={Paper}>
        <Table size="small" aria-label="Invoices">
          <TableHead>
            <TableRow>
              <TableCell>Number</TableCell>
              <TableCell>Center</TableCell>
              <TableCell>Period</TableCell>
              <TableCell>Status</TableCell>
              <TableCell align="right">Total</TableCell>
              <TableCell align="right">Outstanding</TableCell>
              <TableCell>Due</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {(list.data?.documents ?? []).map((d) => (
              <TableRow key={d.id} hover sx={{ cursor: 'pointer' }} onClick={() => setOpen(d.id)}>
                <TableCell>{d.number}</TableCell>
                <TableCell>{d.centerName}</TableCell>
                <TableCell>
                  {d.periodStart} – {d.periodEnd}
                </TableCell>
                <TableCell sx={{ color: d.overdue ? 'error.main' : undefined }}>
                  {BILLING_DOCUMENT_STATUS_LABELS[d.status]}
                  {d.overdue ? ' · overdue' : ''}
                </TableCell>
                <TableCell align="right">{money(d.total)}</TableCell>
                <TableCell align="right">{money(d.outstanding)}</TableCell>
                <TableCell>{d.dueDate ?? ''}</TableCell>
              </TableRow>
            ))}
            {list.data?.documents.length === 0 && (
              <TableRow>
                <TableCell colSpan={7}>No invoices</TableCell>
              </TableRow>
            )}
          </TableBody>
        </Table>
      </TableContainer>
      {open !== null && <InvoiceDialog id={open} onClose={() => setOpen(null)} />}
    </Box>
  );
}
