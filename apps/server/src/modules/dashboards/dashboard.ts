import {
  AppError,
  OPEN_AGE_BUCKETS,
  OPEN_AGE_BUCKET_KEYS,
  type TDashboard,
  type TDashboardAudience,
  type TDashboardRequest,
  type TDashboardStudiesRequest,
  type TDashboardStudyPage,
  type TDashboardTurnaround,
  type TOpenAgeBucket,
  dashboardAudienceOf,
  dashboardMetricNeedsKey,
  dashboardScopeOf,
  dashboardShowsPatients,
  dashboardSignOffLimit,
  daysInRange,
  groupFlags,
  isCalendarDay,
  nextCalendarDay,
  summaryRangeInstants,
  summaryRangeProblem,
  toPageResponse,
} from '@radflow/core';
import type { AppContext } from '../../context.js';
import { MESSAGE_NOT_ALLOWED, type TAuth } from '../../plugins/auth.js';
import { loadGroupPreferences } from '../preferences/preferences.js';
import {
  type TDrillDown,
  type TRangeQuery,
  readDashboardNumbers,
  readDrillDownPage,
  readNames,
} from './dashboard.repository.js';

/**
 * The caller's audience (core dashboardAudienceOf: 403 for a role or a center without the switch),
 * the range checked by core summaryRangeProblem (400 naming the field) and turned into instants and
 * day starts of the group's display zone.
 */
async function rangeQueryOf(
  ctx: AppContext,
  auth: TAuth,
  request: TDashboardRequest,
): Promise<{ query: TRangeQuery; audience: TDashboardAudience; days: string[]; zone: string }> {
  const flags = groupFlags(await loadGroupPreferences(ctx.db, auth.user.groupId));
  const audience = dashboardAudienceOf(
    { id: auth.user.id, roles: auth.roles, groupId: auth.user.groupId, centerId: auth.user.centerId },
    flags,
  );
  if (!audience) throw new AppError('FORBIDDEN', MESSAGE_NOT_ALLOWED);
  const problem = summaryRangeProblem(request.startTime, request.endTime);
  if (problem) throw new AppError('BAD_REQUEST', problem.message, problem.field);
  const start = request.startTime as string;
  const end = request.endTime as string;
  const zone = flags.displayTimeZone;
  const days: string[] = [];
  for (let day = start; day <= end; day = nextCalendarDay(day)) days.push(day);
  const bounds = [...days, nextCalendarDay(end)].map((d) => summaryRangeInstants(d, d, zone).from);
  const { from, to } = summaryRangeInstants(start, end, zone);
  return {
    audience,
    days,
    zone,
    query: {
      scope: dashboardScopeOf(audience, auth.user.groupId),
      from,
      to,
      bounds,
      limitMinutes: dashboardSignOffLimit(flags),
      now: ctx.now(),
    },
  };
}

const NO_TURNAROUND: TDashboardTurnaround = {
  signedOff: 0,
  medianMinutes: null,
  p90Minutes: null,
  withinLimit: 0,
};
const roundMinutes = (t: TDashboardTurnaround): TDashboardTurnaround => ({
  ...t,
  medianMinutes: t.medianMinutes === null ? null : Math.round(t.medianMinutes * 10) / 10,
  p90Minutes: t.p90Minutes === null ? null : Math.round(t.p90Minutes * 10) / 10,
});

