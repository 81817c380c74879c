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
  PLATFORM_PAYMENT_MODE_LABELS,
  PLATFORM_TIME_ZONE,
  type TPlatformGroup,
  type TPlatformInvoice,
  type TPlatformPaymentMode,
  PLAN_KINDS,
  type TPlanKind,
  type TPlatformPlan,
  ZCreatePlanBody,
  ZPlatformCreditNoteBody,
  ZPlanTermsBody,
  calendarDayIn,
  formatDisplayTime,
  formatRupees,
  hasRole,
  toPaise,
} from '@radflow/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { PageHeader } from '../../components/PageHeader';
import { type TPaymentEntry, PaymentFields } from '../../components/PaymentFields';
import { newIdempotencyKey } from '../../lib/idempotency-key';
import { useSession } from '../auth/session';
import { failureText } from '../tele-billing/tele-billing.api';
import {
  PLATFORM_BILLING_KEY,
  changePlan,
  createPlan,
  creditInvoice,
  expireSubscription,
  extendSubscription,
  fetchInvoices,
  fetchOverview,
  fetchUsage,
  invoicePdfUrl,
  issueInvoices,
  periodOf,
  recordPayment,
  updatePlan,
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
  const [crediting, setCrediting] = useState<TPlatformInvoice | null>(null);
  /** The plan being edited; 'new' for a new one. */
  const [editingPlan, setEditingPlan] = useState<TPlatformPlan | 'new' | null>(null);
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
        <Box sx={{ display: 'flex', gap: 2, alignItems: 'center', mb: 1 }}>
          <Typography variant="h2" sx={{ fontSize: '1.1rem', flex: 1 }}>
            Plans
          </Typography>
          {isBiller && <Button onClick={() => setEditingPlan('new')}>New plan</Button>}
        </Box>
        <Table size="small" aria-label="Plans">
          <TableHead>
            <TableRow>
              <TableCell>Code</TableCell>
              <TableCell>Name</TableCell>
              <TableCell>Kind</TableCell>
              <TableCell align="right">Monthly fee</TableCell>
              <TableCell align="right">Included studies</TableCell>
              <TableCell align="right">Per study</TableCell>
              <TableCell align="right">Trial days</TableCell>
              <TableCell>Active</TableCell>
              <TableCell />
            </TableRow>
          </TableHead>
          <TableBody>
            {(overview.data?.plans ?? []).map((p) => (
              <TableRow key={p.id} data-plan={p.code}>
                <TableCell>{p.code}</TableCell>
                <TableCell>{p.name}</TableCell>
                <TableCell>{p.kind === 'PER_STUDY' ? 'Per study' : 'Subscription'}</TableCell>
                <TableCell align="right">{rupees(p.monthlyFee)}</TableCell>
                <TableCell align="right">{p.includedStudies}</TableCell>
                <TableCell align="right">{rupees(p.perStudyPrice)}</TableCell>
                <TableCell align="right">{p.trialDays}</TableCell>
                <TableCell>{p.active ? 'Yes' : 'No'}</TableCell>
                <TableCell>
                  {isBiller && (
                    <Button size="small" onClick={() => setEditingPlan(p)}>
                      Edit
                    </Button>
                  )}
                </TableCell>
              </TableRow>
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
                  {isBiller && inv.kind === 'INVOICE' && inv.status === 'ISSUED' && inv.paid === 0 && (
                    <Button size="small" color="warning" onClick={() => setCrediting(inv)}>
                      Credit note
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
      {editingPlan && (
        <PlanDialog
          plan={editingPlan === 'new' ? null : editingPlan}
          onClose={() => setEditingPlan(null)}
          onDone={(saved) => {
            setEditingPlan(null);
            setNotice(`Plan ${saved.code} saved. It applies to invoices issued from now on.`);
            void refresh();
          }}
        />
      )}
      {crediting && (
        <CreditNoteDialog
          invoice={crediting}
          onClose={() => setCrediting(null)}
          onDone={() => {
            setCrediting(null);
            setNotice(`Credit note issued for ${crediting.number}.`);
            void refresh();
          }}
        />
      )}
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
  // The platform records the day it is told of a payment: no date to type.
  const [entry, setEntry] = useState<TPaymentEntry<TPlatformPaymentMode>>(() => ({
    amount: target.invoice ? String(target.invoice.due) : '',
    mode: 'BANK_TRANSFER',
    reference: '',
    paidOn: null,
  }));
  // One key per dialog: a double-clicked Save records one payment.
  const [key] = useState(newIdempotencyKey);
  const save = useMutation({
    mutationFn: () =>
      recordPayment(
        {
          groupId: target.group.groupId,
          invoiceId: target.invoice?.id ?? null,
          amount: Number(entry.amount),
          mode: entry.mode,
          reference: entry.reference,
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
        <PaymentFields
          value={entry}
          onChange={setEntry}
          modes={PLATFORM_PAYMENT_MODES}
          modeLabels={PLATFORM_PAYMENT_MODE_LABELS}
        />
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Cancel</Button>
        <Button
          variant="contained"
          disabled={save.isPending || !entry.reference.trim() || !(Number(entry.amount) > 0)}
          onClick={() => save.mutate()}
        >
          Save
        </Button>
      </DialogActions>
    </Dialog>
  );
}

/**
 * A credit note cancels the whole unpaid invoice (server creditInvoice; the month's next run issues
 * the corrected one), so the amount is shown, not typed; the reason is checked by the same core
 * schema the server uses (required, at most 300 characters).
 */
function CreditNoteDialog({
  invoice,
  onClose,
  onDone,
}: {
  invoice: TPlatformInvoice;
  onClose: () => void;
  onDone: () => void;
}) {
  const [reason, setReason] = useState('');
  const checked = ZPlatformCreditNoteBody.safeParse({ reason });
  const tooLong = reason.trim().length > 300;
  const save = useMutation({
    mutationFn: () => creditInvoice(invoice.id, reason.trim()),
    onSuccess: onDone,
  });
  return (
    <Dialog open onClose={onClose} aria-labelledby="platform-credit-note-title">
      <DialogTitle id="platform-credit-note-title">Credit note — {invoice.number}</DialogTitle>
      <DialogContent
        sx={{ display: 'flex', flexDirection: 'column', gap: 2, pt: '8px !important', minWidth: 320 }}
      >
        <Typography>
          Credits the whole invoice of {invoice.groupName} for {invoice.period}: {rupees(invoice.total)}. The
          month&apos;s next run issues the corrected invoice.
        </Typography>
        <TextField
          label="Reason"
          value={reason}
          onChange={(e) => setReason(e.target.value)}
          error={tooLong}
          helperText={tooLong ? 'At most 300 characters' : ' '}
          multiline
        />
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Cancel</Button>
        <Button
          variant="contained"
          color="warning"
          disabled={save.isPending || !checked.success}
          onClick={() => save.mutate()}
        >
          Issue credit note
        </Button>
      </DialogActions>
    </Dialog>
  );
}

/**
 * A plan's terms (admin biller): a new plan (code and kind once), or new terms of one, which apply to
 * invoices issued from now on. Checked by the core schemas the server uses; the server's refusal
 * (a duplicate code, a trial turned paid) is shown as it says.
 */
function PlanDialog({
  plan,
  onClose,
  onDone,
}: {
  plan: TPlatformPlan | null;
  onClose: () => void;
  onDone: (plan: TPlatformPlan) => void;
}) {
  const [code, setCode] = useState(plan?.code ?? '');
  const [kind, setKind] = useState<TPlanKind>(plan?.kind ?? 'PER_STUDY');
  const [name, setName] = useState(plan?.name ?? '');
  const [monthlyFee, setMonthlyFee] = useState(String(plan?.monthlyFee ?? 0));
  const [includedStudies, setIncludedStudies] = useState(String(plan?.includedStudies ?? 0));
  const [perStudyPrice, setPerStudyPrice] = useState(String(plan?.perStudyPrice ?? 0));
  const [trialDays, setTrialDays] = useState(String(plan?.trialDays ?? 0));
  const [active, setActive] = useState(plan?.active ?? true);
  const terms = {
    name,
    monthlyFee: Number(monthlyFee),
    includedStudies: Number(includedStudies),
    perStudyPrice: Number(perStudyPrice),
    trialDays: Number(trialDays),
    active,
  };
  const checked = plan
    ? ZPlanTermsBody.safeParse(terms)
    : ZCreatePlanBody.safeParse({ ...terms, code, kind });
  const problem = checked.success ? null : (checked.error.issues[0]?.message ?? 'Check the terms');
  const save = useMutation({
    mutationFn: () => (plan ? updatePlan(plan.id, terms) : createPlan({ ...terms, code: code.trim(), kind })),
    onSuccess: onDone,
  });
  const number = (label: string, value: string, set: (v: string) => void) => (
    <TextField label={label} value={value} onChange={(e) => set(e.target.value)} inputMode="decimal" />
  );
  return (
    <Dialog open onClose={onClose} aria-labelledby="platform-plan-title">
      <DialogTitle id="platform-plan-title">{plan ? `Edit plan — ${plan.code}` : 'New plan'}</DialogTitle>
      <DialogContent
        sx={{ display: 'flex', flexDirection: 'column', gap: 2, pt: '8px !important', minWidth: 340 }}
      >
        {!plan && (
          <>
            <TextField label="Code" value={code} onChange={(e) => setCode(e.target.value.toUpperCase())} />
            <TextField
              select
              label="Kind"
              value={kind}
              onChange={(e) => setKind(e.target.value as TPlanKind)}
            >
              {PLAN_KINDS.map((k) => (
                <MenuItem key={k} value={k}>
                  {k === 'PER_STUDY' ? 'Per study' : 'Subscription'}
                </MenuItem>
              ))}
            </TextField>
          </>
        )}
        <TextField label="Name" value={name} onChange={(e) => setName(e.target.value)} />
        {number('Monthly fee (₹)', monthlyFee, setMonthlyFee)}
        {number('Included studies', includedStudies, setIncludedStudies)}
        {number('Per study (₹)', perStudyPrice, setPerStudyPrice)}
        {number('Trial days', trialDays, setTrialDays)}
        <TextField
          select
          label="Active"
          value={active ? 'yes' : 'no'}
          onChange={(e) => setActive(e.target.value === 'yes')}
        >
          <MenuItem value="yes">Yes</MenuItem>
          <MenuItem value="no">No</MenuItem>
        </TextField>
        {plan && (
          <Typography variant="body2" color="text.secondary">
            New terms apply to invoices issued from now on; issued invoices keep theirs.
          </Typography>
        )}
        {problem && <Alert severity="warning">{problem}</Alert>}
        {save.isError && <Alert severity="error">{failureText(save.error)}</Alert>}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Cancel</Button>
        <Button
          variant="contained"
          disabled={save.isPending || problem !== null}
          onClick={() => save.mutate()}
        >
          Save
        </Button>
      </DialogActions>
    </Dialog>
  );
}
