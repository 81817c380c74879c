import { type SQL, and, asc, desc, eq, gte, inArray, lt, sql } from 'drizzle-orm';
import type { TSummaryDateType, TSummaryTextRow, TSummaryTotals } from '@radflow/core';
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
export interface TSummaryQuery {
  list: TStudyListQuery;
  dateType: TSummaryDateType;
  from: Date;
  to: Date;
  /** yyyy-MM-dd of the first and last day (the study time's range). */
  startDay: string;
  endDay: string;
}

const dicomDate = (day: string) => day.replaceAll('-', '');

/**
 * The range condition of the date type. Upload time is the row's `created_at` (when the study reached
 * us: every row has it, and it never moves, unlike the last completed upload); signed-off time is
 * `signed_off_at`; the study time is the study's DICOM date, which carries no zone: a day of it is
 * the day the modality wrote (DECISIONS.md "Date types").
 */
function rangeCondition(q: TSummaryQuery): SQL | undefined {
  switch (q.dateType) {
    case 'UPLOAD_TIME':
      return and(gte(rs.createdAt, q.from), lt(rs.createdAt, q.to));
    case 'SIGNED_OFF_TIME':
      return and(gte(rs.signedOffAt, q.from), lt(rs.signedOffAt, q.to));
    case 'STUDY_TIME':
      return sql`${studies.studyDate} between ${dicomDate(q.startDay)} and ${dicomDate(q.endDay)}`;
  }
}

function summaryWhere(q: TSummaryQuery) {
  const { where, needs } = whereOf(q.list);
  return {
    where: and(where, rangeCondition(q)),
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
 * The fields the summary's columns read (core TSummaryTextRow), for the given ids (any order): the
 * files' rows. The same values the list's row statement writes (worklist study-list.repository.ts
 * ROW_FIELDS) — the center's name, the assigned doctor's e-mail and identifier, the study's DICOM
 * date and time, whether a report exists — with none of the rest, so 100,000 rows cost little.
 */
export async function findSummaryTextRows(db: Db, ids: readonly number[]): Promise<TSummaryTextRow[]> {
  if (ids.length === 0) return [];
  const rows = await db
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
      radiologyCenter: sql<string>`(select ${centers.name} from ${centers} where ${centers.id} = ${rs.centerId})`,
      assignedTo: sql<
        string | null
      >`(select ${users.email} from ${users} where ${users.id} = ${rs.assignedToUserId})`,
      assignedToName: sql<
        string | null
      >`(select ${users.identifier} from ${users} where ${users.id} = ${rs.assignedToUserId})`,
      referringPhysicianName: rs.referringPhysicianName,
      studyDate: studies.studyDate,
      studyTime: studies.studyTime,
      lastUploadCompletedAt: rs.lastUploadCompletedAt,
      signedOffAt: rs.signedOffAt,
      hasReports: sql<boolean>`exists (select 1 from ${reports} where ${reports.reportStatusId} = ${rs.id})`,
    })
    .from(rs)
    .innerJoin(studies, eq(studies.id, rs.studyId))
    .where(inArray(rs.id, [...ids]));
  return rows.map(({ studyDate, studyTime, backedUpAt, lastUploadCompletedAt, signedOffAt, ...row }) => ({
    ...row,
    backedUpAt: iso(backedUpAt),
    lastUploadCompletedAt: iso(lastUploadCompletedAt),
    signedOffAt: iso(signedOffAt),
    studyDateTime: toStudyDateTime(studyDate, studyTime),
  }));
}