/** GET /api/dashboard: every number of the dashboards for a range of days. */
export async function readDashboard(
  ctx: AppContext,
  auth: TAuth,
  request: TDashboardRequest,
): Promise<TDashboard> {
  const { query, audience, days, zone } = await rangeQueryOf(ctx, auth, request);
  const n = await readDashboardNumbers(ctx.db, query);
  const doctorIds = n.byDoctor.flatMap((d) => (d.doctorId === null ? [] : [Number(d.doctorId)]));
  const names = await readNames(ctx.db, auth.user.groupId, doctorIds);
  const centerById = new Map(names.centers.map((c) => [c.id, c]));
  const doctorById = new Map(names.doctors.map((d) => [d.id, d.name]));

  const uploadedOn = new Map(n.uploadedByDay.map((r) => [r.day, r.count]));
  const signedOffOn = new Map(n.signedOffByDay.map((r) => [r.day, r.count]));
  const signedByCenter = new Map(n.signedOffByCenter.map((r) => [r.centerId, r]));
  const centerIds = [...new Set([...n.uploadedByCenter.map((r) => r.centerId), ...signedByCenter.keys()])];
  const uploadedByCenter = new Map(n.uploadedByCenter.map((r) => [r.centerId, r]));
  const byCenter = centerIds
    .map((centerId) => {
      const { centerId: _c, ...t } = signedByCenter.get(centerId) ?? { centerId, ...NO_TURNAROUND };
      const center = centerById.get(centerId);
      return {
        centerId,
        centerName: center?.name ?? '',
        region: center?.region ?? '',
        uploaded: uploadedByCenter.get(centerId)?.uploaded ?? 0,
        open: uploadedByCenter.get(centerId)?.open ?? 0,
        ...roundMinutes(t),
      };
    })
    .sort((a, b) => b.uploaded - a.uploaded || a.centerName.localeCompare(b.centerName));
  const signedByRegion = new Map(n.signedOffByRegion.map((r) => [r.region ?? '', r]));
  const uploadedByRegion = new Map(n.uploadedByRegion.map((r) => [r.region ?? '', r]));
  const byRegion = [...new Set([...uploadedByRegion.keys(), ...signedByRegion.keys()])]
    .map((region) => {
      const { region: _r, ...t } = signedByRegion.get(region) ?? { region, ...NO_TURNAROUND };
      return {
        region,
        uploaded: uploadedByRegion.get(region)?.uploaded ?? 0,
        open: uploadedByRegion.get(region)?.open ?? 0,
        ...roundMinutes(t),
      };
    })
    // A center without a region last: the regions are the point of the screen.
    .sort((a, b) => Number(a.region === '') - Number(b.region === '') || a.region.localeCompare(b.region));
  const dayCount = daysInRange(days[0] ?? '', days[days.length - 1] ?? '');
  const byDoctor = n.byDoctor
    .map(({ doctorId, ...t }) => {
      const id = doctorId === null ? null : Number(doctorId);
      return {
        doctorId: id,
        doctorName: id === null ? 'No doctor' : (doctorById.get(id) ?? ''),
        perDay: Math.round((t.signedOff / dayCount) * 100) / 100,
        ...roundMinutes(t),
      };
    })
    .sort((a, b) => b.signedOff - a.signedOff || a.doctorName.localeCompare(b.doctorName));
  const openIn = new Map(n.openByAge.map((r) => [r.bucket, r.open]));
  return {
    audience: audience.kind,
    startTime: days[0] ?? '',
    endTime: days[days.length - 1] ?? '',
    timeZone: zone,
    signOffLimitMinutes: query.limitMinutes,
    uploaded: byCenter.reduce((sum, c) => sum + c.uploaded, 0),
    open: byCenter.reduce((sum, c) => sum + c.open, 0),
    turnaround: roundMinutes(n.totals),
    byDay: days.map((day, i) => ({
      day,
      uploaded: uploadedOn.get(i + 1) ?? 0,
      signedOff: signedOffOn.get(i + 1) ?? 0,
    })),
    byModality: n.byModality,
    byCenter,
    byRegion,
    byDoctor,
    openByAge: OPEN_AGE_BUCKETS.map((b) => ({ bucket: b.key, open: openIn.get(b.key) ?? 0 })),
  };
}

/** The drill-down's key, checked for its metric: 400 naming `key` when it is missing or not one. */
function drillDownOf(request: TDashboardStudiesRequest, zone: string): TDrillDown {
  const { metric } = request;
  const key = request.key?.trim() ?? '';
  const bad = (what: string) => new AppError('BAD_REQUEST', `key must be ${what} for ${metric}`, 'key');
  if (dashboardMetricNeedsKey(metric) && request.key === undefined) throw bad('given');
  switch (metric) {
    case 'UPLOADED':
    case 'OPEN':
    case 'SIGNED_OFF':
    case 'WITHIN_LIMIT':
    case 'OVER_LIMIT':
      return { metric };
    case 'UPLOADED_DAY':
    case 'SIGNED_OFF_DAY': {
      if (!isCalendarDay(key)) throw bad('a day (yyyy-MM-dd)');
      const { from, to } = summaryRangeInstants(key, key, zone);
      return { metric, dayFrom: from, dayTo: to };
    }
    case 'MODALITY':
    case 'REGION':
    case 'REGION_SIGNED_OFF':
      // '' is a key too: the centers with no region.
      return { metric, text: key };
    case 'CENTER':
    case 'CENTER_SIGNED_OFF': {
      if (!/^\d{1,9}$/.test(key)) throw bad('a center id');
      return { metric, centerId: Number(key) };
    }
    case 'DOCTOR': {
      if (key === 'none') return { metric, doctorId: null };
      if (!/^\d{1,9}$/.test(key)) throw bad("a doctor id or 'none'");
      return { metric, doctorId: Number(key) };
    }
    case 'OPEN_AGE': {
      if (!(OPEN_AGE_BUCKET_KEYS as readonly string[]).includes(key)) {
        throw bad(`one of ${OPEN_AGE_BUCKET_KEYS.join(', ')}`);
      }
      return { metric, bucket: key as TOpenAgeBucket };
    }
  }
}

/** GET /api/dashboard/studies: the rows behind one number of the dashboard, a page at a time. */
export async function listDashboardStudies(
  ctx: AppContext,
  auth: TAuth,
  request: TDashboardStudiesRequest,
): Promise<TDashboardStudyPage> {
  const { query, zone } = await rangeQueryOf(ctx, auth, request);
  const drill = drillDownOf(request, zone);
  const { rows, total } = await readDrillDownPage(ctx.db, query, drill, {
    offset: request.page * request.size,
    limit: request.size,
    showPatients: dashboardShowsPatients(auth.roles),
  });
  return toPageResponse(rows, total, request.page, request.size);
}
