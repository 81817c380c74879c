import { type SQL, and, asc, desc, eq, gte, inArray, lt, ne, sql } from 'drizzle-orm';
import {
  OPEN_AGE_BUCKETS,
  OPEN_STATUSES,
  type TDashboardMetric,
  type TDashboardStudy,
  type TOpenAgeBucket,
  type TReportStatus,
  type TStudyScope,
} from '@radflow/core';
import type { Db } from '../../db/client.js';
import { rowModalities } from '../../db/row-modalities.js';
import { centers, reportStatuses, studies, users } from '../../db/schema.js';
import { visibleReportRows } from '../studies/study-access.js';

/*
 * The dashboards' SQL (issue 24 §3). Every number and every drill-down list is one of the row sets
 * below under the caller's access condition (`visibleReportRows`, the one access rule), so the list
 * behind a number holds exactly the rows the number counts. Aggregates run in the database
 * (count, percentile_cont), never over fetched rows.
 */

const rs = reportStatuses;

/** The clock of a turnaround: first upload completed, else creation (as core isTimeExceeded). */
const uploadAt = sql`coalesce(${rs.firstUploadCompletedAt}, ${rs.createdAt})`;
const turnaroundMinutes = sql`(extract(epoch from (${rs.firstSignedOffAt} - ${uploadAt})) / 60.0)`;
/** The doctor of a row: assigned, else the one who locked it (the access rule's assignedTo grant). */
const doctorOf = sql<number | null>`coalesce(${rs.assignedToUserId}, ${rs.lockedByUserId})`;
/** The modalities as the study list shows them (needs the studies join). */
const modalityOf = sql<string>`array_to_string(${rowModalities}, ',')`;
const isOpen = inArray(rs.status, [...OPEN_STATUSES]);
const int = (expr: SQL) => sql<number>`${expr}`.mapWith(Number);
const countAll = () => int(sql`count(*)::int`);

export interface TRangeQuery {
  scope: TStudyScope;
  from: Date;
  to: Date;
  /** The start of each day of the range and the end of the last: day i is [bounds[i], bounds[i+1]). */
  bounds: readonly Date[];
  limitMinutes: number;
  now: Date;
}

const uploadedIn = (q: Pick<TRangeQuery, 'from' | 'to'>) =>
  and(gte(rs.createdAt, q.from), lt(rs.createdAt, q.to), ne(rs.status, 'DELETED'));
const signedOffIn = (q: Pick<TRangeQuery, 'from' | 'to'>) =>
  and(gte(rs.firstSignedOffAt, q.from), lt(rs.firstSignedOffAt, q.to), ne(rs.status, 'DELETED'));

/** The bucket of an open row's age now, as core OPEN_AGE_BUCKETS reads. */
function openAgeBucket(now: Date): SQL<TOpenAgeBucket> {
  const age = sql`(extract(epoch from (${now.toISOString()}::timestamptz - ${uploadAt})) / 60.0)`;
  const whens = OPEN_AGE_BUCKETS.filter((b) => b.belowMinutes !== null).map(
    (b) => sql`when ${age} < ${b.belowMinutes} then ${b.key}`,
  );
  return sql<TOpenAgeBucket>`(case ${sql.join(whens, sql` `)} else 'OVER_3D' end)`;
}

/** The 1-based day of an instant in the range (width_bucket over the days' starts). */
function dayIndex(column: SQL | typeof rs.createdAt, bounds: readonly Date[]) {
  const starts = sql.join(
    bounds.map((b) => sql`${b.toISOString()}::timestamptz`),
    sql`, `,
  );
  return int(sql`width_bucket(${column}, array[${starts}])`);
}

/** Signed-off count, median and 90th percentile of turnaround, and how many within the limit. */
function turnaroundColumns(limitMinutes: number) {
  return {
    signedOff: countAll(),
    medianMinutes: sql<
      number | null
    >`percentile_cont(0.5) within group (order by ${turnaroundMinutes})`.mapWith((v: unknown) =>
      v === null ? null : Number(v),
    ),
    p90Minutes: sql<number | null>`percentile_cont(0.9) within group (order by ${turnaroundMinutes})`.mapWith(
      (v: unknown) => (v === null ? null : Number(v)),
    ),
    withinLimit: int(sql`(count(*) filter (where ${turnaroundMinutes} <= ${limitMinutes}))::int`),
  };
}

