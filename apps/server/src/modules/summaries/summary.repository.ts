import { type SQL, and, asc, desc, eq, gte, inArray, lt, sql } from 'drizzle-orm';
import {
  SUMMARY_AGGREGATION_BUCKET_SIZE,
  TIMELY_SIGN_OFF_MINUTES,
  type TCenterAggregate,
  type TSummaryAggregate,
  type TSummaryDateType,
  type TSummaryTextRow,
  type TSummaryTotals,
} from '@radflow/core';
import type { Db } from '../../db/client.js';
import { centers, reportStatuses, reports, studies, users } from '../../db/schema.js';
import {
  type TStudyListQuery,
  sortExpression,
  whereOf,
  withJoins,
} from '../worklist/study-list.conditions.js';
import { toStudyDateTime } from '../worklist/list-studies.js';

const rs = reportStatuses;

/**
 * What one summary call selects: the list's conditions (the one access rule, the column filters,
 * no tab fields) and the range of the chosen date type, [from, to) in instants and, for the study
 * time, the same calendar days as DICOM dates.
 */
export interface TSummaryQuery extends TSummaryRange {
  list: TStudyListQuery;
  dateType: TSummaryDateType;
}

const dicomDate = (day: string) => day.replaceAll('-', '');

/**
 * The range condition of the date type. Upload time is the row's `created_at` (when the study reached
 * us: every row has it, and it never moves, unlike the last completed upload); signed-off time is
 * `signed_off_at`; the study time is the study's DICOM date, which carries no zone: a day of it is
 * the day the modality wrote (DECISIONS.md "Date types").
 */
export interface TSummaryRange {
  from: Date;
  to: Date;
  startDay: string;
  endDay: string;
}

function rangeCondition(dateType: TSummaryDateType, q: TSummaryRange): SQL {
  switch (dateType) {
    case 'UPLOAD_TIME':
      return sql`(${gte(rs.createdAt, q.from)} and ${lt(rs.createdAt, q.to)})`;
    case 'SIGNED_OFF_TIME':
      return sql`(${gte(rs.signedOffAt, q.from)} and ${lt(rs.signedOffAt, q.to)})`;
    case 'STUDY_TIME':
      return sql`(${studies.studyDate} between ${dicomDate(q.startDay)} and ${dicomDate(q.endDay)})`;
  }
}

function summaryWhere(q: TSummaryQuery) {
  const { where, needs } = whereOf(q.list);
  return {
    where: and(where, rangeCondition(q.dateType, q)),
    needs: q.dateType === 'STUDY_TIME' ? { ...needs, studies: true as const } : needs,
  };
}

/**
 * The page's ids in the request's order. Sorted by id, the sort is `id + 0`: the range is read from
 * its (group or center, date, id) index and sorted, instead of walking the primary key backwards
 * hoping to meet the range (worklist DECISIONS.md "Indexes").
 */
export async function findSummaryIds(
  db: Db,
  q: TSummaryQuery,
  page: { offset: number; limit: number },
): Promise<number[]> {
  const { where, needs } = summaryWhere(q);
  const direction = q.list.descending ? desc : asc;
  const sortKey = q.list.orderBy === 'id' ? sql`(${rs.id} + 0)` : sortExpression(q.list);
  const order = q.list.orderBy === 'id' ? [direction(sortKey)] : [direction(sortKey), direction(rs.id)];
  let query = withJoins(db.select({ id: rs.id }).from(rs).$dynamic(), needs)
    .where(where)
    .orderBy(...order);
  if (page.limit > 0) query = query.limit(page.limit);
  if (page.offset > 0) query = query.offset(page.offset);
  const rows = await query;
  return rows.map((r) => r.id);
}

