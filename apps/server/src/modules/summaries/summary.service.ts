import type { Readable } from 'node:stream';
import {
  AppError,
  STUDY_LIST_FILTER_FIELDS,
  STUDY_LIST_SORT_FIELDS,
  SUMMARY_DATE_TYPES,
  SUMMARY_ROLLING_WINDOWS_DAYS,
  SUMMARY_WINDOW_KEYS,
  type TAdvancedSummaryPage,
  advancedSummaryRefusal,
  calendarDayIn,
  rollingWindowDays,
  type TGroupFlags,
  type TResolvedColumn,
  type TStudyListFilterField,
  type TStudyListPage,
  type TStudyListRow,
  type TStudyListSortField,
  type TSummaryRequest,
  type TSummaryTextRow,
  type TSummaryTotals,
  buildShareUrl,
  canDownloadSummaryExcel,
  columnsHiddenBySettings,
  groupFlags,
  hasRole,
  isCenterUser,
  isGroupWide,
  resolveColumns,
  summaryCellText,
  summaryDateTypeOf,
  summaryPageRefusal,
  summaryRangeInstants,
  summaryRangeProblem,
  toPageResponse,
  csvLine,
} from '@radflow/core';
import type { Db } from '../../db/client.js';
import { withSerialPlans } from '../../db/serial-plans.js';
import type { TAuth } from '../../plugins/auth.js';
import { loadUserPreferences } from '../preferences/preferences.js';
import { scopeOfAuth } from '../studies/study-access.js';
import { toStudyDateTime } from '../worklist/list-studies.js';
import { findStudyListRows } from '../worklist/study-list.repository.js';
import {
  type TSummaryQuery,
  findSummaryAggregates,
  findSummaryIds,
  findSummaryTextRows,
  findSummaryTotals,
} from './summary.repository.js';
import { XlsxStreamWriter } from './xlsx-stream.js';

/**
 * The summary calls (spec-core §7 POST /report-summary/, /total-summary/, /report-summary/csv and
 * the screen's Excel download): the page switches first, then the request checked (400 naming the
 * field), then the rows the caller may see in the range. DECISIONS.md in this folder.
 */

interface TSummaryCaller {
  auth: TAuth;
  flags: TGroupFlags;
  /** The caller's saved summary columns (USER_TABLE_PREFERENCES, table key doctorSummary). */
  savedColumns: Parameters<typeof resolveColumns>[1];
}

/** The caller's switches and columns; 403 with the spec's message where a switch hides the page. */
async function summaryCaller(
  db: Db,
  auth: TAuth,
  refusalOf: (roles: TAuth['roles'], flags: TGroupFlags) => string | null = summaryPageRefusal,
): Promise<TSummaryCaller> {
  const prefs = await loadUserPreferences(db, {
    id: auth.user.id,
    groupId: auth.user.groupId,
    centerId: auth.user.centerId,
  });
  const flags = groupFlags(prefs);
  const refusal = refusalOf(auth.roles, flags);
  if (refusal) throw new AppError('FORBIDDEN', refusal);
  return { auth, flags, savedColumns: prefs.USER_TABLE_PREFERENCES.tableColumnSettings['doctorSummary'] };
}

function sortFieldOf(orderingCriteria: string): TStudyListSortField {
  const field = STUDY_LIST_SORT_FIELDS.find((f) => f === orderingCriteria);
  if (field) return field;
  throw new AppError(
    'BAD_REQUEST',
    `orderingCriteria must be one of ${STUDY_LIST_SORT_FIELDS.join(', ')}`,
    'orderingCriteria',
  );
}

function filtersOf(filters: Record<string, string>): Partial<Record<TStudyListFilterField, string>> {
  const known: Partial<Record<TStudyListFilterField, string>> = {};
  for (const field of STUDY_LIST_FILTER_FIELDS) {
    const text = filters[field]?.trim();
    if (text) known[field] = text;
  }
  return known;
}

/**
 * A doctor's summary is their own work (assigned to or locked by them), inside their access rule:
 * the pool of unassigned studies every doctor may open is nobody's summary. Group-wide callers
 * (admins, assignors) and center users see every row their rule gives.
 */
function ownWorkOf(caller: TSummaryCaller, groupWide: boolean): number | null {
  const { roles, user } = caller.auth;
  if (groupWide || isCenterUser(roles) || !hasRole(roles, 'ROLE_DOCTOR')) return null;
  return user.id;
}

