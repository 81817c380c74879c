import { asc, count, desc, eq, inArray, sql } from 'drizzle-orm';
import { type PgSelect, alias } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client.js';
import { centers, reportStatuses, reportTags, studies, studyAttachments, users } from '../../db/schema.js';
import { type TStudyListQuery, sortExpression, whereOf, withJoins } from './study-list.conditions.js';

export type { TStudyListQuery } from './study-list.conditions.js';

const rs = reportStatuses;

/**
 * Counts up to this many matches exactly; above it the total is PostgreSQL's estimate. Counting
 * every row of a big group's All tab reads its whole index (590,000 entries, 100-180 ms on 1,000,000
 * rows) on every refresh, for a number nobody pages to the end of. Tabs and filters people work
 * with match far fewer rows and stay exact.
 */
export const EXACT_COUNT_LIMIT = 10_000;

/**
 * One page of report-row ids in order, and the total, under the caller's access condition: the
 * condition is in the WHERE of every statement, so neither the rows nor the count can show what the
 * caller may not see. The statements read only `report_statuses` unless a filter or the sort needs
 * the study or the center; the page's details are fetched for its ids afterwards
 * (findStudyListRows), so joins, user look-ups and tags run for one page, not for every match.
 *
 * Most lists match at most EXACT_COUNT_LIMIT rows: one statement reads the matches once (at most
 * EXACT_COUNT_LIMIT + 1 of them), counts them with a window and sorts out the page, instead of a
 * page query and a count query that would both visit every match (for a patient-name filter, both
 * would fetch every matching table row). A bigger match falls back to the page query, which can stop
 * after a page, and the planner's estimate.
 */
export async function findStudyListPage(db: Db, query: TStudyListQuery) {
  const { where, needs } = whereOf(query);
  const direction = query.descending ? desc : asc;
  const sortKey = sortExpression(query);
  // A builder per use: a dynamic query's limit() changes the builder it is called on.
  const matches = () =>
    withJoins(
      db
        .select({ id: rs.id, sortKey: sql`${sortKey}`.as('sort_key') })
        .from(rs)
        .$dynamic(),
      needs,
    ).where(where);

  const capped = matches()
    .limit(EXACT_COUNT_LIMIT + 1)
    .as('capped');
  const window = await db
    .select({ id: capped.id, matched: sql<number>`count(*) over ()`.mapWith(Number) })
    .from(capped)
    .orderBy(direction(capped.sortKey), direction(capped.id))
    .limit(query.limit)
    .offset(query.offset);
  const matched = window[0]?.matched ?? (await countCapped(db, matches));
  if (matched <= EXACT_COUNT_LIMIT) return { ids: window.map((r) => r.id), total: matched };

  const page = matches()
    .orderBy(direction(sortKey), direction(rs.id))
    .limit(query.limit)
    .offset(query.offset);
  const [rows, estimate] = await Promise.all([page, estimateRows(db, matches())]);
  return { ids: rows.map((r) => r.id), total: Math.max(EXACT_COUNT_LIMIT + 1, estimate) };
}

/** The number of matches, counting at most EXACT_COUNT_LIMIT + 1 (a page past the last one has no window row). */
async function countCapped(db: Db, matches: () => PgSelect): Promise<number> {
  const capped = matches()
    .limit(EXACT_COUNT_LIMIT + 1)
    .as('capped');
  const [counted] = await db.select({ n: count() }).from(capped);
  return counted?.n ?? 0;
}

/** The planner's row estimate of a query (EXPLAIN, nothing is run). */
async function estimateRows(db: Db, query: PgSelect): Promise<number> {
  const result = (await db.execute(sql`explain (format json) ${query}`)) as unknown as {
    rows: Array<Record<string, unknown>>;
  };
  const cell = result.rows[0]?.['QUERY PLAN'];
  const plan = (typeof cell === 'string' ? JSON.parse(cell) : cell) as Array<{
    Plan: { 'Plan Rows': number };
  }>;
  return Math.round(plan[0]?.Plan['Plan Rows'] ?? 0);
}

const assignee = alias(users, 'assignee');
const auditorUser = alias(users, 'auditor_user');
const locker = alias(users, 'locker');
const referrer = alias(users, 'referrer');

