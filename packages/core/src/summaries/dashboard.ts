import { z } from 'zod';
import { TIMELY_SIGN_OFF_MINUTES } from '../common/constants.js';
import { ZPageResponse } from '../common/schemas.js';
import { type TRole, hasRole } from '../identity/roles.js';
import type { TStudyScope } from '../studies/access.js';
import { REPORT_STATUSES } from '../worklist/statuses.js';

/**
 * The dashboards of issue 24 §3 (spec-core §2 menus: 'View Detailed Dashboard' /page/dashboard,
 * 'View Dashboard' /admin-page/dashboard, the region dashboard /admin-page/eskag-dashboard). The spec
 * shows no content; ours is what a group admin and a center owner read on one screen: volumes by day,
 * modality, center and doctor, turnaround from upload to sign-off, open cases by age, a doctor's
 * throughput. Every number can be drilled into (`DASHBOARD_METRICS`) and the rows behind it are
 * exactly the rows the number counts: the server builds both from the same conditions.
 *
 * Two sets of rows, both inside the range of days (core `summaryRangeInstants`, the group's zone):
 * - uploaded: rows created in the range (the worklist's date filter), DELETED rows left out;
 * - signed off: rows first signed off in the range. Turnaround is first sign-off minus upload
 *   (first upload completed, else creation: the clock of core `isTimeExceeded`); a row is within the
 *   limit at exactly the limit, as it is not yet time-exceeded there.
 */

/** Who the dashboard is about: the whole group, one center, or one doctor's own work. */
export type TDashboardAudience =
  { kind: 'group' } | { kind: 'center'; centerId: number } | { kind: 'doctor'; userId: number };

export interface TDashboardUser {
  id: number;
  roles: readonly TRole[];
  groupId: number;
  centerId: number | null;
}

/**
 * Who may open a dashboard and what it counts (spec-core §2 menus; issue 24 §3):
 * - a dashboard viewer and a group admin: the group (a dashboard viewer sees no study in the lists,
 *   core `studyScopeOf`, but the dashboards are its whole job); attached to a center, that center;
 * - a center with the group's `enableDashboardViewer`, and a lab supervisor: their center;
 * - a doctor: their own work (rows assigned to or locked by them, not the pool they could pick up);
 * - anyone else: null (403).
 * The widest applies for a user with several roles.
 */
export function dashboardAudienceOf(
  user: TDashboardUser,
  flags: { enableDashboardViewer: boolean },
): TDashboardAudience | null {
  const { roles, centerId } = user;
  if (hasRole(roles, 'ROLE_DASHBOARD_VIEWER', 'ROLE_GROUP')) {
    return centerId === null ? { kind: 'group' } : { kind: 'center', centerId };
  }
  const centerMay =
    hasRole(roles, 'ROLE_LABS_SUPERVISOR') || (hasRole(roles, 'ROLE_CENTER') && flags.enableDashboardViewer);
  if (centerMay && centerId !== null) return { kind: 'center', centerId };
  if (hasRole(roles, 'ROLE_DOCTOR')) return { kind: 'doctor', userId: user.id };
  return null;
}

/** The roles that may call the dashboards at all (the switch of a center is checked with the group's flags). */
export const DASHBOARD_ROLES: readonly TRole[] = [
  'ROLE_DASHBOARD_VIEWER',
  'ROLE_GROUP',
  'ROLE_CENTER',
  'ROLE_LABS_SUPERVISOR',
  'ROLE_DOCTOR',
];

/**
 * The audience as a study scope, so the server counts through the one access rule
 * (`visibleReportRows`): the group, the center, or the doctor's `assignedTo` grant.
 */
export function dashboardScopeOf(audience: TDashboardAudience, groupId: number): TStudyScope {
  switch (audience.kind) {
    case 'group':
      return { groupId, grants: [{ kind: 'group' }] };
    case 'center':
      return { groupId, grants: [{ kind: 'center', centerId: audience.centerId }] };
    case 'doctor':
      return { groupId, grants: [{ kind: 'assignedTo', userId: audience.userId }] };
  }
}

/**
 * Whether the drill-down lists name the patient. A dashboard viewer reads numbers and has no study
 * access (core `studyScopeOf`): its lists show which studies, not whose.
 */