/** The request as a query; bad input is a 400 naming its field (core summaryRangeProblem). */
function summaryQueryOf(caller: TSummaryCaller, request: TSummaryRequest): TSummaryQuery {
  const startDay = request.startTime?.trim() ?? '';
  const endDay = request.endTime?.trim() ?? '';
  const problem = summaryRangeProblem(startDay, endDay);
  if (problem) throw new AppError('BAD_REQUEST', problem.message, problem.field);
  const dateType = summaryDateTypeOf(request.summaryType);
  if (!dateType) {
    throw new AppError(
      'BAD_REQUEST',
      `summaryType must be one of ${SUMMARY_DATE_TYPES.join(', ')}`,
      'summaryType',
    );
  }
  const scope = scopeOfAuth(caller.auth);
  const { from, to } = summaryRangeInstants(startDay, endDay, caller.flags.displayTimeZone);
  return {
    list: {
      scope,
      viewerId: caller.auth.user.id,
      filters: filtersOf(request.filters),
      statuses: null,
      // The group's hide-deleted setting leaves DELETED rows out of every study list, this one too.
      hideDeleted: caller.flags.hideDeletedStudies,
      urgentOnly: false,
      assignment: null,
      assignedTo: null,
      contextDoctorId: ownWorkOf(caller, isGroupWide(scope)),
      reprintNeeded: false,
      createdFrom: null,
      createdBefore: null,
      orderBy: sortFieldOf(request.orderingCriteria),
      descending: request.sortOrder === 'DESC',
      offset: request.page * request.size,
      limit: request.size,
    },
    dateType,
    from,
    to,
    startDay,
    endDay,
  };
}

/** Whether the group's switches take the assigned-to column from this caller's summary (spec-lab §6). */
function assignedHidden(caller: TSummaryCaller): boolean {
  return columnsHiddenBySettings('doctorSummary', { roles: caller.auth.roles, flags: caller.flags }).has(
    'assigned',
  );
}

/** POST /report-summary/: one page of the caller's rows in the range, as the study lists write rows. */
export async function summaryPage(db: Db, auth: TAuth, request: TSummaryRequest): Promise<TStudyListPage> {
  const caller = await summaryCaller(db, auth);
  return pageOf(db, caller, summaryQueryOf(caller, request), request);
}

async function pageOf(
  db: Db,
  caller: TSummaryCaller,
  query: TSummaryQuery,
  request: TSummaryRequest,
): Promise<TStudyListPage> {
  const { auth } = caller;
  const [ids, totals] = await Promise.all([
    findSummaryIds(db, query, { offset: query.list.offset, limit: query.list.limit }),
    findSummaryTotals(db, query),
  ]);
  const rows = await findStudyListRows(db, { userId: auth.user.id, groupId: auth.user.groupId }, ids);
  const byId = new Map(rows.map((r) => [r.id, r]));
  // A column the switches hide is not sent either: the assigned doctor stays off the wire.
  const hideAssigned = assignedHidden(caller);
  const content = ids.flatMap((id) => {
    const found = byId.get(id);
    if (!found) return [];
    const row: Partial<TStudyListRow> & typeof found.row = found.row;
    row.studyDateTime = toStudyDateTime(found.studyDate, found.studyTime);
    if (hideAssigned) {
      row.assignedTo = null;
      row.assignedToName = null;
    }
    return [row as TStudyListRow];
  });
  return toPageResponse(content, totals.total, request.page, request.size);
}

/**
 * POST /query/report-summary (the Advanced Search Report Summary): the summary's page of the custom
 * range, and the aggregates by center and for the group over the custom range and the last 1, 7
 * and 30 days (core rollingWindowDays: calendar days of the display zone ending today). Off unless
 * enableElasticReportSummary (core advancedSummaryRefusal). Plain SQL aggregates over our own
 * tables: the spec's search index is not a separate engine here (DECISIONS.md).
 */
export async function advancedSummary(
  db: Db,
  auth: TAuth,
  request: TSummaryRequest,
  /** The app's clock (ctx.now()): the rolling windows are days of its today, never the machine's. */
  now: Date,
): Promise<TAdvancedSummaryPage> {
  const caller = await summaryCaller(db, auth, advancedSummaryRefusal);
  const query = summaryQueryOf(caller, request);
  const zone = caller.flags.displayTimeZone;
  const today = calendarDayIn(now, zone);
  const rolling = SUMMARY_ROLLING_WINDOWS_DAYS.map((days) => {
    const { startTime, endTime } = rollingWindowDays(today, days);
    return { startDay: startTime, endDay: endTime, ...summaryRangeInstants(startTime, endTime, zone) };
  });
  const windows = [query, ...rolling];
  // Serial plans: the doctor's 180 days took 437 ms p95 with parallel workers at 1,000,000
  // studies, 273 without (db/serial-plans.ts).
  const [page, aggregates] = await Promise.all([
    withSerialPlans(db, (tx) => pageOf(tx, caller, query, request)),
    withSerialPlans(db, (tx) => findSummaryAggregates(tx, query, windows)),
  ]);
  return {
    ...page,
    aggregations: windows.map((w, i) => ({
      key: SUMMARY_WINDOW_KEYS[i] ?? 'CUSTOM',
      startTime: w.startDay,
      endTime: w.endDay,
      group: aggregates[i]!.group,
      centers: aggregates[i]!.centers,
    })),
  };
}

