import { type SQL, asc, desc, eq, sql } from 'drizzle-orm';
import type { TStudyListRow } from '@radflow/core';
import { type AnyPgColumn, alias } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client.js';
import { EXACT_COUNT_LIMIT, countUpTo, estimateRows, totalBeyondExact } from '../../db/estimated-total.js';
import {
  centers,
  reportStatuses,
  reportTags,
  reports,
  studies,
  studyAttachments,
  users,
} from '../../db/schema.js';
import { TAG_FIELDS, tagSeenBy } from '../report-tags/tag-visibility.js';
import { type TStudyListQuery, sortExpression, whereOf, withJoins } from './study-list.conditions.js';
import { rowModalities } from '../../db/row-modalities.js';

export type { TStudyListQuery } from './study-list.conditions.js';

const rs = reportStatuses;

/**
 * One page of report-row ids in order, and the total, under the caller's access condition: the
 * condition is in the WHERE of every statement, so neither the rows nor the count can show what the
 * caller may not see. The statements read only `report_statuses` unless a filter or the sort needs
 * the study or the center; the page's details are fetched for its ids afterwards
 * (findStudyListRows), so joins, user look-ups and tags run for one page, not for every match.
 *
 * The planner's estimate of the matches comes first (EXPLAIN, nothing runs; db/estimated-total.ts).
 * - At most EXACT_COUNT_LIMIT expected: one statement reads the matches once (at most the cap + 1 of
 *   them), counts them with a window and sorts out the page. The total is exact unless the count
 *   reaches the cap (the estimate was wrong), which continues as below.
 * - More: the page query alone, one row longer than the page (ordered by an index when it can, so it
 *   stops early), and the total is the estimate corrected by the page: a page with a row after it
 *   makes the total at least its end + 1 (the pager always offers Next when there is more), a short
 *   page is the last one and its end is the exact total, and a page past the end counts the matches
 *   (at most `offset` of them, as far as the caller paged).
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

  // Ties by id in the same direction; sorted by id (plain or `id + 0`) there are no ties to break,
  // and a second sort key made sorting a month's 24,000 range entries 15 % dearer.
  const orderOf = (from: { id: AnyPgColumn; sortKey: SQL.Aliased }) =>
    query.orderBy === 'id' ? [direction(from.sortKey)] : [direction(from.sortKey), direction(from.id)];

  const estimate = await estimateRows(db, matches());
  if (estimate <= EXACT_COUNT_LIMIT) {
    const capped = matches()
      .limit(EXACT_COUNT_LIMIT + 1)
      .as('capped');
    const window = await db
      .select({ id: capped.id, matched: sql<number>`count(*) over ()`.mapWith(Number) })
      .from(capped)
      .orderBy(...orderOf(capped))
      .limit(query.limit)
      .offset(query.offset);
    const matched = window[0]?.matched ?? (await countUpTo(db, matches, EXACT_COUNT_LIMIT + 1));
    if (matched <= EXACT_COUNT_LIMIT) return { ids: window.map((r) => r.id), total: matched };
  }

  const sorted = matches().as('sorted');
  const rows = await db
    .select({ id: sorted.id })
    .from(sorted)
    .orderBy(...orderOf(sorted))
    .limit(query.limit + 1)
    .offset(query.offset);
  const ids = rows.slice(0, query.limit).map((r) => r.id);
  const total = await totalBeyondExact(db, {
    estimate,
    rowsRead: rows.length,
    limit: query.limit,
    offset: query.offset,
    matches,
  });
  return { ids, total };
}

/**
 * A user's field by id, as a scalar subquery rather than a join: PGlite runs no prepared statement
 * (every call is planned again), and the page query with four user joins and the center join planned
 * for 35-45 ms on PGlite on the loaded bench machine against 1-2 ms to run it; with two tables in the
 * join the planner has almost nothing to search. Each subquery reads one row by primary key.
 */
const userField = (field: 'email' | 'identifier', userId: AnyPgColumn) =>
  sql`(select ${users[field]} from ${users} where ${users.id} = ${userId})`;
const centerField = (field: 'name' | 'email') =>
  sql`(select ${centers[field]} from ${centers} where ${centers.id} = ${rs.centerId})`;
