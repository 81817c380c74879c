import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import ButtonBase from '@mui/material/ButtonBase';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import {
  DEFAULT_DISPLAY_TIME_ZONE,
  type TDashboard,
  calendarDayIn,
  dashboardShowsPatients,
  isPathAllowed,
  summaryRangeProblem,
  withinLimitShare,
} from '@radflow/core';
import { useQuery } from '@tanstack/react-query';
import { useDeferredValue, useState } from 'react';
import { Link as RouterLink, useSearchParams } from 'react-router';
import { PageHeader } from '../../components/PageHeader';
import { useSession } from '../auth/session';
import { ChartCard } from './ChartCard';
import { DrillDownDialog } from './DrillDownDialog';
import { type TDashboardVariant, chartsOf, formatMinutes, formatShare } from './dashboard-charts';
import { type TDashboardRange, type TDrillDownTarget, dashboardQuery } from './dashboards.api';

/** Days the range covers when the address names none: the last 30, today included. */
const DEFAULT_DAYS = 30;
const DAY_MS = 24 * 60 * 60 * 1000;

const TITLES: Record<TDashboardVariant, string> = {
  detailed: 'View Detailed Dashboard',
  viewer: 'View Dashboard',
  region: 'Region dashboard',
};

/** The other dashboard screens a user may open from this one. */
const LINKS: Array<{ variant: TDashboardVariant; path: string; label: string }> = [
  { variant: 'viewer', path: '/admin-page/dashboard', label: 'Dashboard' },
  { variant: 'region', path: '/admin-page/eskag-dashboard', label: 'Region dashboard' },
];

function defaultRange(timeZone: string): TDashboardRange {
  const now = new Date();
  return {
    startTime: calendarDayIn(new Date(now.getTime() - (DEFAULT_DAYS - 1) * DAY_MS), timeZone),
    endTime: calendarDayIn(now, timeZone),
  };
}

/**
 * The dashboards of issue 24 §3: /page/dashboard (doctor, center with enableDashboardViewer, lab
 * supervisor), /admin-page/dashboard (dashboard viewer) and the region dashboard. The range is in the
 * address (?startTime=&endTime=, days of the group's zone), so a view can be shared and reloaded.
 */
export function DashboardPage({ variant }: { variant: TDashboardVariant }) {
  const { data: session, isPending } = useSession();
  if (isPending) return <LinearProgress aria-label="Loading" />;
  // /admin-page/dashboard is a public path (spec-core §2): a visitor is asked to sign in.
  if (!session) {
    return (
      <Box component="section" sx={{ p: 3 }}>
        <PageHeader title={TITLES[variant]} />
        <Typography sx={{ mb: 2 }}>Sign in to see the dashboard.</Typography>
        <Button component={RouterLink} to="/login-page" variant="contained">
          Sign in
        </Button>
      </Box>
    );
  }
  return (
    <SignedInDashboard
      variant={variant}
      timeZone={session.flags.displayTimeZone || DEFAULT_DISPLAY_TIME_ZONE}
      showPatients={dashboardShowsPatients(session.roles)}
      canOpen={(path) => isPathAllowed(session.menuContext, path)}
    />
  );
}

function SignedInDashboard({
  variant,
  timeZone,
  showPatients,
  canOpen,
}: {
  variant: TDashboardVariant;
  timeZone: string;
  showPatients: boolean;
  canOpen: (path: string) => boolean;
}) {
  const [params, setParams] = useSearchParams();
  const fallback = defaultRange(timeZone);
  const range: TDashboardRange = {
    startTime: params.get('startTime') ?? fallback.startTime,
    endTime: params.get('endTime') ?? fallback.endTime,
  };
  const problem = summaryRangeProblem(range.startTime, range.endTime);
  const [target, setTarget] = useState<TDrillDownTarget | null>(null);
  const query = useQuery({ ...dashboardQuery(range), enabled: problem === null });
  const setDay = (field: keyof TDashboardRange, value: string) =>
    setParams(
      (p) => {
        const next = new URLSearchParams(p);
        next.set('startTime', range.startTime);
        next.set('endTime', range.endTime);
        next.set(field, value);
        return next;
      },
      { replace: true },
    );
  const links = LINKS.filter((l) => l.variant !== variant && canOpen(l.path));

  return (
    <Box component="section">
      <PageHeader
        title={TITLES[variant]}
        actions={links.map((l) => (
          <Button key={l.path} component={RouterLink} to={l.path} variant="outlined" size="small">
            {l.label}
          </Button>
        ))}
      />
      <Box sx={{ display: 'flex', gap: 2, flexWrap: 'wrap', alignItems: 'flex-start', mb: 2 }}>
        {(['startTime', 'endTime'] as const).map((field) => (
          <TextField
            key={field}
            type="date"
            size="small"
            label={field === 'startTime' ? 'Start date' : 'End date'}
            name={field}
            value={range[field]}
            onChange={(e) => setDay(field, e.target.value)}
            error={problem?.field === field}
            helperText={problem?.field === field ? problem.message : ' '}
            slotProps={{ inputLabel: { shrink: true } }}
            sx={{ width: 190 }}
          />
        ))}
        <Typography variant="body2" color="text.secondary" sx={{ pt: 1 }}>
          Days in {timeZone}
        </Typography>
      </Box>
      {query.isFetching && <LinearProgress aria-label="Loading the dashboard" sx={{ mb: 1 }} />}
      {query.isError && <Alert severity="error">The dashboard could not be loaded.</Alert>}
      {query.data && problem === null && (
        <DashboardBody dashboard={query.data} variant={variant} range={range} onDrill={setTarget} />
      )}
      {target && (
        <DrillDownDialog
          range={range}
          target={target}
          showPatients={showPatients}
          onClose={() => setTarget(null)}
        />
      )}
    </Box>
  );
}

