import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { PageHeader } from '../../components/PageHeader';
import { InvoicesTable } from './InvoicesTable';
import {
  CENTER_INVOICES_KEY,
  centerInvoicePdfUrl,
  fetchCenterInvoices,
  payCenterInvoice,
} from './invoice-payments.api';
import { usePayFlow } from './pay-flow';

/**
 * The center's tele-radiology invoices (ours, issue 26 §1): each with its PDF and, while something is
 * outstanding, a Pay button that goes to the payment provider; the provider sends the payer back here.
 */
export function CenterInvoicesPage() {
  const client = useQueryClient();
  const invoices = useQuery({
    queryKey: CENTER_INVOICES_KEY,
    queryFn: ({ signal }) => fetchCenterInvoices(signal),
  });
  const flow = usePayFlow(
    payCenterInvoice,
    () => void client.invalidateQueries({ queryKey: CENTER_INVOICES_KEY }),
  );
  const rows = (invoices.data?.documents ?? []).map((d) => ({
    id: d.id,
    number: d.number,
    period: `${d.periodStart} – ${d.periodEnd}`,
    total: d.total,
    due: d.outstanding,
    status: d.kind === 'CREDIT_NOTE' ? 'Credit note' : d.status,
    dueDate: d.dueDate,
    overdue: d.overdue,
    payable:
      d.kind === 'TELE_INVOICE' &&
      (d.status === 'ISSUED' || d.status === 'PARTIALLY_PAID') &&
      d.outstanding > 0,
    pdfUrl: centerInvoicePdfUrl(d.id),
  }));
  return (
    <Box>
      <PageHeader title="Invoices" />
      {flow.banner}
      <Paper variant="outlined" sx={{ p: 2, overflowX: 'auto' }}>
        <InvoicesTable label="Invoices" rows={rows} paying={flow.paying} onPay={flow.payNow} />
      </Paper>
    </Box>
  );
}
