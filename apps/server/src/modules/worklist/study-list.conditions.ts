import { type AnyColumn, type SQL, and, eq, gte, inArray, lt, ne, sql } from 'drizzle-orm';
import type { PgSelect } from 'drizzle-orm/pg-core';
import type { TReportStatus, TStudyListFilterField, TStudyListSortField, TStudyScope } from '@radflow/core';
import { centers, reportStatuses, reportTags, studies, users } from '../../db/schema.js';
import { visibleReportRows } from '../studies/study-access.js';
import { tagSeenBy } from '../report-tags/tag-visibility.js';
import { rowModalities } from '../../db/row-modalities.js';

/*
 * The WHERE and ORDER BY of the list queries: the caller's access condition, the tab fields, the
 * column filters and the sort, each on the report row's own columns where it has them.
 */

/** The conditions of one list query, already parsed and checked (see list-studies.ts). */
export interface TStudyListQuery {
  scope: TStudyScope;
  /** The caller: the tag filter matches only the tags they see (global, or their own local ones). */
  viewerId: number;
  /** Per-column filter text, keyed by row field; empty values were dropped. */
  filters: Partial<Record<TStudyListFilterField, string>>;
  statuses: readonly TReportStatus[] | null;
  /** The group's hide-deleted setting (hideDeletedStudies): DELETED rows are left out. */
  hideDeleted: boolean;
  urgentOnly: boolean;
  /** showAssigned: a doctor is assigned; showUnassigned: none is. */
  assignment: 'assigned' | 'unassigned' | null;
  /** assignedTos: assigned to one of these users (ids) or of these e-mails (in the caller's group). */
  assignedTo: { userIds: readonly number[]; emails: readonly string[] } | null;
  /** contextDoctor (already checked): assigned to or locked by this doctor. */
  contextDoctorId: number | null;
  /** showReprintNeeded: signed off again after the center printed it. */
  reprintNeeded: boolean;
  createdFrom: Date | null;
  /** Exclusive. */
  createdBefore: Date | null;
  orderBy: TStudyListSortField;
  descending: boolean;
  offset: number;
  limit: number;
}

const rs = reportStatuses;

/** The e-mail of the user an id column names (a scalar subquery: sorts and filters need no join). */
const emailOf = (userId: AnyColumn) =>
  sql<string | null>`(select ${users.email} from ${users} where ${users.id} = ${userId})`;

const modalityText = sql<string>`array_to_string(${rowModalities}, ',')`;

/** Which joined tables an expression reads: the id and count queries join only what they need. */
type TNeeds = { studies?: true; centers?: true };

/** Sort expressions by row field. Patient and order fields are the report row's own (issue 4). */
const SORTS: Record<TStudyListSortField, { by: SQL | AnyColumn; needs?: TNeeds }> = {
  id: { by: rs.id },
  createdAt: { by: rs.createdAt },
  patientName: { by: rs.patientName },
  patientId: { by: rs.patientId },
  uhid: { by: rs.uhid },
  patientSex: { by: rs.patientSex },
  patientAge: { by: rs.patientAge },
  studyDateTime: { by: sql`${studies.studyDate} || ${studies.studyTime}`, needs: { studies: true } },
  status: { by: rs.status },
  urgent: { by: rs.urgent },
  modality: { by: modalityText, needs: { studies: true } },
  studyName: { by: rs.studyName },
  radiologyCenter: { by: centers.name, needs: { centers: true } },
  institutionName: { by: studies.institutionName, needs: { studies: true } },
  referringPhysicianName: { by: rs.referringPhysicianName },
  accessionNumber: { by: rs.accessionNumber },
  department: { by: rs.department },
  email: { by: rs.email },
  mobileNumber: { by: rs.mobileNumber },
  invoiceNumber: { by: rs.invoiceNumber },
  assignedTo: { by: emailOf(rs.assignedToUserId) },
  auditor: { by: emailOf(rs.auditorUserId) },
  signedOffAt: { by: rs.signedOffAt },
  firstUploadCompletedAt: { by: rs.firstUploadCompletedAt },
  lastUploadCompletedAt: { by: rs.lastUploadCompletedAt },
};

/** `%text%` for LIKE, with the LIKE wildcards of the text taken literally. */
function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * Case-insensitive "contains": `lower(column) like lower(pattern)`, the match ILIKE makes (PostgreSQL
 * lowers both sides for ILIKE in a UTF-8 database) at about half its cost, since the pattern is
 * lowered once per statement instead of once per row tested. The patient-name trigram index is on
 * `lower(patient_name)` to match (DECISIONS.md "Throughput").
 */
const like = (column: SQL | AnyColumn, pattern: string) => sql`lower(${column}) like lower(${pattern})`;

/** Users of the group whose e-mail contains the text: `assignedTo`/`auditor` filters. */
const userIdsLike = (groupId: number, pattern: string) =>
  sql`select ${users.id} from ${users} where ${users.groupId} = ${groupId} and ${like(users.email, pattern)}`;

