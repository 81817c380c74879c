import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { BarChart } from '@mui/x-charts/BarChart';
import { LineChart } from '@mui/x-charts/LineChart';
import { type TPlatformDashboard, formatRupees, toPaise } from '@radflow/core';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { PageHeader } from '../../components/PageHeader';
import { platformDashboardQuery } from './platform-billing.api';
const rupees = (value: number) => formatRupees(toPaise(value));

/** `empty`: the card's words instead of its chart when the range has nothing (an axis of zeros
 * only drew a clipped '0.0…'). */
function Card({ title, empty, children }: { title: string; empty?: string | false; children: ReactNode }) {
  return (
    <Paper component="section" aria-label={title} variant="outlined" sx={{ p: 2, minWidth: 0 }}>
      <Typography variant="h2" sx={{ fontSize: '1.05rem', mb: 1 }}>
        {title}
      </Typography>
      {empty ? (
        <Typography color="text.secondary" sx={{ py: 2 }}>
          {empty}
        </Typography>
      ) : (
        children
      )}
    </Paper>
  );
}

function Totals({ data }: { data: TPlatformDashboard }) {
  const invoiced = data.revenueByMonth.reduce((n, r) => n + toPaise(r.invoiced), 0);
  const collected = data.revenueByMonth.reduce((n, r) => n + toPaise(r.collected), 0);
  const items: Array<[string, string]> = [
    ['Invoiced', formatRupees(invoiced)],
    ['Collected', formatRupees(collected)],
    ['Overdue', `${data.overdue.count} · ${rupees(data.overdue.amount)}`],
    ['Expired groups', String(data.expiredGroups)],
    ['New groups', String(data.signUpsByMonth.reduce((n, s) => n + s.groups, 0))],
  ];
  return (
    <Box sx={{ display: 'flex', gap: 2, flexWrap: 'wrap', mb: 2 }}>
      {items.map(([label, value]) => (
        <Paper key={label} variant="outlined" sx={{ p: 1.5, minWidth: 150 }} data-total={label}>
          <Typography variant="body2" color="text.secondary">
            {label}
          </Typography>
          <Typography sx={{ fontSize: '1.3rem', fontWeight: 600 }}>{value}</Typography>
        </Paper>
      ))}
    </Box>
  );
}

/** A rupee axis in lakh and crore ('₹1.2L'): full amounts were wider than the axis and clipped. */
const rupeesCompact = new Intl.NumberFormat('en-IN', { notation: 'compact', maximumFractionDigits: 1 });
const rupeeTick = (value: number | null) => (value === null ? '' : `₹${rupeesCompact.format(value)}`);

function charts(data: TPlatformDashboard): Record<string, ReactNode> {
  const months = data.revenueByMonth.map((r) => r.period);
  const noRevenue = data.revenueByMonth.every((r) => r.invoiced === 0 && r.collected === 0);
  const noUsage = data.usageByMonth.every((u) => u.received === 0 && u.signedOff === 0);
  const noSignUps = data.signUpsByMonth.every((s) => s.groups === 0);
  return {
    revenue: (
      <Card
        key="revenue"
        title="Revenue by month"
        empty={noRevenue && 'Nothing invoiced or collected in these months'}
      >
        <BarChart
          height={260}
          xAxis={[{ scaleType: 'band', data: months }]}
          yAxis={[{ valueFormatter: rupeeTick, width: 64 }]}
          series={[
            { label: 'Invoiced (₹)', data: data.revenueByMonth.map((r) => r.invoiced) },
            { label: 'Collected (₹)', data: data.revenueByMonth.map((r) => r.collected) },
          ]}
          skipAnimation
        />
      </Card>
    ),
    plans: (
      <Card
        key="plans"
        title="Groups by plan"
        empty={data.groupsByPlan.length === 0 && 'No group on a plan yet'}
      >
        <BarChart
          height={220}
          layout="horizontal"
          yAxis={[{ scaleType: 'band', data: data.groupsByPlan.map((p) => p.planName), width: 160 }]}
          xAxis={[{ tickMinStep: 1 }]}
          series={[{ label: 'Groups', data: data.groupsByPlan.map((p) => p.groups) }]}
          hideLegend
          skipAnimation
        />
      </Card>
    ),
    usage: (
      <Card key="usage" title="Usage trend" empty={noUsage && 'No study received in these months'}>
        <LineChart
          height={260}
          xAxis={[{ scaleType: 'point', data: data.usageByMonth.map((u) => u.period) }]}
          yAxis={[{ tickMinStep: 1 }]}
          series={[
            { label: 'Received', data: data.usageByMonth.map((u) => u.received) },
            { label: 'Signed off', data: data.usageByMonth.map((u) => u.signedOff) },
          ]}
          skipAnimation
        />
      </Card>
    ),
    signUps: (
      <Card key="signUps" title="New sign-ups" empty={noSignUps && 'No group signed up in these months'}>
        <BarChart
          height={220}
          xAxis={[{ scaleType: 'band', data: data.signUpsByMonth.map((s) => s.period) }]}
          yAxis={[{ tickMinStep: 1 }]}
          series={[{ label: 'Groups created', data: data.signUpsByMonth.map((s) => s.groups) }]}
          hideLegend
          skipAnimation
        />
      </Card>
    ),
    overdue: (
      <Card key="overdue" title="Overdue invoices">
        {data.overdue.invoices.length === 0 ? (
          <Typography color="text.secondary">No overdue invoice</Typography>
        ) : (
          <Table size="small" aria-label="Overdue invoices">
            <TableHead>
              <TableRow>
                <TableCell>Number</TableCell>
                <TableCell>Group</TableCell>
                <TableCell>Due date</TableCell>
                <TableCell align="right">Due</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {data.overdue.invoices.map((i) => (
                <TableRow key={i.id}>
                  <TableCell>{i.number}</TableCell>
                  <TableCell>{i.groupName}</TableCell>
                  <TableCell>{i.dueDate}</TableCell>
                  <TableCell align="right">{rupees(i.due)}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
      </Card>
    ),
  };
}

const ORDER = {
  billing: ['revenue', 'overdue', 'plans', 'usage', 'signUps'],
  sales: ['signUps', 'plans', 'usage', 'revenue', 'overdue'],
} as const;

/**
 * Billing Dashboard (admin biller) and Admin Sales Dashboard (sales role): one answer of the server,
 * the same charts in the order each role reads first (money first, or growth first).
 */
function PlatformDashboard({ variant, title }: { variant: 'billing' | 'sales'; title: string }) {
  const query = useQuery(platformDashboardQuery(new Date()));
  const parts = query.data ? charts(query.data) : null;
  return (
    <Box>
      <PageHeader title={title} />
      {query.isPending && <LinearProgress aria-label="Loading" />}
      {query.isError && <Alert severity="error">The dashboard could not be loaded.</Alert>}
      {query.data && parts && (
        <>
          <Totals data={query.data} />
          <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', lg: '1fr 1fr' } }}>
            {ORDER[variant].map((k) => parts[k])}
          </Box>
        </>
      )}
    </Box>
  );
}

export function BillingDashboardPage() {
  return <PlatformDashboard variant="billing" title="Billing Dashboard" />;
}

export function SalesDashboardPage() {
  return <PlatformDashboard variant="sales" title="Admin Sales Dashboard" />;
}