const regionOfRow = sql<string>`(select ${centers.region} from ${centers} where ${centers.id} = ${rs.centerId})`;

/** Every aggregate of one dashboard answer, in a handful of grouped queries. */
export async function readDashboardNumbers(db: Db, q: TRangeQuery) {
  const visible = visibleReportRows(q.scope);
  const uploaded = and(visible, uploadedIn(q));
  const signedOff = and(visible, signedOffIn(q));
  const turnaround = turnaroundColumns(q.limitMinutes);

  const uploadDay = dayIndex(rs.createdAt, q.bounds);
  const uploadedByDay = await db
    .select({ day: uploadDay, count: countAll() })
    .from(rs)
    .where(uploaded)
    // By position: the expression's parameters would not match a second copy of it.
    .groupBy(sql`1`);
  const signDay = dayIndex(sql`${rs.firstSignedOffAt}`, q.bounds);
  const signedOffByDay = await db
    .select({ day: signDay, count: countAll() })
    .from(rs)
    .where(signedOff)
    .groupBy(sql`1`);
  const byModality = await db
    .select({ modality: modalityOf, uploaded: countAll() })
    .from(rs)
    .innerJoin(studies, eq(studies.id, rs.studyId))
    .where(uploaded)
    .groupBy(modalityOf)
    .orderBy(desc(countAll()), asc(modalityOf));
  const uploadedByCenter = await db
    .select({
      centerId: rs.centerId,
      uploaded: countAll(),
      open: int(sql`(count(*) filter (where ${isOpen}))::int`),
    })
    .from(rs)
    .where(uploaded)
    .groupBy(rs.centerId);
  const signedOffByCenter = await db
    .select({ centerId: rs.centerId, ...turnaround })
    .from(rs)
    .where(signedOff)
    .groupBy(rs.centerId);
  const uploadedByRegion = await db
    .select({
      region: regionOfRow,
      uploaded: countAll(),
      open: int(sql`(count(*) filter (where ${isOpen}))::int`),
    })
    .from(rs)
    .where(uploaded)
    .groupBy(regionOfRow);
  const signedOffByRegion = await db
    .select({ region: regionOfRow, ...turnaround })
    .from(rs)
    .where(signedOff)
    .groupBy(regionOfRow);
  const byDoctor = await db
    .select({ doctorId: doctorOf, ...turnaround })
    .from(rs)
    .where(signedOff)
    .groupBy(doctorOf);
  const [totals] = await db.select(turnaround).from(rs).where(signedOff);
  const age = openAgeBucket(q.now);
  const openByAge = await db
    .select({ bucket: age, open: countAll() })
    .from(rs)
    .where(and(uploaded, isOpen))
    .groupBy(sql`1`);
  return {
    uploadedByDay,
    signedOffByDay,
    byModality,
    uploadedByCenter,
    signedOffByCenter,
    uploadedByRegion,
    signedOffByRegion,
    byDoctor,
    totals: totals ?? { signedOff: 0, medianMinutes: null, p90Minutes: null, withinLimit: 0 },
    openByAge,
  };
}

/** Names of the group's centers (with their region) and of the doctors the answer lists. */
export async function readNames(db: Db, groupId: number, doctorIds: readonly number[]) {
  const centerRows = await db
    .select({ id: centers.id, name: centers.name, region: centers.region })
    .from(centers)
    .where(eq(centers.groupId, groupId));
  const doctorRows =
    doctorIds.length === 0
      ? []
      : await db
          .select({ id: users.id, name: users.identifier })
          .from(users)
          .where(and(eq(users.groupId, groupId), inArray(users.id, [...doctorIds])));
  return { centers: centerRows, doctors: doctorRows };
}

/** One drill-down: the metric's row set, and the key's narrowing of it. */
export type TDrillDown =
  | { metric: Extract<TDashboardMetric, 'UPLOADED' | 'OPEN' | 'SIGNED_OFF' | 'WITHIN_LIMIT' | 'OVER_LIMIT'> }
  | { metric: 'UPLOADED_DAY' | 'SIGNED_OFF_DAY'; dayFrom: Date; dayTo: Date }
  | { metric: 'MODALITY' | 'REGION' | 'REGION_SIGNED_OFF'; text: string }
  | { metric: 'CENTER' | 'CENTER_SIGNED_OFF'; centerId: number }
  | { metric: 'DOCTOR'; doctorId: number | null }
  | { metric: 'OPEN_AGE'; bucket: TOpenAgeBucket };