function filterCondition(
  field: TStudyListFilterField,
  text: string,
  groupId: number,
  viewerId: number,
): { where: SQL | undefined; needs?: TNeeds } {
  const pattern = containsPattern(text);
  switch (field) {
    case 'id':
      // Only a numeric id filters (spec-core §2: the id filter is used only when numeric).
      return { where: /^\d{1,9}$/.test(text) ? eq(rs.id, Number(text)) : undefined };
    case 'patientName':
      return { where: like(rs.patientName, pattern) };
    case 'patientId':
      return { where: like(rs.patientId, pattern) };
    case 'uhid':
      return { where: like(rs.uhid, pattern) };
    case 'patientSex':
      return { where: like(rs.patientSex, pattern) };
    case 'patientAge':
      return { where: like(rs.patientAge, pattern) };
    case 'studyName':
      return { where: like(rs.studyName, pattern) };
    case 'modality':
      return { where: like(modalityText, pattern), needs: { studies: true } };
    case 'reportStudyPart':
      return { where: like(sql`array_to_string(${rs.studyParts}, ',')`, pattern) };
    case 'radiologyCenter':
      return { where: like(centers.name, pattern), needs: { centers: true } };
    case 'centerEmail':
      return { where: like(centers.email, pattern), needs: { centers: true } };
    case 'institutionName':
      return { where: like(studies.institutionName, pattern), needs: { studies: true } };
    case 'status':
      return { where: like(rs.status, pattern) };
    case 'history':
      return { where: like(rs.history, pattern) };
    case 'referringPhysicianName':
      return { where: like(rs.referringPhysicianName, pattern) };
    case 'referringPhysicianEmail':
      return { where: like(rs.referringPhysicianEmail, pattern) };
    case 'accessionNumber':
      return { where: like(rs.accessionNumber, pattern) };
    case 'department':
      return { where: like(rs.department, pattern) };
    case 'email':
      return { where: like(rs.email, pattern) };
    case 'mobileNumber':
      return { where: like(rs.mobileNumber, pattern) };
    case 'invoiceNumber':
      return { where: like(rs.invoiceNumber, pattern) };
    case 'assignedTo':
      return { where: sql`${rs.assignedToUserId} in (${userIdsLike(groupId, pattern)})` };
    case 'auditor':
      return { where: sql`${rs.auditorUserId} in (${userIdsLike(groupId, pattern)})` };
    case 'tags':
      return {
        where: sql`exists (select 1 from ${reportTags} where ${reportTags.reportStatusId} = ${rs.id} and ${like(reportTags.tag, pattern)} and ${tagSeenBy({ userId: viewerId, groupId })})`,
      };
  }
}

export function whereOf(query: TStudyListQuery): { where: SQL | undefined; needs: TNeeds } {
  const needs: TNeeds = { ...SORTS[query.orderBy].needs };
  const conditions: Array<SQL | undefined> = [visibleReportRows(query.scope)];
  for (const [field, text] of Object.entries(query.filters) as Array<[TStudyListFilterField, string]>) {
    const filter = filterCondition(field, text, query.scope.groupId, query.viewerId);
    conditions.push(filter.where);
    Object.assign(needs, filter.needs);
  }
  if (query.statuses) conditions.push(inArray(rs.status, [...query.statuses]));
  if (query.hideDeleted) conditions.push(ne(rs.status, 'DELETED'));
  if (query.urgentOnly) conditions.push(eq(rs.urgent, true));
  if (query.assignment === 'assigned') conditions.push(sql`${rs.assignedToUserId} is not null`);
  if (query.assignment === 'unassigned') conditions.push(sql`${rs.assignedToUserId} is null`);
  if (query.assignedTo) {
    const { userIds, emails } = query.assignedTo;
    const byId =
      userIds.length > 0 ? sql`${rs.assignedToUserId} in (${sql.join([...userIds], sql`, `)})` : null;
    const byEmail =
      emails.length > 0
        ? sql`${rs.assignedToUserId} in (select ${users.id} from ${users} where ${users.groupId} = ${query.scope.groupId} and ${inArray(users.email, [...emails])})`
        : null;
    const parts = [byId, byEmail].filter((p): p is SQL => p !== null);
    conditions.push(parts.length > 0 ? sql`(${sql.join(parts, sql` or `)})` : sql`false`);
  }
  if (query.contextDoctorId !== null) {
    const doctor = query.contextDoctorId;
    conditions.push(sql`(${rs.assignedToUserId} = ${doctor} or ${rs.lockedByUserId} = ${doctor})`);
  }
  if (query.reprintNeeded) conditions.push(eq(rs.signedOffAfterPrint, true));
  if (query.createdFrom) conditions.push(gte(rs.createdAt, query.createdFrom));
  if (query.createdBefore) conditions.push(lt(rs.createdAt, query.createdBefore));
  return { where: and(...conditions), needs };
}

/** The joins an id or count query needs (an inner join on a not-null foreign key never drops a row). */
export function withJoins<T extends PgSelect>(query: T, needs: TNeeds): T {
  let q = query;
  if (needs.studies) q = q.innerJoin(studies, eq(studies.id, rs.studyId)) as unknown as T;
  if (needs.centers) q = q.innerJoin(centers, eq(centers.id, rs.centerId)) as unknown as T;
  return q;
}

/**
 * The sort expression. A date range sorted by id is sorted by `id + 0`: PostgreSQL otherwise walks
 * the primary key backwards hoping to meet 20 rows of the range soon, which for a month two years
 * back reads most of the table (1.6 s on 1,000,000 rows); `id + 0` makes it read the range from
 * (group_id, created_at, id) and sort it (about 25,000 index entries, no table access).
 */
export function sortExpression(query: TStudyListQuery): SQL | AnyColumn {
  const hasDateRange = query.createdFrom !== null || query.createdBefore !== null;
  if (query.orderBy === 'id' && hasDateRange) return sql`(${rs.id} + 0)`;
  return SORTS[query.orderBy].by;
}
