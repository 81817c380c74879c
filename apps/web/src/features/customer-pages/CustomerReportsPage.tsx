import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import {
  ACCOUNT_PAYMENT_MESSAGES,
  CUSTOMER_PAGE_MESSAGES as M,
  MESSAGES,
  type TCustomerReport,
  formatPaymentAmount,
} from '@radflow/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link as RouterLink } from 'react-router';
import { PageHeader } from '../../components/PageHeader';
import { formatTimestamp } from '../../lib/format';
import {
  customerReportsQueryKey,
  customerViewerPath,
  downloadCustomerReport,
  fetchCustomerReports,
} from './customer-pages.api';

const describe = (r: TCustomerReport) => [r.studyName, r.modality].filter(Boolean).join(' · ') || 'Study';

/** The due of one study: 'Payment needed', the amount, and the provider's pay link (or pay at the center). */
function PaymentDue({ report }: { report: TCustomerReport }) {
  const { payment } = report;
  const amount =
    payment.amount !== null && payment.currency
      ? formatPaymentAmount(Math.round(payment.amount * 100), payment.currency)
      : '';
  return (
    <Alert severity="warning" sx={{ alignItems: 'center' }}>
      <Stack direction="row" spacing={2} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
        <Typography component="span" sx={{ fontWeight: 600 }}>
          {MESSAGES.paymentNeeded}
        </Typography>
        {amount && <Typography component="span">{amount}</Typography>}
        {payment.note && (
          <Typography component="span" variant="caption">
            {payment.note}
          </Typography>
        )}
        {payment.payUrl ? (
          <Button
            variant="contained"
            size="small"
            href={payment.payUrl}
            aria-label={`${ACCOUNT_PAYMENT_MESSAGES.payNow} ${amount} for ${describe(report)}`}
          >
            {ACCOUNT_PAYMENT_MESSAGES.payNow}
          </Button>
        ) : (
          <Typography component="span" variant="caption">
            Pay at the center; your report opens once the payment is recorded.
          </Typography>
        )}
      </Stack>
    </Alert>
  );
}

function ReportCard({ report }: { report: TCustomerReport }) {
  const client = useQueryClient();
  // A refusal (a payment asked for meanwhile: 402) shows in the snackbar; the list is read again so
  // the card shows the due and its pay link.
  const download = useMutation({
    mutationFn: () => downloadCustomerReport(report),
    onError: () => client.invalidateQueries({ queryKey: customerReportsQueryKey }),
  });
  const title = describe(report);
  return (
    <Paper component="li" aria-label={title} variant="outlined" sx={{ p: 2, listStyle: 'none' }}>
      <Stack spacing={1.5}>
        <Box sx={{ display: 'flex', gap: 2, flexWrap: 'wrap', alignItems: 'baseline' }}>
          <Typography variant="h2" sx={{ fontSize: '1.1rem', flex: 1, minWidth: 200 }}>
            {title}
          </Typography>
          {report.payment.status === 'PAID' && <Chip size="small" color="success" label="Paid" />}
        </Box>
        <Typography variant="body2" color="textSecondary">
          {[report.patientName, report.center, report.studyDate && `Study date ${report.studyDate}`]
            .filter(Boolean)
            .join(' · ')}
        </Typography>
        <Typography variant="body2" color="textSecondary">
          Signed off {formatTimestamp(report.signedOffAt, { label: true })}
        </Typography>
        {report.payment.status === 'PENDING' && <PaymentDue report={report} />}
        <Stack direction="row" spacing={1}>
          <Button
            variant="contained"
            onClick={() => download.mutate()}
            disabled={!report.canDownload || download.isPending}
            aria-label={`Download PDF of ${title}`}
          >
            Download PDF
          </Button>
          {report.hasImages &&
            // The images wait for a due payment as the PDF does (the server answers them 402).
            (report.canDownload ? (
              <Button
                variant="outlined"
                component={RouterLink}
                to={customerViewerPath(report)}
                aria-label={`Open images of ${title}`}
              >
                Open images
              </Button>
            ) : (
              <Button variant="outlined" disabled aria-label={`Open images of ${title}`}>
                Open images
              </Button>
            ))}
        </Stack>
      </Stack>
    </Paper>
  );
}

/**
 * /manage-customer-report (ROLE_CUSTOMER, issue 26 §4): the patient's signed-off reports, each with
 * Download PDF, Open images and — where a payment is due for that study — 'Payment needed' and the
 * pay link; that study's PDF and images wait for the payment, the others do not.
 */
export function CustomerReportsPage() {
  const query = useQuery({
    queryKey: customerReportsQueryKey,
    queryFn: ({ signal }) => fetchCustomerReports(signal),
  });
  return (
    <Box component="section" aria-label="Manage report">
      <PageHeader title="Manage report" />
      {query.isPending && <LinearProgress aria-label="Loading reports" />}
      {query.isError && <Alert severity="error">{query.error.message}</Alert>}
      {query.data && query.data.reports.length === 0 && (
        <Paper variant="outlined" sx={{ p: 4, textAlign: 'center' }}>
          <Typography>{M.noReports}</Typography>
          <Typography variant="body2" color="textSecondary">
            Your reports appear here once the doctor has signed them off.
          </Typography>
        </Paper>
      )}
      {query.data && query.data.reports.length > 0 && (
        <Stack component="ul" spacing={1.5} sx={{ m: 0, p: 0, maxWidth: 900 }}>
          {query.data.reports.map((r) => (
            <ReportCard key={r.reportStatusId} report={r} />
          ))}
        </Stack>
      )}
    </Box>
  );
}

export default CustomerReportsPage;