/** The totals of the range by the summary's simple status; exact (the range is at most 180 days). */
export async function findSummaryTotals(db: Db, q: TSummaryQuery): Promise<TSummaryTotals> {
  const { where, needs } = summaryWhere(q);
  const [row] = await withJoins(
    db
      .select({
        total: sql<number>`count(*)`.mapWith(Number),
        signedOff: sql<number>`count(*) filter (where ${rs.status} = 'SIGNED_OFF')`.mapWith(Number),
        deleted: sql<number>`count(*) filter (where ${rs.status} = 'DELETED')`.mapWith(Number),
      })
      .from(rs)
      .$dynamic(),
    needs,
  ).where(where);
  const total = row?.total ?? 0;
  const signedOff = row?.signedOff ?? 0;
  const deleted = row?.deleted ?? 0;
  return { total, signedOff, deleted, pending: total - signedOff - deleted };
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/**
 * The fields the summary's columns read (core TSummaryTextRow) for a batch of ids, as one statement
 * prepared once per database with the ids bound as one array: the same values the list's row
 * statement writes (worklist study-list.repository.ts ROW_FIELDS: the center's name, the assigned
 * doctor's e-mail and identifier, the study's DICOM date and time, whether a report exists) and
 * none of the rest. Joins, not the list's scalar subqueries: planning is paid once per batch of
 * thousands here, and on the bench's 100,000-row file the joins read a batch of 5,000 in ~80 ms
 * against ~600 ms with a subquery per field (DECISIONS.md "Excel").
 */
const prepareTextRows = (db: Db) =>
  db
    .select({
      id: rs.id,
      patientName: rs.patientName,
      patientId: rs.patientId,
      invoiceNumber: rs.invoiceNumber,
      accessionNumber: rs.accessionNumber,
      studyName: rs.studyName,
      history: rs.history,
      status: rs.status,
      shareLink: rs.shareLink,
      backedUpAt: rs.backedUpAt,
      radiologyCenter: centers.name,
      assignedTo: users.email,
      assignedToName: users.identifier,
      referringPhysicianName: rs.referringPhysicianName,
      studyDate: studies.studyDate,
      studyTime: studies.studyTime,
      lastUploadCompletedAt: rs.lastUploadCompletedAt,
      signedOffAt: rs.signedOffAt,
      hasReports: sql<boolean>`exists (select 1 from ${reports} where ${reports.reportStatusId} = ${rs.id})`,
    })
    .from(rs)
    .innerJoin(studies, eq(studies.id, rs.studyId))
    .innerJoin(centers, eq(centers.id, rs.centerId))
    .leftJoin(users, eq(users.id, rs.assignedToUserId))
    .where(sql`${rs.id} = any(${sql.placeholder('ids')}::int[])`)
    .prepare('summary_text_rows');

const preparedTextRows = new WeakMap<Db, ReturnType<typeof prepareTextRows>>();

/** The summary's text fields of the given ids (any order): the files' rows. */
export async function findSummaryTextRows(db: Db, ids: readonly number[]): Promise<TSummaryTextRow[]> {
  if (ids.length === 0) return [];
  let prepared = preparedTextRows.get(db);
  if (!prepared) {
    prepared = prepareTextRows(db);
    preparedTextRows.set(db, prepared);
  }
  const rows = await prepared.execute({ ids: [...ids] });
  // Each field named, not `{ ...rest }`: V8's sampling heap profiler counted ~1.8 KB an object
  // built by rest and spread, 180 MB a 100,000-row file of them dying in the old generation; the
  // file's heap peaked 230 MB above its base. With named fields: ~25 MB of them, and +20-70 MB.
  return rows.map((r): TSummaryTextRow => ({
    id: r.id,
    patientName: r.patientName,
    patientId: r.patientId,
    invoiceNumber: r.invoiceNumber,
    accessionNumber: r.accessionNumber,
    studyName: r.studyName,
    history: r.history,
    status: r.status,
    shareLink: r.shareLink,
    backedUpAt: iso(r.backedUpAt),
    radiologyCenter: r.radiologyCenter,
    assignedTo: r.assignedTo,
    assignedToName: r.assignedToName,
    referringPhysicianName: r.referringPhysicianName,
    studyDateTime: toStudyDateTime(r.studyDate, r.studyTime),
    lastUploadCompletedAt: iso(r.lastUploadCompletedAt),
    signedOffAt: iso(r.signedOffAt),
    hasReports: r.hasReports,
  }));
}

/**
 * The aggregates of the Advanced Search Report Summary (spec-core §7 /query/report-summary): for each
 * window, by center and for all the caller's rows together (GROUPING SETS: one pass over the rows
 * of all windows, each aggregate a FILTER on its window), under the same conditions as the summary
 * (the access rule, the filters, a doctor's own work). Completed = SIGNED_OFF; signed off within
 * TIMELY_SIGN_OFF_MINUTES of the upload (the first sign-off against `created_at`); unique patients
 * by patient id, or by name where the id is empty. Centers: most cases first, at most
 * SUMMARY_AGGREGATION_BUCKET_SIZE of them per window.
 */
export async function findSummaryAggregates(
  db: Db,
  q: Pick<TSummaryQuery, 'list' | 'dateType'>,
  windows: readonly TSummaryRange[],
): Promise<Array<{ group: TSummaryAggregate; centers: TCenterAggregate[] }>> {
  const { where: base, needs: listNeeds } = whereOf(q.list);
  const needs = q.dateType === 'STUDY_TIME' ? { ...listNeeds, studies: true as const } : listNeeds;
  const inWindow = windows.map((w) => rangeCondition(q.dateType, w));
  const patientKey = sql`coalesce(nullif(${rs.patientId}, ''), 'name:' || ${rs.patientName})`;
  const timely = sql`${rs.status} = 'SIGNED_OFF' and coalesce(${rs.firstSignedOffAt}, ${rs.signedOffAt}) <= ${rs.createdAt} + make_interval(mins => ${TIMELY_SIGN_OFF_MINUTES})`;
  const columns = inWindow.map(
    (w, i) =>
      sql`count(*) filter (where ${w}) as ${sql.identifier(`t${i}`)}, count(*) filter (where ${w} and ${rs.status} = 'SIGNED_OFF') as ${sql.identifier(`c${i}`)}, count(*) filter (where ${w} and ${timely}) as ${sql.identifier(`s${i}`)}, count(distinct ${patientKey}) filter (where ${w}) as ${sql.identifier(`u${i}`)}`,
  );
  const joins = sql.join(
    [
      needs.studies ? sql`inner join ${studies} on ${studies.id} = ${rs.studyId}` : undefined,
      needs.centers ? sql`inner join ${centers} on ${centers.id} = ${rs.centerId}` : undefined,
    ].filter((j): j is SQL => j !== undefined),
    sql` `,
  );
  const statement = sql`select ${rs.centerId} as center_id, grouping(${rs.centerId}) as all_rows, ${sql.join(columns, sql`, `)}
    from ${rs} ${joins}
    where ${and(base, sql`(${sql.join(inWindow, sql` or `)})`)}
    group by grouping sets ((${rs.centerId}), ())`;
  const result = (await db.execute(statement)) as unknown as { rows: Array<Record<string, unknown>> };
  const centerIds = result.rows.filter((r) => Number(r['all_rows']) === 0).map((r) => Number(r['center_id']));
  const named =
    centerIds.length === 0
      ? []
      : await db
          .select({ id: centers.id, name: centers.name, email: centers.email })
          .from(centers)
          .where(inArray(centers.id, centerIds));
  const byId = new Map(named.map((c) => [c.id, c]));
  const aggregate = (row: Record<string, unknown> | undefined, i: number): TSummaryAggregate => ({
    totalCases: Number(row?.[`t${i}`] ?? 0),
    completedCases: Number(row?.[`c${i}`] ?? 0),
    signedOffWithinLimit: Number(row?.[`s${i}`] ?? 0),
    uniquePatients: Number(row?.[`u${i}`] ?? 0),
  });
  const all = result.rows.find((r) => Number(r['all_rows']) === 1);
  return windows.map((_, i) => ({
    group: aggregate(all, i),
    centers: result.rows
      .filter((r) => Number(r['all_rows']) === 0)
      .map((r) => {
        const center = byId.get(Number(r['center_id']));
        return { centerEmail: center?.email ?? '', centerName: center?.name ?? '', ...aggregate(r, i) };
      })
      .filter((c) => c.totalCases > 0)
      .sort((a, b) => b.totalCases - a.totalCases || a.centerEmail.localeCompare(b.centerEmail))
      .slice(0, SUMMARY_AGGREGATION_BUCKET_SIZE),
  }));
}