/** Whether the metric counts signed-off rows (else uploaded rows); it also orders the list. */
export function countsSignedOff(metric: TDashboardMetric): boolean {
  return [
    'SIGNED_OFF',
    'SIGNED_OFF_DAY',
    'WITHIN_LIMIT',
    'OVER_LIMIT',
    'DOCTOR',
    'CENTER_SIGNED_OFF',
    'REGION_SIGNED_OFF',
  ].includes(metric);
}

function drillCondition(q: TRangeQuery, d: TDrillDown): SQL | undefined {
  switch (d.metric) {
    case 'UPLOADED':
    case 'SIGNED_OFF':
      return undefined;
    case 'OPEN':
      return isOpen;
    case 'OPEN_AGE':
      return and(isOpen, sql`${openAgeBucket(q.now)} = ${d.bucket}`);
    case 'WITHIN_LIMIT':
      return sql`${turnaroundMinutes} <= ${q.limitMinutes}`;
    case 'OVER_LIMIT':
      return sql`${turnaroundMinutes} > ${q.limitMinutes}`;
    case 'UPLOADED_DAY':
      return and(gte(rs.createdAt, d.dayFrom), lt(rs.createdAt, d.dayTo));
    case 'SIGNED_OFF_DAY':
      return and(gte(rs.firstSignedOffAt, d.dayFrom), lt(rs.firstSignedOffAt, d.dayTo));
    case 'MODALITY':
      return sql`${modalityOf} = ${d.text}`;
    case 'REGION':
    case 'REGION_SIGNED_OFF':
      return sql`${regionOfRow} = ${d.text}`;
    case 'CENTER':
    case 'CENTER_SIGNED_OFF':
      return eq(rs.centerId, d.centerId);
    case 'DOCTOR':
      return d.doctorId === null ? sql`${doctorOf} is null` : sql`${doctorOf} = ${d.doctorId}`;
  }
}

const doctorName = sql<
  string | null
>`(select ${users.identifier} from ${users} where ${users.id} = ${doctorOf})`;
const centerName = sql<string>`(select ${centers.name} from ${centers} where ${centers.id} = ${rs.centerId})`;

/** One page of the rows behind a number, newest first, and how many there are. */
export async function readDrillDownPage(
  db: Db,
  q: TRangeQuery,
  d: TDrillDown,
  page: { offset: number; limit: number; showPatients: boolean },
): Promise<{ rows: TDashboardStudy[]; total: number }> {
  const signed = countsSignedOff(d.metric);
  const where = and(
    visibleReportRows(q.scope),
    signed ? signedOffIn(q) : uploadedIn(q),
    drillCondition(q, d),
  );
  const [counted] = await db
    .select({ total: countAll() })
    .from(rs)
    .innerJoin(studies, eq(studies.id, rs.studyId))
    .where(where);
  const rows = await db
    .select({
      id: rs.id,
      studyInstanceUid: studies.studyInstanceUid,
      patientName: rs.patientName,
      modality: modalityOf,
      studyName: rs.studyName,
      centerName,
      doctorName,
      status: rs.status,
      uploadedAt: sql<Date>`${uploadAt}`.mapWith(rs.createdAt),
      signedOffAt: rs.firstSignedOffAt,
      turnaroundMinutes: sql<number | null>`${turnaroundMinutes}`.mapWith((v: unknown) =>
        v === null ? null : Number(v),
      ),
    })
    .from(rs)
    .innerJoin(studies, eq(studies.id, rs.studyId))
    .where(where)
    .orderBy(signed ? desc(rs.firstSignedOffAt) : desc(rs.createdAt), desc(rs.id))
    .offset(page.offset)
    .limit(page.limit);
  return {
    total: counted?.total ?? 0,
    rows: rows.map((r) => ({
      ...r,
      patientName: page.showPatients ? r.patientName : null,
      status: r.status as TReportStatus,
      uploadedAt: new Date(r.uploadedAt).toISOString(),
      signedOffAt: r.signedOffAt ? r.signedOffAt.toISOString() : null,
      turnaroundMinutes: r.turnaroundMinutes === null ? null : Math.round(r.turnaroundMinutes * 10) / 10,
    })),
  };
}
