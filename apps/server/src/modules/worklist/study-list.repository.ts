import { and, asc, count, desc, eq, sql } from 'drizzle-orm';
import { type AnyPgColumn, type PgSelect, alias } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client.js';
import { centers, reportStatuses, reportTags, studies, studyAttachments, users } from '../../db/schema.js';
import { TAG_FIELDS, tagSeenBy } from '../report-tags/tag-visibility.js';
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
 * When the planner expects more matches than this, the matches are not counted at all: the page
 * comes from the ordered query (which stops after a page) and the total is the estimate. Counting
 * the capped EXACT_COUNT_LIMIT + 1 matches of a big group's All tab only to throw the number away
 * cost 13 ms on PostgreSQL and 70 ms on PGlite per call. Five times the cap: the planner must
 * overestimate a list five-fold before a list of at most EXACT_COUNT_LIMIT rows shows an estimate
 * (its trigram and range estimates were within 1.5x on the bench data); at or below it the capped
 * exact count runs as before.
 */
export const ESTIMATE_FIRST_ABOVE = 5 * EXACT_COUNT_LIMIT;

/**
 * One page of report-row ids in order, and the total, under the caller's access condition: the
 * condition is in the WHERE of every statement, so neither the rows nor the count can show what the
 * caller may not see. The statements read only `report_statuses` unless a filter or the sort needs
 * the study or the center; the page's details are fetched for its ids afterwards
 * (findStudyListRows), so joins, user look-ups and tags run for one page, not for every match.
 *
 * The planner's estimate of the matches comes first (EXPLAIN, nothing runs). Above
 * ESTIMATE_FIRST_ABOVE the page query runs alone and the total is the estimate. Otherwise one
 * statement reads the matches once (at most EXACT_COUNT_LIMIT + 1 of them), counts them with a window
 * and sorts out the page, instead of a page query and a count query that would both visit every
 * match (for a patient-name filter, both would fetch every matching table row); when that count
 * reaches the cap, the page query runs and the total is the estimate (at least the cap + 1).
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
  const pageOf = async (estimate: number) => {
    const rows = await matches()
      .orderBy(direction(sortKey), direction(rs.id))
      .limit(query.limit)
      .offset(query.offset);
    return { ids: rows.map((r) => r.id), total: Math.max(EXACT_COUNT_LIMIT + 1, estimate) };
  };

  const estimate = await estimateRows(db, matches());
  if (estimate > ESTIMATE_FIRST_ABOVE) return pageOf(estimate);

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
  return pageOf(estimate);
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

/**
 * A user's field by id, as a scalar subquery rather than a join: PGlite runs no prepared statement
 * (every call is planned again), and the page query with four user joins and the center join planned
 * for 35-45 ms on PGlite on the loaded bench machine against 1-2 ms to run it; with two tables in the
 * join the planner has almost nothing to search. Each subquery reads one row by primary key.
 */
const userField = (field: 'email' | 'identifier', userId: AnyPgColumn) =>
  sql<string | null>`(select ${users[field]} from ${users} where ${users.id} = ${userId})`;
const centerField = (field: 'name' | 'email') =>
  sql<string>`(select ${centers[field]} from ${centers} where ${centers.id} = ${rs.centerId})`;

const attachmentCount = (kind: 'HISTORY' | 'FILM' | 'REPORT') =>
  sql<number>`(select count(*)::int from ${studyAttachments} where ${studyAttachments.reportStatusId} = ${rs.id} and ${studyAttachments.kind} = ${kind})`;
const splitChild = alias(reportStatuses, 'split_child');
/** An alias in a raw fragment renders as its bare name; the FROM item needs the table too. */
const splitChildFrom = sql`${reportStatuses} ${sql.identifier('split_child')}`;

/** The page's ids, bound as one array so both statements below have one shape whatever the page size. */
const pageIds = sql`any(${sql.placeholder('ids')}::int[])`;

/**
 * The list fields of the page's rows, prepared once per database: the statement is the same for
 * every page, and planning it (then with seven tables in the join) took 7-10 ms on PostgreSQL on the
 * loaded bench machine against under 1 ms to run it; a named statement lets PostgreSQL keep the plan.
 */
const prepareRowsQuery = (db: Db) =>
  db
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
      assignedTo: userField('email', rs.assignedToUserId),
      assignedToName: userField('identifier', rs.assignedToUserId),
      auditor: userField('email', rs.auditorUserId),
      auditStatus: rs.auditStatus,
      lockedBy: userField('email', rs.lockedByUserId),
      referringDoctor: userField('email', rs.referringDoctorUserId),
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
      centerId: rs.centerId,
      radiologyCenter: centerField('name'),
      centerEmail: centerField('email'),
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
    .where(sql`${rs.id} = ${pageIds}`)
    .prepare('worklist_page_rows');

/** The tags of the page's rows the caller sees (tag-visibility.ts), oldest first. */
const prepareTagsQuery = (db: Db) =>
  db
    .select(TAG_FIELDS)
    .from(reportTags)
    .leftJoin(users, eq(users.id, reportTags.createdByUserId))
    .where(
      and(
        sql`${reportTags.reportStatusId} = ${pageIds}`,
        tagSeenBy({ userId: sql.placeholder('viewerId'), groupId: sql.placeholder('groupId') }),
      ),
    )
    .orderBy(asc(reportTags.id))
    .prepare('worklist_page_tags');

const preparedByDb = new WeakMap<
  Db,
  { rows: ReturnType<typeof prepareRowsQuery>; tags: ReturnType<typeof prepareTagsQuery> }
>();
function preparedFor(db: Db) {
  let prepared = preparedByDb.get(db);
  if (!prepared) {
    prepared = { rows: prepareRowsQuery(db), tags: prepareTagsQuery(db) };
    preparedByDb.set(db, prepared);
  }
  return prepared;
}

/** The list fields of the given report rows (any order; the caller orders them by the page's ids). */
export async function findStudyListRows(db: Db, ids: readonly number[]) {
  if (ids.length === 0) return [];
  return preparedFor(db).rows.execute({ ids: [...ids] });
}
export type TStudyListDbRow = Awaited<ReturnType<typeof findStudyListRows>>[number];

/** The tags the viewer sees on the given report rows, oldest first: one query per page. */
export async function findTagsOf(
  db: Db,
  viewer: { userId: number; groupId: number },
  ids: readonly number[],
) {
  if (ids.length === 0) return [];
  return preparedFor(db).tags.execute({ ids: [...ids], viewerId: viewer.userId, groupId: viewer.groupId });
}
