import { type SQL, and, desc, eq, gte, inArray, lt, ne, sql } from 'drizzle-orm';
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

/** The rows of the centers filed under a region (uncorrelated: read once per statement). */
const inRegion = (region: string, groupId: number) =>
  sql`${rs.centerId} in (select ${centers.id} from ${centers} where ${centers.groupId} = ${groupId} and ${centers.region} = ${region})`;

/**
 * The archive study of each row, looked up by its key: as a plain join the planner hashes the whole
 * studies table for a few thousand rows (228 of 377 ms on the 200,000-study bench). The LIMIT keeps
 * the planner from flattening it back into that join. Named `studies` so that `rowModalities` reads
 * it as it reads the table.
 */
const studyOfRow = sql`inner join lateral (select ${studies.modalities} from ${studies} where ${studies.id} = ${rs.studyId} limit 1) as studies on true`;

type TTurnaroundRow = {
  signedOff: number;
  medianMinutes: number | null;
  p90Minutes: number | null;
  withinLimit: number;
};
const num = (v: unknown) => Number(v);
const numOrNull = (v: unknown) => (v === null || v === undefined ? null : Number(v));

/**
 * Every aggregate of one dashboard answer in two statements, one per row set, each reading its
 * rows once: GROUPING SETS give the day, modality, center, region and age groups (uploaded) and the
 * day, center, region, doctor and total groups (signed off) of one scan. `grouping()` tells the sets
 * apart (a bit per argument, 1 = not grouped by it, the first argument the highest bit).
 */
export async function readDashboardNumbers(db: Db, q: TRangeQuery) {
  const visible = visibleReportRows(q.scope);
  const uploadedRows = sql`
    select ${dayIndex(rs.createdAt, q.bounds)} as d, ${modalityOf} as m, ${rs.centerId} as c,
      coalesce(${centers.region}, '') as r,
      case when ${isOpen} then ${openAgeBucket(q.now)} end as a, ${isOpen} as o
    from ${rs}
    ${studyOfRow}
    left join ${centers} on ${centers.id} = ${rs.centerId}
    where ${and(visible, uploadedIn(q))}`;
  const uploaded = (await db.execute(sql`
    select grouping(d, m, c, r, a)::int as g, d, m, c, r, a,
      count(*)::int as n, (count(*) filter (where o))::int as open
    from (${uploadedRows}) x
    group by grouping sets ((d), (m), (c), (r), (a))`)) as unknown as {
    rows: Array<{
      g: number;
      d: number | null;
      m: string | null;
      c: number | null;
      r: string | null;
      a: TOpenAgeBucket | null;
      n: number;
      open: number;
    }>;
  };
  const signedRows = sql`
    select ${dayIndex(sql`${rs.firstSignedOffAt}`, q.bounds)} as d, ${rs.centerId} as c,
      coalesce(${centers.region}, '') as r, ${doctorOf} as doc, ${turnaroundMinutes} as t
    from ${rs}
    left join ${centers} on ${centers.id} = ${rs.centerId}
    where ${and(visible, signedOffIn(q))}`;
  const signed = (await db.execute(sql`
    select grouping(d, c, r, doc)::int as g, d, c, r, doc, count(*)::int as n,
      (percentile_cont(0.5) within group (order by t))::float8 as median,
      (percentile_cont(0.9) within group (order by t))::float8 as p90,
      (count(*) filter (where t <= ${q.limitMinutes}))::int as within
    from (${signedRows}) x
    group by grouping sets ((d), (c), (r), (doc), ())`)) as unknown as {
    rows: Array<{
      g: number;
      d: number | null;
      c: number | null;
      r: string | null;
      doc: number | null;
      n: number;
      median: unknown;
      p90: unknown;
      within: number;
    }>;
  };
  // The set a row belongs to: the one argument grouped by (its bit 0), or none (the total).
  const up = (bit: number) => uploaded.rows.filter((x) => num(x.g) === (31 ^ (1 << bit)));
  const so = (bit: number | null) =>
    signed.rows.filter((x) => num(x.g) === (bit === null ? 15 : 15 ^ (1 << bit)));
  const turnaroundOf = (x: (typeof signed.rows)[number]): TTurnaroundRow => ({
    signedOff: num(x.n),
    medianMinutes: numOrNull(x.median),
    p90Minutes: numOrNull(x.p90),
    withinLimit: num(x.within),
  });
  const [total] = so(null);
  return {
    uploadedByDay: up(4).map((x) => ({ day: num(x.d), count: num(x.n) })),
    byModality: up(3)
      .map((x) => ({ modality: x.m ?? '', uploaded: num(x.n) }))
      .sort((a, b) => b.uploaded - a.uploaded || a.modality.localeCompare(b.modality)),
    uploadedByCenter: up(2).map((x) => ({ centerId: num(x.c), uploaded: num(x.n), open: num(x.open) })),
    uploadedByRegion: up(1).map((x) => ({ region: x.r ?? '', uploaded: num(x.n), open: num(x.open) })),
    // The age set also holds the closed rows, under no age.
    openByAge: up(0)
      .filter((x) => x.a !== null)
      .map((x) => ({ bucket: x.a as TOpenAgeBucket, open: num(x.n) })),
    signedOffByDay: so(3).map((x) => ({ day: num(x.d), count: num(x.n) })),
    signedOffByCenter: so(2).map((x) => ({ centerId: num(x.c), ...turnaroundOf(x) })),
    signedOffByRegion: so(1).map((x) => ({ region: x.r ?? '', ...turnaroundOf(x) })),
    byDoctor: so(0).map((x) => ({ doctorId: x.doc === null ? null : num(x.doc), ...turnaroundOf(x) })),
    totals: total
      ? turnaroundOf(total)
      : { signedOff: 0, medianMinutes: null, p90Minutes: null, withinLimit: 0 },
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
      return inRegion(d.text, q.scope.groupId);
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
