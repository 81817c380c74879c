import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Link from '@mui/material/Link';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import {
  PLATFORM_PAYMENT_MODES,
  PLATFORM_TIME_ZONE,
  type TPlatformGroup,
  type TPlatformInvoice,
  type TPlatformPaymentMode,
  calendarDayIn,
  formatDisplayTime,
  formatRupees,
  hasRole,
  toPaise,
} from '@radflow/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { PageHeader } from '../../components/PageHeader';
import { newIdempotencyKey } from '../../lib/idempotency-key';
import { useSession } from '../auth/session';
import {
  PLATFORM_BILLING_KEY,
  changePlan,
  expireSubscription,
  extendSubscription,
  fetchInvoices,
  fetchOverview,
  fetchUsage,
  invoicePdfUrl,
  issueInvoices,
  periodOf,
  recordPayment,
} from './platform-billing.api';

const rupees = (value: number) => formatRupees(toPaise(value));
const STATUS_COLOR = { TRIAL: 'info', ACTIVE: 'success', EXPIRED: 'error', CANCELLED: 'default' } as const;

/** What the payment dialog is for: a group (an advance) or one of its invoices. */
interface TPaymentTarget {
  group: { groupId: number; groupName: string };
  invoice: TPlatformInvoice | null;
}

/**
 * Admin Billing (spec-core §2 menus of the admin biller and the sales role): every group with its
 * plan, status and expiry; usage by month; the month's invoices and their payments.
 */