const attachmentCount = (kind: 'HISTORY' | 'FILM' | 'REPORT') =>
  sql<number>`(select count(*)::int from ${studyAttachments} where ${studyAttachments.reportStatusId} = ${rs.id} and ${studyAttachments.kind} = ${kind})`;
const splitChild = alias(reportStatuses, 'split_child');
/** An alias in a raw fragment renders as its bare name; the FROM item needs the table too. */
const splitChildFrom = sql`${reportStatuses} ${sql.identifier('split_child')}`;

/** The list fields of the given report rows (any order; the caller orders them by the page's ids). */
export async function findStudyListRows(db: Db, ids: readonly number[]) {
  if (ids.length === 0) return [];
  return db
    .select({
      id: rs.id,
      instanceId: studies.studyInstanceUid,
      apiVersion: rs.apiVersion,
      status: rs.status,
      urgent: rs.urgent,
      reworked: rs.reworked,
      signedOffAfterPrint: rs.signedOffAfterPrint,
      backedUpAt: rs.backedUpAt,
      deletedAt: rs.deletedAt,
      assignedTo: assignee.email,
      assignedToName: assignee.identifier,
      auditor: auditorUser.email,
      auditStatus: rs.auditStatus,
      lockedBy: locker.email,
      referringDoctor: referrer.email,
      patientName: rs.patientName,
      patientId: rs.patientId,
      uhid: rs.uhid,
      patientSex: rs.patientSex,
      patientAge: rs.patientAge,
      studyName: rs.studyName,
      modalities: studies.modalities,
      reportStudyPart: rs.studyParts,
      seriesCount: studies.seriesCount,
      instanceCount: studies.instanceCount,
      referringPhysicianName: rs.referringPhysicianName,
      referringPhysicianEmail: rs.referringPhysicianEmail,
      consultingDoctorEmails: rs.consultingDoctorEmails,
      accessionNumber: rs.accessionNumber,
      department: rs.department,
      institutionName: studies.institutionName,
      radiologyCenter: centers.name,
      centerEmail: centers.email,
      mobileNumber: rs.mobileNumber,
      email: rs.email,
      shareLink: rs.shareLink,
      sharedEmails: rs.sharedEmails,
      sharedNumbers: rs.sharedNumbers,
      dunningLabels: rs.dunningLabels,
      invoiceNumber: rs.invoiceNumber,
      history: rs.history,
      splitFromReportStatusId: rs.splitFromReportStatusId,
      hasSplitChild: sql<boolean>`exists (select 1 from ${splitChildFrom} where ${splitChild.splitFromReportStatusId} = ${rs.id})`,
      historyAttachments: attachmentCount('HISTORY'),
      filmAttachments: attachmentCount('FILM'),
      reportAttachments: attachmentCount('REPORT'),
      studyDate: studies.studyDate,
      studyTime: studies.studyTime,
      createdAt: rs.createdAt,
      firstUploadCompletedAt: rs.firstUploadCompletedAt,
      lastUploadCompletedAt: rs.lastUploadCompletedAt,
      signedOffAt: rs.signedOffAt,
      firstSignedOffAt: rs.firstSignedOffAt,
    })
    .from(rs)
    .innerJoin(studies, eq(studies.id, rs.studyId))
    .innerJoin(centers, eq(centers.id, rs.centerId))
    .leftJoin(assignee, eq(assignee.id, rs.assignedToUserId))
    .leftJoin(auditorUser, eq(auditorUser.id, rs.auditorUserId))
    .leftJoin(locker, eq(locker.id, rs.lockedByUserId))
    .leftJoin(referrer, eq(referrer.id, rs.referringDoctorUserId))
    .where(inArray(rs.id, [...ids]));
}
export type TStudyListDbRow = Awaited<ReturnType<typeof findStudyListRows>>[number];

/** The tags of the given report rows, oldest first, with their creator's e-mail: one query per page. */
export async function findTagsOf(db: Db, ids: readonly number[]) {
  if (ids.length === 0) return [];
  return db
    .select({
      id: reportTags.id,
      tag: reportTags.tag,
      globalTag: reportTags.globalTag,
      createdBy: sql<string>`coalesce(${users.email}, '')`,
      reportStatusId: reportTags.reportStatusId,
    })
    .from(reportTags)
    .leftJoin(users, eq(users.id, reportTags.createdByUserId))
    .where(inArray(reportTags.reportStatusId, [...ids]))
    .orderBy(asc(reportTags.id));
}
