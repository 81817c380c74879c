import {
  AppError,
  OPEN_STATUSES,
  type TReportStatus,
  type TReportStatusListRequest,
  type TStudyListPage,
  type TStudyListRequest,
  type TStudyListRow,
  toPageResponse,
} from '@radflow/core';
import type { Db } from '../../db/client.js';
import type { TAuth } from '../../plugins/auth.js';
import { scopeOfAuth } from '../dicomweb-retrieve/study-access.js';
import {
  FILTER_COLUMNS,
  SORT_COLUMNS,
  type TFilterColumn,
  type TSortColumn,
  type TStudyListDbRow,
  type TStudyListQuery,
  findStudyListPage,
} from './study-list.repository.js';

type TListRequest = TStudyListRequest | TReportStatusListRequest;

/**
 * Both list calls (spec-core §7 Lists): the caller's rows under their access condition, filtered,
 * sorted and paged. See DECISIONS.md in this folder for what the spec leaves open.
 */
export async function listStudies(db: Db, auth: TAuth, request: TListRequest): Promise<TStudyListPage> {
  const query: TStudyListQuery = {
    scope: scopeOfAuth(auth),
    filters: filtersOf(request.filters),
    statuses: statusesOf(request),
    urgentOnly: request.showUrgent === true,
    createdFrom: parseDateBound('startTime', request.startTime, false),
    createdBefore: parseDateBound('endTime', request.endTime, true),
    orderBy: sortColumnOf(request.orderingCriteria),
    descending: request.sortOrder === 'DESC',
    offset: request.page * request.size,
    limit: request.size,
  };
  const { rows, total } = await findStudyListPage(db, query);
  return toPageResponse(rows.map(toStudyListRow), total, request.page, request.size);
}

/** The tab's statuses; showPending (the list call only) narrows to the open statuses. */
function statusesOf(request: TListRequest): readonly TReportStatus[] | null {
  const statuses = request.statuses ?? null;
  if (!('showPending' in request) || request.showPending !== true) return statuses;
  const open: readonly TReportStatus[] = OPEN_STATUSES;
  return statuses ? statuses.filter((s) => open.includes(s)) : open;
}

/** Known columns with non-blank text; unknown keys are ignored (a table may send every column it shows). */
function filtersOf(filters: Record<string, string>): TStudyListQuery['filters'] {
  const known: Partial<Record<TFilterColumn, string>> = {};
  for (const column of FILTER_COLUMNS) {
    const text = filters[column]?.trim();
    if (text) known[column] = text;
  }
  return known;
}

function sortColumnOf(orderingCriteria: string): TSortColumn {
  if (Object.hasOwn(SORT_COLUMNS, orderingCriteria)) return orderingCriteria as TSortColumn;
  throw new AppError(
    'BAD_REQUEST',
    `orderingCriteria must be one of ${Object.keys(SORT_COLUMNS).join(', ')}`,
    'orderingCriteria',
  );
}

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * A date range bound: 'yyyy-MM-dd' is a whole UTC day (startTime its start, endTime the start of the
 * next day, exclusive); an ISO date-time is taken as the instant it names. Anything else is a 400
 * naming the field.
 */
export function parseDateBound(
  field: 'startTime' | 'endTime',
  value: string | null | undefined,
  isEnd: boolean,
): Date | null {
  if (value === null || value === undefined || value.trim() === '') return null;
  const text = value.trim();
  const isDateOnly = DATE_ONLY.test(text);
  const parsed = isDateOnly
    ? new Date(`${text}T00:00:00.000Z`)
    : /^\d{4}-\d{2}-\d{2}T/.test(text)
      ? new Date(text)
      : new Date(Number.NaN);
  if (Number.isNaN(parsed.getTime()) || (isDateOnly && parsed.toISOString().slice(0, 10) !== text)) {
    throw new AppError('BAD_REQUEST', `${field} is not a date (yyyy-MM-dd or ISO 8601)`, field);
  }
  return isDateOnly && isEnd ? new Date(parsed.getTime() + DAY_MS) : parsed;
}

/** DICOM DA (YYYYMMDD) and TM (HHMMSS.FFFFFF, parts optional) as 'yyyy-MM-dd HH:mm:ss'; null without a date. */
export function toStudyDateTime(studyDate: string, studyTime: string): string | null {
  const date = /^(\d{4})(\d{2})(\d{2})$/.exec(studyDate.trim());
  if (!date) return null;
  const digits = studyTime.trim().split('.')[0] ?? '';
  const time = /^\d{2,6}$/.test(digits) ? digits.padEnd(6, '0') : '000000';
  return `${date[1]}-${date[2]}-${date[3]} ${time.slice(0, 2)}:${time.slice(2, 4)}:${time.slice(4, 6)}`;
}

function toStudyListRow(row: TStudyListDbRow): TStudyListRow {
  const { modalities, seriesCount, instanceCount, studyDate, studyTime, ...rest } = row;
  return {
    ...rest,
    // No assignment column yet (issue 4 §2 adds assignment).
    assignedTo: null,
    modality: modalities.join(','),
    count: { series: seriesCount, images: instanceCount },
    studyDateTime: toStudyDateTime(studyDate, studyTime),
    createdAt: row.createdAt.toISOString(),
    firstUploadCompletedAt: row.firstUploadCompletedAt?.toISOString() ?? null,
    lastUploadCompletedAt: row.lastUploadCompletedAt?.toISOString() ?? null,
    // Tags arrive with the tag actions (issue 4 §2).
    tags: [],
  };
}