export function dashboardShowsPatients(roles: readonly TRole[]): boolean {
  return !(roles.length > 0 && roles.every((r) => r === 'ROLE_DASHBOARD_VIEWER'));
}

/** The sign-off limit the dashboards measure against: the group's `signOffTimeLimit`, else the spec's 1440 minutes. */
export function dashboardSignOffLimit(flags: { signOffTimeLimit: number | null }): number {
  return flags.signOffTimeLimit ?? TIMELY_SIGN_OFF_MINUTES;
}

/** Ages of the open cases, in minutes since upload: each bucket holds ages below its bound. */
export const OPEN_AGE_BUCKETS = [
  { key: 'UNDER_1H', label: 'Under 1 h', belowMinutes: 60 },
  { key: 'H1_TO_4', label: '1–4 h', belowMinutes: 240 },
  { key: 'H4_TO_24', label: '4–24 h', belowMinutes: 1440 },
  { key: 'D1_TO_3', label: '1–3 days', belowMinutes: 4320 },
  { key: 'OVER_3D', label: 'Over 3 days', belowMinutes: null },
] as const;
export type TOpenAgeBucket = (typeof OPEN_AGE_BUCKETS)[number]['key'];
export const OPEN_AGE_BUCKET_KEYS = OPEN_AGE_BUCKETS.map((b) => b.key) as [
  TOpenAgeBucket,
  ...TOpenAgeBucket[],
];

/** The bucket of an open case aged `minutes`. */
export function openAgeBucketOf(minutes: number): TOpenAgeBucket {
  for (const b of OPEN_AGE_BUCKETS) if (b.belowMinutes === null || minutes < b.belowMinutes) return b.key;
  return 'OVER_3D';
}

/** A center with no region set is listed under this name on the region dashboard. */
export const NO_REGION_LABEL = 'No region';

/**
 * The numbers one can drill into, each naming the rows behind it:
 * - UPLOADED (all uploaded), UPLOADED_DAY (key yyyy-MM-dd), MODALITY (key the row's modalities as
 *   the list shows them), CENTER (key center id), REGION (key region, '' = none), OPEN (open now,
 *   of the uploaded), OPEN_AGE (key an age bucket);
 * - SIGNED_OFF (all signed off), SIGNED_OFF_DAY (key a day), WITHIN_LIMIT, OVER_LIMIT,
 *   DOCTOR (key user id, 'none' = no doctor), CENTER_SIGNED_OFF (key center id),
 *   REGION_SIGNED_OFF (key region).
 */
export const DASHBOARD_METRICS = [
  'UPLOADED',
  'UPLOADED_DAY',
  'MODALITY',
  'CENTER',
  'REGION',
  'OPEN',
  'OPEN_AGE',
  'SIGNED_OFF',
  'SIGNED_OFF_DAY',
  'WITHIN_LIMIT',
  'OVER_LIMIT',
  'DOCTOR',
  'CENTER_SIGNED_OFF',
  'REGION_SIGNED_OFF',
] as const;
export type TDashboardMetric = (typeof DASHBOARD_METRICS)[number];

/** The metrics that need a key, and a human name for the drill-down's title. */
export const DASHBOARD_METRIC_LABELS: Readonly<Record<TDashboardMetric, string>> = {
  UPLOADED: 'Uploaded',
  UPLOADED_DAY: 'Uploaded on',
  MODALITY: 'Uploaded, modality',
  CENTER: 'Uploaded at',
  REGION: 'Uploaded in region',
  OPEN: 'Open',
  OPEN_AGE: 'Open, aged',
  SIGNED_OFF: 'Signed off',
  SIGNED_OFF_DAY: 'Signed off on',
  WITHIN_LIMIT: 'Signed off within the limit',
  OVER_LIMIT: 'Signed off after the limit',
  DOCTOR: 'Signed off by',
  CENTER_SIGNED_OFF: 'Signed off, center',
  REGION_SIGNED_OFF: 'Signed off, region',
};
const KEYED: ReadonlySet<TDashboardMetric> = new Set([
  'UPLOADED_DAY',
  'MODALITY',
  'CENTER',
  'REGION',
  'OPEN_AGE',
  'SIGNED_OFF_DAY',
  'DOCTOR',
  'CENTER_SIGNED_OFF',
  'REGION_SIGNED_OFF',
]);
export function dashboardMetricNeedsKey(metric: TDashboardMetric): boolean {
  return KEYED.has(metric);
}

