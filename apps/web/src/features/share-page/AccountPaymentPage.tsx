import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import {
  ACCOUNT_PAYMENT_MESSAGES as M,
  SHARE_MESSAGES,
  type TAccountPayment,
  type TPaymentDue,
  formatDicomText,
  formatPaymentAmount,
  formatPersonName,
  isViewerSession,
} from '@radflow/core';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Link as RouterLink } from 'react-router';
import { FullPageMessage } from '../../components/FullPageMessage';
import { SupportContact } from '../../components/SupportContact';
import { useSession } from '../auth/session';
import { accountPaymentQueryKey, fetchAccountPayment } from './share-page.api';

function Notice({ severity, children }: { severity: 'error' | 'info'; children: ReactNode }) {
  return (
    <Box sx={{ maxWidth: 520, mx: 'auto', width: '100%', p: 3 }}>
      <Alert severity={severity}>{children}</Alert>
    </Box>
  );
}

function WhoToContact({ payment }: { payment: TAccountPayment }) {
  const hasSupport = payment.support.phone !== null || payment.support.email !== null;
  return (
    <Stack spacing={1}>
      <Typography>{M.whatToDo}</Typography>
      {payment.groupAdmins.length > 0 && (
        <Box component="section" aria-label={M.groupAdmins}>
          <Typography variant="subtitle2">{M.groupAdmins}</Typography>
          <Box component="ul" sx={{ m: 0, pl: 3 }}>
            {payment.groupAdmins.map((admin) => (
              <li key={admin.email}>
                {admin.name} — <Link href={`mailto:${admin.email}`}>{admin.email}</Link>
              </li>
            ))}
          </Box>
        </Box>
      )}
      {(hasSupport || payment.groupAdmins.length === 0) && <SupportContact support={payment.support} />}
    </Stack>
  );
}

const describeDue = (due: TPaymentDue) =>
  [formatPersonName(due.patientName), formatDicomText(due.studyName)].filter(Boolean).join(', ') ||
  `Study ${due.reportStatusId}`;

/** What is due, each with the provider's pay link (a full-page navigation: the provider's page). */
function Dues({ dues }: { dues: TPaymentDue[] }) {
  if (dues.length === 0) return null;
  return (
    <Box component="section" aria-label={M.duesTitle}>
      <Typography variant="subtitle2" sx={{ mb: 1 }}>
        {M.duesTitle}
      </Typography>
      <Stack component="ul" spacing={1} sx={{ m: 0, p: 0, listStyle: 'none' }}>
        {dues.map((due) => (
          <Box
            component="li"
            key={due.reportStatusId}
            sx={{ display: 'flex', alignItems: 'center', gap: 2, flexWrap: 'wrap' }}
          >
            <Box sx={{ flex: 1, minWidth: 200 }}>
              <Typography>{describeDue(due)}</Typography>
              {due.note && (
                <Typography variant="caption" color="textSecondary">
                  {due.note}
                </Typography>
              )}
            </Box>
            <Typography sx={{ fontVariantNumeric: 'tabular-nums' }}>
              {formatPaymentAmount(due.amountMinor, due.currency)}
            </Typography>
            {due.payUrl ? (
              <Button
                variant="contained"
                href={due.payUrl}
                aria-label={`${M.payNow} ${formatPaymentAmount(due.amountMinor, due.currency)} for ${describeDue(due)}`}
              >
                {M.payNow}
              </Button>
            ) : (
              <Typography variant="caption">{M.noPayLink}</Typography>
            )}
          </Box>
        ))}
      </Stack>
    </Box>
  );
}

function PaymentStatus({ email }: { email: string }) {
  const payment = useQuery({
    queryKey: accountPaymentQueryKey(email),
    queryFn: ({ signal }) => fetchAccountPayment(signal),
    retry: false,
  });
  if (payment.isPending) return <FullPageMessage text="Loading…" fullHeight={false} />;
  if (payment.isError) return <Notice severity="error">{payment.error.message}</Notice>;
  const due = payment.data.paymentNotDone;
  return (
    <Box sx={{ maxWidth: 640, mx: 'auto', width: '100%', p: { xs: 1.5, md: 3 } }}>
      <Paper component="section" aria-labelledby="account-payment-title" sx={{ p: 3 }}>
        <Stack spacing={2}>
          <Typography id="account-payment-title" variant="h1" sx={{ fontSize: '1.5rem' }}>
            {due ? M.title : M.notDueTitle}
          </Typography>
          <Typography>{due ? M.due : M.notDue}</Typography>
          {due && <Dues dues={payment.data.dues} />}
          {due && <WhoToContact payment={payment.data} />}
        </Stack>
      </Paper>
    </Box>
  );
}

/**
 * /share?link={email} (spec-core §4 Viewer payment): where a viewer-role session goes when its
 * payment is not done. Only the signed-in viewer the address names sees what is due and who to
 * contact; signed out it asks for sign-in, and anyone else gets the share page's 'This link is not
 * valid' (the address is theirs to open, nobody else's).
 */
export function AccountPaymentPage({ email }: { email: string }) {
  const session = useSession();
  if (session.isPending) return <FullPageMessage text="Loading…" fullHeight={false} />;
  if (!session.data) {
    return (
      <Notice severity="info">
        {M.signInFirst}{' '}
        <Link component={RouterLink} to="/login-page">
          Sign in
        </Link>
      </Notice>
    );
  }
  const { user, roles } = session.data;
  if (user.email.toLowerCase() !== email.toLowerCase() || !isViewerSession(roles))
    return <Notice severity="error">{SHARE_MESSAGES.linkNotFound}</Notice>;
  return <PaymentStatus email={email} />;
}