export function AdminBillingPage() {
  // Rendered inside the signed-in shell; a screen test renders it alone, with the session query.
  const roles = useSession().data?.roles ?? [];
  const isBiller = hasRole(roles, 'ROLE_ADMIN_BILLER');
  const client = useQueryClient();
  const today = calendarDayIn(new Date(), PLATFORM_TIME_ZONE);
  const [period, setPeriod] = useState(periodOf(today, 1));
  const [paying, setPaying] = useState<TPaymentTarget | null>(null);
  const [notice, setNotice] = useState<string | null>(null);

  const overview = useQuery({
    queryKey: [...PLATFORM_BILLING_KEY, 'overview'],
    queryFn: ({ signal }) => fetchOverview(signal),
  });
  const invoices = useQuery({
    queryKey: [...PLATFORM_BILLING_KEY, 'invoices'],
    queryFn: ({ signal }) => fetchInvoices(signal),
  });
  const usageFrom = periodOf(today, 5);
  const usageTo = periodOf(today);
  const usage = useQuery({
    queryKey: [...PLATFORM_BILLING_KEY, 'usage', usageFrom, usageTo],
    queryFn: ({ signal }) => fetchUsage(usageFrom, usageTo, signal),
  });
  const refresh = () => client.invalidateQueries({ queryKey: PLATFORM_BILLING_KEY });
  const act = useMutation({
    mutationFn: (run: () => Promise<unknown>) => run(),
    onSuccess: () => void refresh(),
  });
  const issue = useMutation({
    mutationFn: () => issueInvoices(period),
    onSuccess: (answer) => {
      setNotice(
        `${answer.issued} invoices issued for ${answer.period} (${answer.alreadyIssued} already issued).`,
      );
      void refresh();
    },
  });

  return (
    <Box>
      <PageHeader title="Admin Billing" />
      {notice && (
        <Alert severity="success" onClose={() => setNotice(null)} sx={{ mb: 2 }}>
          {notice}
        </Alert>
      )}
      <Paper variant="outlined" sx={{ p: 2, mb: 2, overflowX: 'auto' }}>
        <Typography variant="h2" sx={{ fontSize: '1.1rem', mb: 1 }}>
          Groups
        </Typography>
        <Table size="small" aria-label="Groups">
          <TableHead>
            <TableRow>
              <TableCell>Group</TableCell>
              <TableCell>Plan</TableCell>
              <TableCell>Status</TableCell>
              <TableCell>Expires</TableCell>
              <TableCell align="right">Outstanding</TableCell>
              <TableCell>Actions</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {(overview.data?.groups ?? []).map((g) => (
              <GroupRow
                key={g.groupId}
                group={g}
                plans={overview.data?.plans.map((p) => ({ code: p.code, name: p.name })) ?? []}
                isBiller={isBiller}
                onAct={(run) => act.mutate(run)}
                onPay={() => setPaying({ group: g, invoice: null })}
              />
            ))}
          </TableBody>
        </Table>
      </Paper>

      <Paper variant="outlined" sx={{ p: 2, mb: 2, overflowX: 'auto' }}>
        <Box sx={{ display: 'flex', gap: 2, alignItems: 'center', flexWrap: 'wrap', mb: 1 }}>
          <Typography variant="h2" sx={{ fontSize: '1.1rem', flex: 1 }}>
            Invoices
          </Typography>
          {isBiller && (
            <>
              <TextField
                size="small"
                label="Month"
                type="month"
                value={period}
                onChange={(e) => setPeriod(e.target.value)}
                slotProps={{ inputLabel: { shrink: true } }}
              />
              <Button
                variant="contained"
                disabled={issue.isPending || !period}
                onClick={() => issue.mutate()}
              >
                Issue invoices
              </Button>
            </>
          )}
        </Box>
        <Table size="small" aria-label="Invoices">
          <TableHead>
            <TableRow>
              <TableCell>Number</TableCell>
              <TableCell>Group</TableCell>
              <TableCell>Month</TableCell>
              <TableCell align="right">Studies</TableCell>
              <TableCell align="right">Total</TableCell>
              <TableCell align="right">Due</TableCell>
              <TableCell>Status</TableCell>
              <TableCell>Due date</TableCell>
              <TableCell />
            </TableRow>
          </TableHead>
          <TableBody>
            {(invoices.data?.invoices ?? []).map((inv) => (
              <TableRow key={inv.id} data-invoice={inv.number}>
                <TableCell>{inv.number}</TableCell>
                <TableCell>{inv.groupName}</TableCell>
                <TableCell>{inv.period}</TableCell>
                <TableCell align="right">{inv.studiesCounted}</TableCell>
                <TableCell align="right">{rupees(inv.total)}</TableCell>
                <TableCell align="right">{rupees(inv.due)}</TableCell>
                <TableCell>
                  {inv.kind === 'CREDIT_NOTE' ? 'Credit note' : inv.status}
                  {inv.overdue && <Chip size="small" color="error" label="Overdue" sx={{ ml: 1 }} />}
                </TableCell>
                <TableCell>{inv.dueDate}</TableCell>
                <TableCell>
                  <Link href={invoicePdfUrl(inv.id)} target="_blank" rel="noopener">
                    PDF
                  </Link>
                  {isBiller && inv.kind === 'INVOICE' && inv.status === 'ISSUED' && (
                    <Button
                      size="small"
                      onClick={() =>
                        setPaying({ group: { groupId: inv.groupId, groupName: inv.groupName }, invoice: inv })
                      }
                    >
                      Record payment
                    </Button>
                  )}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </Paper>

      <Paper variant="outlined" sx={{ p: 2, overflowX: 'auto' }}>
        <Typography variant="h2" sx={{ fontSize: '1.1rem', mb: 1 }}>
          Usage by month
        </Typography>
        <Table size="small" aria-label="Usage by month">
          <TableHead>
            <TableRow>
              <TableCell>Month</TableCell>
              <TableCell>Group</TableCell>
              <TableCell align="right">Received</TableCell>
              <TableCell align="right">Signed off</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {(usage.data?.rows ?? []).map((u) => (
              <TableRow key={`${u.period}-${u.groupId}`}>
                <TableCell>{u.period}</TableCell>
                <TableCell>{u.groupName}</TableCell>
                <TableCell align="right">{u.received}</TableCell>
                <TableCell align="right">{u.signedOff}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </Paper>
      {paying && (
        <PaymentDialog
          target={paying}
          onClose={() => setPaying(null)}
          onDone={() => {
            setPaying(null);
            setNotice('Payment recorded.');
            void refresh();
          }}
        />
      )}
    </Box>
  );
}

function GroupRow({
  group,
  plans,
  isBiller,
  onAct,
  onPay,
}: {
  group: TPlatformGroup;
  plans: Array<{ code: string; name: string }>;
  isBiller: boolean;
  onAct: (run: () => Promise<unknown>) => void;
  onPay: () => void;
}) {
  const sub = group.subscription;
  return (
    <TableRow data-group={group.groupName}>
      <TableCell>{group.groupName}</TableCell>
      <TableCell>
        <TextField
          select
          size="small"
          variant="standard"
          value={sub?.planCode ?? ''}
          slotProps={{ htmlInput: { 'aria-label': `Plan of ${group.groupName}` } }}
          onChange={(e) => onAct(() => changePlan(group.groupId, e.target.value, sub?.version ?? null))}
        >
          {plans.map((p) => (
            <MenuItem key={p.code} value={p.code}>
              {p.name}
            </MenuItem>
          ))}
        </TextField>
      </TableCell>
      <TableCell>
        {sub ? <Chip size="small" color={STATUS_COLOR[sub.status]} label={sub.status} /> : 'No plan'}
      </TableCell>
      <TableCell>{sub?.expiresAt ? formatDisplayTime(sub.expiresAt, PLATFORM_TIME_ZONE) : '—'}</TableCell>
      <TableCell align="right">{rupees(group.outstanding)}</TableCell>
      <TableCell>
        {sub && (
          <Button size="small" onClick={() => onAct(() => extendSubscription(group.groupId, sub.version, 1))}>
            Extend a month
          </Button>
        )}
        {isBiller && sub && sub.status !== 'EXPIRED' && (
          <Button
            size="small"
            color="error"
            onClick={() => onAct(() => expireSubscription(group.groupId, sub.version))}
          >
            Expire
          </Button>
        )}
        {isBiller && (
          <Button size="small" onClick={onPay}>
            Record payment
          </Button>
        )}
      </TableCell>
    </TableRow>
  );
}

function PaymentDialog({
  target,
  onClose,
  onDone,
}: {
  target: TPaymentTarget;
  onClose: () => void;
  onDone: () => void;
}) {
  const [amount, setAmount] = useState(target.invoice ? String(target.invoice.due) : '');
  const [mode, setMode] = useState<TPlatformPaymentMode>('BANK_TRANSFER');
  const [reference, setReference] = useState('');
  // One key per dialog: a double-clicked Save records one payment.
  const [key] = useState(newIdempotencyKey);
  const save = useMutation({
    mutationFn: () =>
      recordPayment(
        {
          groupId: target.group.groupId,
          invoiceId: target.invoice?.id ?? null,
          amount: Number(amount),
          mode,
          reference,
        },
        key,
      ),
    onSuccess: onDone,
  });
  return (
    <Dialog open onClose={onClose} aria-labelledby="platform-payment-title">
      <DialogTitle id="platform-payment-title">
        Record payment — {target.group.groupName}
        {target.invoice ? ` (${target.invoice.number})` : ''}
      </DialogTitle>
      <DialogContent
        sx={{ display: 'flex', flexDirection: 'column', gap: 2, pt: '8px !important', minWidth: 320 }}
      >
        <TextField
          label="Amount (₹)"
          value={amount}
          onChange={(e) => setAmount(e.target.value)}
          inputMode="decimal"
        />
        <TextField
          select
          label="Mode"
          value={mode}
          onChange={(e) => setMode(e.target.value as TPlatformPaymentMode)}
        >
          {PLATFORM_PAYMENT_MODES.map((m) => (
            <MenuItem key={m} value={m}>
              {m.replace('_', ' ')}
            </MenuItem>
          ))}
        </TextField>
        <TextField label="Reference" value={reference} onChange={(e) => setReference(e.target.value)} />
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Cancel</Button>
        <Button
          variant="contained"
          disabled={save.isPending || !reference.trim() || !(Number(amount) > 0)}
          onClick={() => save.mutate()}
        >
          Save
        </Button>
      </DialogActions>
    </Dialog>
  );
}