/** POST /total-summary/: the totals of the same filter. */
export async function summaryTotals(db: Db, auth: TAuth, request: TSummaryRequest): Promise<TSummaryTotals> {
  const caller = await summaryCaller(db, auth);
  return findSummaryTotals(db, summaryQueryOf(caller, request));
}

/** Rows fetched per statement while a file is written. */
const FILE_BATCH = 1000;

export interface TSummaryFile {
  fileName: string;
  contentType: string;
  body: Readable;
}

/**
 * What a download writes: the caller's visible summary columns (their saved choice, the switches'
 * hides), every row of the range in the request's order, and the totals. 403 where the switch
 * refuses an assignor the download. The ids and totals are read before the answer starts, so a bad
 * request is still a 4xx; then the rows follow in batches while the file is written.
 */
async function prepareFile(db: Db, auth: TAuth, request: TSummaryRequest) {
  const caller = await summaryCaller(db, auth);
  if (!canDownloadSummaryExcel(auth.roles, caller.flags)) {
    throw new AppError(
      'FORBIDDEN',
      'You are not allowed to download the summary',
      'disableExcelDownloadForAssignor',
    );
  }
  const query = summaryQueryOf(caller, request);
  const columns = resolveColumns('doctorSummary', caller.savedColumns, {
    roles: auth.roles,
    flags: caller.flags,
  }).filter((c) => c.visible);
  const [ids, totals] = await Promise.all([
    findSummaryIds(db, query, { offset: 0, limit: 0 }),
    findSummaryTotals(db, query),
  ]);
  return { caller, query, columns, ids, totals };
}

async function* rowsInOrder(db: Db, ids: readonly number[]): AsyncGenerator<TSummaryTextRow> {
  for (let i = 0; i < ids.length; i += FILE_BATCH) {
    const batch = ids.slice(i, i + FILE_BATCH);
    const byId = new Map((await findSummaryTextRows(db, batch)).map((r) => [r.id, r]));
    for (const id of batch) {
      const row = byId.get(id);
      if (row) yield row;
    }
  }
}

function cellsOf(
  columns: readonly TResolvedColumn[],
  row: TSummaryTextRow,
  timeZone: string,
  publicUrl: string,
): Array<string | number> {
  return columns.map((c) => {
    if (c.colName === 'id') return row.id;
    if (c.colName === 'share') return row.shareLink ? buildShareUrl(publicUrl, row.shareLink) : '';
    return summaryCellText(c.colName, row, timeZone);
  });
}

/** The totals row of a file: labels and numbers side by side. */
const totalsCells = (totals: TSummaryTotals) => [
  'Total',
  totals.total,
  'Signed off',
  totals.signedOff,
  'Pending',
  totals.pending,
  'Deleted',
  totals.deleted,
];

const fileNameOf = (query: TSummaryQuery, extension: string) =>
  `report-summary-${query.startDay}-to-${query.endDay}.${extension}`;

/** 'Download Excel': a streamed .xlsx of the summary (xlsx-stream.ts). */
export async function summaryExcel(
  db: Db,
  auth: TAuth,
  request: TSummaryRequest,
  publicUrl: string,
  onError: (error: unknown) => void,
): Promise<TSummaryFile> {
  const { caller, query, columns, ids, totals } = await prepareFile(db, auth, request);
  const zone = caller.flags.displayTimeZone;
  const writer = new XlsxStreamWriter('Report summary');
  const write = async () => {
    await writer.start();
    await writer.addRow(
      columns.map((c) => c.label),
      { bold: true },
    );
    for await (const row of rowsInOrder(db, ids)) await writer.addRow(cellsOf(columns, row, zone, publicUrl));
    await writer.addRow(totalsCells(totals), { bold: true });
    await writer.finish();
  };
  write().catch((error: unknown) => {
    onError(error);
    writer.fail(error instanceof Error ? error : new Error(String(error)));
  });
  return {
    fileName: fileNameOf(query, 'xlsx'),
    contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    body: writer.stream,
  };
}

/** POST /report-summary/csv: the same file as text (UTF-8 with a byte order mark, so Excel reads it). */
export async function summaryCsv(
  db: Db,
  auth: TAuth,
  request: TSummaryRequest,
  publicUrl: string,
): Promise<TSummaryFile> {
  const { caller, query, columns, ids, totals } = await prepareFile(db, auth, request);
  const zone = caller.flags.displayTimeZone;
  async function* lines() {
    yield `\uFEFF${csvLine(columns.map((c) => c.label))}`;
    for await (const row of rowsInOrder(db, ids)) yield csvLine(cellsOf(columns, row, zone, publicUrl));
    yield csvLine(totalsCells(totals));
  }
  const { Readable } = await import('node:stream');
  return {
    fileName: fileNameOf(query, 'csv'),
    contentType: 'text/csv; charset=utf-8',
    body: Readable.from(lines()),
  };
}