/** An instant as Date.toISOString writes it (UTC, milliseconds); null stays null. */
const isoOf = (column: AnyPgColumn) =>
  sql`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

const splitChild = alias(reportStatuses, 'split_child');
/** An alias in a raw fragment renders as its bare name; the FROM item needs the table too. */
const splitChildFrom = sql`${reportStatuses} ${sql.identifier('split_child')}`;

/** The page's ids, bound as one array so the statement has one shape whatever the page size. */
const pageIds = sql`any(${sql.placeholder('ids')}::int[])`;

/** The tags of the row the caller sees (tag-visibility.ts), oldest first, as a JSON array. */
const tagsJson = sql`(select coalesce(json_agg(json_build_object(${sql.join(
  Object.entries(TAG_FIELDS).map(([key, value]) => sql`${sql.raw(`'${key}'`)}, ${value}`),
  sql`, `,
)}) order by ${reportTags.id}), '[]'::json) from ${reportTags} left join ${users} on ${eq(
  users.id,
  reportTags.createdByUserId,
)} where ${reportTags.reportStatusId} = ${rs.id} and ${tagSeenBy({
  userId: sql.placeholder('viewerId'),
  groupId: sql.placeholder('groupId'),
})})`;

/**
 * Every field of a list row (core ZStudyListRow) but studyDateTime, as SQL on `report_statuses` and
 * its study: the database writes each row's JSON. The `satisfies` makes a field missing here, or one
 * the row does not have, a type error. Patient and order fields are the report row's own (issue 4).
 */
const ROW_FIELDS = {
  id: rs.id,
  instanceId: studies.studyInstanceUid,
  apiVersion: rs.apiVersion,
  status: rs.status,
  urgent: rs.urgent,
  reworked: rs.reworked,
  signedOffAfterPrint: rs.signedOffAfterPrint,
  // Only images since the latest sign-off count (archive DECISIONS.md "images after sign-off").
  newImagesAfterSignOffAt: sql`case when ${rs.newImagesAfterSignOffAt} > ${rs.signedOffAt} then ${isoOf(rs.newImagesAfterSignOffAt)} end`,
  backedUpAt: isoOf(rs.backedUpAt),
  deletedAt: isoOf(rs.deletedAt),
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
  modality: sql`array_to_string(${rowModalities}, ',')`,
  reportStudyPart: rs.studyParts,
  count: sql`json_build_object('series', ${studies.seriesCount}, 'images', ${studies.instanceCount})`,
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
  paymentStatus: rs.paymentStatus,
  paymentMode: rs.paymentMode,
  sharedEmails: rs.sharedEmails,
  sharedNumbers: rs.sharedNumbers,
  dunningLabels: rs.dunningLabels,
  invoiceNumber: rs.invoiceNumber,
  history: rs.history,
  splitFromReportStatusId: rs.splitFromReportStatusId,
  hasSplitChild: sql`exists (select 1 from ${splitChildFrom} where ${splitChild.splitFromReportStatusId} = ${rs.id})`,
  // spec-core §3 `reports` is not empty (Print needs it): any report of the row, addenda included.
  hasReports: sql`exists (select 1 from ${reports} where ${reports.reportStatusId} = ${rs.id})`,
  attachmentCount: sql`(select json_build_object('history', count(*) filter (where ${studyAttachments.kind} = 'HISTORY'), 'film', count(*) filter (where ${studyAttachments.kind} = 'FILM'), 'report', count(*) filter (where ${studyAttachments.kind} = 'REPORT')) from ${studyAttachments} where ${studyAttachments.reportStatusId} = ${rs.id})`,
  createdAt: isoOf(rs.createdAt),
  firstUploadCompletedAt: isoOf(rs.firstUploadCompletedAt),
  lastUploadCompletedAt: isoOf(rs.lastUploadCompletedAt),
  signedOffAt: isoOf(rs.signedOffAt),
  firstSignedOffAt: isoOf(rs.firstSignedOffAt),
  tags: tagsJson,
} satisfies Record<Exclude<keyof TStudyListRow, 'studyDateTime'>, SQL | AnyPgColumn>;

/** A list row as the database writes it: every field of ZStudyListRow but studyDateTime. */
export type TStudyListRowWithoutDateTime = Omit<TStudyListRow, 'studyDateTime'>;

const rowJson = sql`(select row_to_json(r) from (select ${sql.join(
  Object.entries(ROW_FIELDS).map(([key, value]) => sql`${value} as ${sql.identifier(key)}`),
  sql`, `,
)}) r)`;

/**
 * The page's rows as JSON written by the database, with their tags, in one statement prepared once
 * per database: the driver parses each row's JSON into the row object (one JSON.parse), so Node does
 * not map 50 columns per row. That, and one statement instead of two (rows, then tags), was most of
 * the Node CPU of a list call after the queries themselves (issue 4 §5 throughput). The type is the
 * query's promise; the route checks every row against the contract before it is sent
 * (study-list.serializer.ts). PostgreSQL keeps the plan of the named statement (planning it took
 * 7-10 ms, running it under 1 ms).
 */
const prepareRowsQuery = (db: Db) =>
  db
    .select({
      id: rs.id,
      studyDate: studies.studyDate,
      studyTime: studies.studyTime,
      row: sql<TStudyListRowWithoutDateTime>`${rowJson}`,
    })
    .from(rs)
    .innerJoin(studies, eq(studies.id, rs.studyId))
    .where(sql`${rs.id} = ${pageIds}`)
    .prepare('worklist_page_rows');

const preparedByDb = new WeakMap<Db, ReturnType<typeof prepareRowsQuery>>();

/**
 * The given report rows as the viewer sees them (any order; the caller orders them by the page's
 * ids): each row without studyDateTime, and the study's DICOM date and time it comes from.
 */
export async function findStudyListRows(
  db: Db,
  viewer: { userId: number; groupId: number },
  ids: readonly number[],
) {
  if (ids.length === 0) return [];
  let prepared = preparedByDb.get(db);
  if (!prepared) {
    prepared = prepareRowsQuery(db);
    preparedByDb.set(db, prepared);
  }
  return prepared.execute({ ids: [...ids], viewerId: viewer.userId, groupId: viewer.groupId });
}
