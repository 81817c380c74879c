import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { PageHeader } from '../../components/PageHeader';
import { InvoicesTable } from './InvoicesTable';
import {
  GROUP_PLATFORM_INVOICES_KEY,
  fetchGroupPlatformInvoices,
  payPlatformInvoice,
  platformInvoicePdfUrl,
} from './invoice-payments.api';
import { usePayFlow } from './pay-flow';

/**
 * The platform's invoices to the group (ours, issue 26 §3), for its administrators: each with its PDF
 * and, while due, a Pay button that goes to the payment provider. A paid invoice extends the
 * subscription (the banner goes at the next sign-in).
 */
export function PlatformInvoicesPage() {
  const client = useQueryClient();
  const invoices = useQuery({
    queryKey: GROUP_PLATFORM_INVOICES_KEY,
    queryFn: ({ signal }) => fetchGroupPlatformInvoices(signal),
  });
  const flow = usePayFlow(
    payPlatformInvoice,
    () => void client.invalidateQueries({ queryKey: GROUP_PLATFORM_INVOICES_KEY }),
  );
  const rows = (invoices.data?.invoices ?? []).map((inv) => ({
    id: inv.id,
    number: inv.number,
    period: inv.period,
    total: inv.total,
    due: inv.due,
    status: inv.kind === 'CREDIT_NOTE' ? 'Credit note' : inv.status,
    dueDate: inv.dueDate,
    overdue: inv.overdue,
    payable: inv.kind === 'INVOICE' && inv.status === 'ISSUED' && inv.due > 0,
    pdfUrl: platformInvoicePdfUrl(inv.id),
  }));
  return (
    <Box>
      <PageHeader title="Radflow invoices" />
      {flow.banner}
      <Paper variant="outlined" sx={{ p: 2, overflowX: 'auto' }}>
        <InvoicesTable label="Radflow invoices" rows={rows} paying={flow.paying} onPay={flow.payNow} />
      </Paper>
    </Box>
  );
}