// ---- the calls ----

const ZDay = z.string().max(32);

/** GET /api/dashboard: a range of days of the group's zone (checked by `summaryRangeProblem`). */
export const ZDashboardRequest = z.object({ startTime: ZDay.optional(), endTime: ZDay.optional() });
export type TDashboardRequest = z.infer<typeof ZDashboardRequest>;

/** GET /api/dashboard/studies: the rows behind one number, a page at a time. */
export const ZDashboardStudiesRequest = ZDashboardRequest.extend({
  metric: z.enum(DASHBOARD_METRICS),
  key: z.string().max(200).optional(),
  page: z.coerce.number().int().min(0).default(0),
  size: z.coerce.number().int().min(1).max(100).default(20),
});
export type TDashboardStudiesRequest = z.infer<typeof ZDashboardStudiesRequest>;

const ZTurnaround = z.object({
  signedOff: z.number().int(),
  /** Minutes; null when nothing was signed off. */
  medianMinutes: z.number().nullable(),
  p90Minutes: z.number().nullable(),
  withinLimit: z.number().int(),
});
export type TDashboardTurnaround = z.infer<typeof ZTurnaround>;

export const ZDashboard = z
  .object({
    audience: z.enum(['group', 'center', 'doctor']),
    startTime: z.string(),
    endTime: z.string(),
    timeZone: z.string(),
    signOffLimitMinutes: z.number().int(),
    /** Rows uploaded in the range, and how many of them are open now. */
    uploaded: z.number().int(),
    open: z.number().int(),
    turnaround: ZTurnaround,
    /** Every day of the range, in order, zero days included. */
    byDay: z.array(z.object({ day: z.string(), uploaded: z.number().int(), signedOff: z.number().int() })),
    byModality: z.array(z.object({ modality: z.string(), uploaded: z.number().int() })),
    byCenter: z.array(
      ZTurnaround.extend({
        centerId: z.number().int(),
        centerName: z.string(),
        region: z.string(),
        uploaded: z.number().int(),
        open: z.number().int(),
      }),
    ),
    byRegion: z.array(
      ZTurnaround.extend({ region: z.string(), uploaded: z.number().int(), open: z.number().int() }),
    ),
    /** A doctor's throughput: signed off in the range, per day of the range, and their turnaround. */
    byDoctor: z.array(
      ZTurnaround.extend({
        doctorId: z.number().int().nullable(),
        doctorName: z.string(),
        perDay: z.number(),
      }),
    ),
    openByAge: z.array(z.object({ bucket: z.enum(OPEN_AGE_BUCKET_KEYS), open: z.number().int() })),
  })
  .meta({ id: 'Dashboard' });
export type TDashboard = z.infer<typeof ZDashboard>;

export const ZDashboardStudy = z
  .object({
    id: z.number().int(),
    studyInstanceUid: z.string(),
    /** Null for a caller who reads numbers only (`dashboardShowsPatients`). */
    patientName: z.string().nullable(),
    modality: z.string(),
    studyName: z.string(),
    centerName: z.string(),
    doctorName: z.string().nullable(),
    status: z.enum(REPORT_STATUSES),
    uploadedAt: z.string(),
    signedOffAt: z.string().nullable(),
    turnaroundMinutes: z.number().nullable(),
  })
  .meta({ id: 'DashboardStudy' });
export type TDashboardStudy = z.infer<typeof ZDashboardStudy>;
export const ZDashboardStudyPage = ZPageResponse(ZDashboardStudy).meta({ id: 'DashboardStudyPage' });
export type TDashboardStudyPage = z.infer<typeof ZDashboardStudyPage>;

/** The share of a turnaround within the limit, 0..1; null when nothing was signed off. */
export function withinLimitShare(t: Pick<TDashboardTurnaround, 'signedOff' | 'withinLimit'>): number | null {
  return t.signedOff === 0 ? null : t.withinLimit / t.signedOff;
}
