import { type SQL, and, asc, count, desc, eq, gte, ilike, inArray, lt, sql } from 'drizzle-orm';
import type { TReportStatus, TStudyScope } from '@radflow/core';
import type { Db } from '../../db/client.js';
import { centers, reportStatuses, studies } from '../../db/schema.js';
import { visibleStudies } from '../dicomweb-retrieve/study-access.js';

/** The conditions of one list query, already parsed and checked (see list-studies.ts). */
export interface TStudyListQuery {
  scope: TStudyScope;
  /** Per-column filter text, keyed by row field; empty values were dropped. */
  filters: Partial<Record<TFilterColumn, string>>;
  statuses: readonly TReportStatus[] | null;
  urgentOnly: boolean;
  createdFrom: Date | null;
  /** Exclusive. */
  createdBefore: Date | null;
  orderBy: TSortColumn;
  descending: boolean;
  offset: number;
  limit: number;
}

const modalityText = sql<string>`array_to_string(${studies.modalities}, ',')`;
/** The row's study name: the one set on the study, else the DICOM study description. */
const studyNameText = sql<string>`coalesce(nullif(${reportStatuses.studyName}, ''), ${studies.studyDescription})`;

/** The columns a list may be sorted by (orderingCriteria), by row field name. */
export const SORT_COLUMNS = {
  id: [reportStatuses.id],
  createdAt: [reportStatuses.createdAt],
  patientName: [studies.patientName],
  patientId: [studies.patientId],
  studyDateTime: [studies.studyDate, studies.studyTime],
  status: [reportStatuses.status],
  urgent: [reportStatuses.urgent],
  modality: [modalityText],
  studyName: [studyNameText],
  radiologyCenter: [centers.name],
  institutionName: [studies.institutionName],
  firstUploadCompletedAt: [reportStatuses.firstUploadCompletedAt],
  lastUploadCompletedAt: [reportStatuses.lastUploadCompletedAt],
} as const;
export type TSortColumn = keyof typeof SORT_COLUMNS;

/** The columns a list may be filtered by (the `filters` map), by row field name. */
export const FILTER_COLUMNS = [
  'id',
  'patientName',
  'patientId',
  'modality',
  'studyName',
  'radiologyCenter',
  'status',
  'institutionName',
  'referringPhysicianName',
  'accessionNumber',
  'uhid',
] as const;
export type TFilterColumn = (typeof FILTER_COLUMNS)[number];

/** `%text%` for ILIKE, with the LIKE wildcards of the text taken literally. */
function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

function filterCondition(column: TFilterColumn, text: string): SQL | undefined {
  const pattern = containsPattern(text);
  switch (column) {
    case 'id':
      // Only a numeric id filters (spec-core §2: the id filter is used only when numeric).
      return /^\d{1,9}$/.test(text) ? eq(reportStatuses.id, Number(text)) : undefined;
    case 'patientName':
      return ilike(studies.patientName, pattern);
    case 'patientId':
      return ilike(studies.patientId, pattern);
    case 'modality':
      return sql`${modalityText} ilike ${pattern}`;
    case 'studyName':
      return sql`${studyNameText} ilike ${pattern}`;
    case 'radiologyCenter':
      return ilike(centers.name, pattern);
    case 'status':
      return ilike(reportStatuses.status, pattern);
    case 'institutionName':
      return ilike(studies.institutionName, pattern);
    case 'referringPhysicianName':
      return ilike(studies.referringPhysicianName, pattern);
    case 'accessionNumber':
      return ilike(studies.accessionNumber, pattern);
    case 'uhid':
      return ilike(reportStatuses.uhid, pattern);
  }
}

function whereOf(query: TStudyListQuery): SQL | undefined {
  const conditions: Array<SQL | undefined> = [visibleStudies(query.scope)];
  for (const column of FILTER_COLUMNS) {
    const text = query.filters[column];
    if (text !== undefined) conditions.push(filterCondition(column, text));
  }
  if (query.statuses) conditions.push(inArray(reportStatuses.status, [...query.statuses]));
  if (query.urgentOnly) conditions.push(eq(reportStatuses.urgent, true));
  if (query.createdFrom) conditions.push(gte(reportStatuses.createdAt, query.createdFrom));
  if (query.createdBefore) conditions.push(lt(reportStatuses.createdAt, query.createdBefore));
  return and(...conditions);
}

/**
 * One page of report-status rows with their study and center, and the total, under the caller's
 * access condition: the condition is in the WHERE of both queries, so neither the rows nor the count
 * can show what the caller may not see.
 */
export async function findStudyListPage(db: Db, query: TStudyListQuery) {
  const where = whereOf(query);
  const direction = query.descending ? desc : asc;
  const order = [...SORT_COLUMNS[query.orderBy].map((c) => direction(c)), direction(reportStatuses.id)];
  const rows = await db
    .select({
      id: reportStatuses.id,
      instanceId: studies.studyInstanceUid,
      apiVersion: reportStatuses.apiVersion,
      status: reportStatuses.status,
      urgent: reportStatuses.urgent,
      patientName: studies.patientName,
      patientId: studies.patientId,
      patientSex: studies.patientSex,
      patientAge: studies.patientAge,
      studyName: studyNameText,
      modalities: studies.modalities,
      seriesCount: studies.seriesCount,
      instanceCount: studies.instanceCount,
      studyDate: studies.studyDate,
      studyTime: studies.studyTime,
      institutionName: studies.institutionName,
      referringPhysicianName: studies.referringPhysicianName,
      accessionNumber: studies.accessionNumber,
      radiologyCenter: centers.name,
      centerEmail: centers.email,
      uhid: reportStatuses.uhid,
      history: reportStatuses.history,
      splitFromReportStatusId: reportStatuses.splitFromReportStatusId,
      createdAt: reportStatuses.createdAt,
      firstUploadCompletedAt: reportStatuses.firstUploadCompletedAt,
      lastUploadCompletedAt: reportStatuses.lastUploadCompletedAt,
    })
    .from(reportStatuses)
    .innerJoin(studies, eq(studies.id, reportStatuses.studyId))
    .innerJoin(centers, eq(centers.id, reportStatuses.centerId))
    .where(where)
    .orderBy(...order)
    .limit(query.limit)
    .offset(query.offset);
  const [total] = await db
    .select({ n: count() })
    .from(reportStatuses)
    .innerJoin(studies, eq(studies.id, reportStatuses.studyId))
    .innerJoin(centers, eq(centers.id, reportStatuses.centerId))
    .where(where);
  return { rows, total: total?.n ?? 0 };
}
export type TStudyListDbRow = Awaited<ReturnType<typeof findStudyListPage>>['rows'][number];