/**
 * Charts drawn in the page's first render: the top row on a wide screen. The others follow in a
 * background render (React's deferred value), so the totals and the first row are on screen
 * without waiting for every chart; each chart costs ~100 ms of main thread on this machine's
 * browser (issue 24 §5, first paint ≤ 1.5 s; bench/dashboards.ts).
 */
const CHARTS_FIRST = 2;

function DashboardBody({
  dashboard: d,
  variant,
  range,
  onDrill,
}: {
  dashboard: TDashboard;
  variant: TDashboardVariant;
  range: TDashboardRange;
  onDrill: (target: TDrillDownTarget) => void;
}) {
  const t = d.turnaround;
  const charts = chartsOf(d, variant);
  const drawn = useDeferredValue(charts.length, Math.min(CHARTS_FIRST, charts.length));
  const tiles: Array<{ label: string; value: string; target: TDrillDownTarget }> = [
    { label: 'Uploaded', value: String(d.uploaded), target: { metric: 'UPLOADED', title: 'Uploaded' } },
    { label: 'Open now', value: String(d.open), target: { metric: 'OPEN', title: 'Open now' } },
    {
      label: 'Signed off',
      value: String(t.signedOff),
      target: { metric: 'SIGNED_OFF', title: 'Signed off' },
    },
    {
      label: `Within ${formatMinutes(d.signOffLimitMinutes)}`,
      value: formatShare(withinLimitShare(t)),
      target: { metric: 'WITHIN_LIMIT', title: 'Signed off within the limit' },
    },
    {
      label: 'Median turnaround',
      value: formatMinutes(t.medianMinutes),
      target: { metric: 'SIGNED_OFF', title: 'Signed off' },
    },
    {
      label: '90th percentile',
      value: formatMinutes(t.p90Minutes),
      target: { metric: 'SIGNED_OFF', title: 'Signed off' },
    },
  ];
  return (
    <>
      <Box
        component="ul"
        aria-label="Totals"
        sx={{
          listStyle: 'none',
          p: 0,
          m: 0,
          mb: 2,
          display: 'grid',
          gap: 1.5,
          gridTemplateColumns: 'repeat(auto-fill, minmax(150px, 1fr))',
        }}
      >
        {tiles.map((tile) => (
          <li key={tile.label}>
            <Paper variant="outlined" sx={{ height: '100%' }}>
              <ButtonBase
                onClick={() => onDrill(tile.target)}
                aria-label={`${tile.label}: ${tile.value}`}
                sx={{
                  p: 1.5,
                  width: '100%',
                  height: '100%',
                  flexDirection: 'column',
                  alignItems: 'flex-start',
                }}
              >
                <Typography variant="body2" color="text.secondary">
                  {tile.label}
                </Typography>
                <Typography sx={{ fontSize: '1.5rem', fontWeight: 600 }}>{tile.value}</Typography>
              </ButtonBase>
            </Paper>
          </li>
        ))}
      </Box>
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', lg: '1fr 1fr' } }}>
        {charts.slice(0, drawn).map((spec) => (
          <ChartCard key={spec.id} spec={spec} range={range} onDrill={onDrill} />
        ))}
      </Box>
    </>
  );
}

export const DetailedDashboardPage = () => <DashboardPage variant="detailed" />;
export const ViewerDashboardPage = () => <DashboardPage variant="viewer" />;
export const RegionDashboardPage = () => <DashboardPage variant="region" />;
