import { Readable } from 'node:stream';
import type { Content, TDocumentDefinitions } from 'pdfmake/interfaces.js';
import type { ZLabAmuSummaryRequest, ZLabSummaryRequest } from '@radflow/core';
import {
  AppError,
  LAB_DOCUMENT_MESSAGES as M,
  LAB_SUMMARY_SORT_LABELS,
  type TGroupFlags,
  type TLabSummaryPage,
  type TLabSummaryRow,
  type TLabUser,
  billTestLabel,
  canSuperviseLab,
  csvLine,
  formatDisplayTime,
  formatRupees,
  summaryRangeInstants,
  summaryRangeProblem,
  toPageResponse,
  toRupees,
} from '@radflow/core';
import type { z } from 'zod';
import type { AppContext } from '../../context.js';
import type { TAuth } from '../../plugins/auth.js';
import { renderPdfDefinition } from '../report-documents/pdf-document.js';
import { XlsxStreamWriter } from '../summaries/xlsx-stream.js';
import { BASE_STYLES, letterheadBlock, lineAmountMinor } from './bill-pdf.js';
import { loadLabFlags, loadLabLetterhead } from './lab-document-data.js';
import {
  type TLabSummaryQuery,
  type TSummaryBillRow,
  type TSummaryLineRow,
  type TSummaryTransactionRow,
  findCollectionByMethod,
  findCollectionByModality,
  findCreatorEmails,
  findLabUsers,
  findLinesOf,
  findSummaryBills,
  findSummaryTotals,
  findTransactionsOf,
} from './lab-summary.repository.js';

/*
 * The lab summary (spec-lab §2 /lab/summary, §6, §7): the screen's page, the receptionist list and
 * the four downloads. Who sees what: a supervisor every bill of the lab (or one receptionist's); a
 * receptionist only the bills they created, whatever they send. DECISIONS.md.
 */

type TSummaryBody = z.output<typeof ZLabSummaryRequest>;
type TAmuBody = z.output<typeof ZLabAmuSummaryRequest>;

export interface TLabFile {
  fileName: string;
  contentType: string;
  body: Readable | Uint8Array;
}

interface TPrepared {
  flags: TGroupFlags;
  query: TLabSummaryQuery;
  range: { startDay: string; endDay: string };
}

/** The caller's switches and the checked query; 400 'Please select date' (naming the day) without both days. */
async function prepare(
  ctx: AppContext,
  auth: TAuth,
  body: Pick<TSummaryBody, 'startTime' | 'endTime'> & Partial<TSummaryBody>,
): Promise<TPrepared> {
  const problem = summaryRangeProblem(body.startTime, body.endTime);
  if (problem) throw new AppError('BAD_REQUEST', problem.message, problem.field);
  const startDay = body.startTime as string;
  const endDay = body.endTime as string;
  const flags = await loadLabFlags(ctx.db, auth);
  const { from, to } = summaryRangeInstants(startDay, endDay, flags.displayTimeZone);
  const supervisor = canSuperviseLab(auth.roles);
  const wanted = body.receptionistName?.trim() ?? '';
  const creators = !supervisor
    ? [auth.user.email]
    : wanted === ''
      ? null
      : await findCreatorEmails(ctx.db, auth, wanted);
  return {
    flags,
    range: { startDay, endDay },
    query: {
      from,
      to,
      scheduled: body.scheduled ?? false,
      creators,
      sort: body.sortType ?? 'DATE_CREATED_AT',
      order: body.sortOrder ?? 'DESC',
    },
  };
}

function requireSupervisor(auth: TAuth): void {
  if (!canSuperviseLab(auth.roles)) throw new AppError('FORBIDDEN', M.supervisorOnly);
}

function rowOf(
  bill: TSummaryBillRow,
  lines: TSummaryLineRow[],
  transactions: TSummaryTransactionRow[],
): TLabSummaryRow {
  return {
    id: bill.id,
    invoiceNumber: bill.invoiceNumber,
    status: bill.status,
    billDate: bill.billDate.toISOString(),
    createdAt: bill.createdAt.toISOString(),
    patientName: bill.patientName,
    uhidNumber: bill.uhidNumber,
    receptionistEmail: bill.receptionistEmail,
    receptionistName: bill.receptionistName,
    tests: lines.map((l) =>
      billTestLabel({
        labModality: l.labModality,
        testCode: l.testCode,
        testName: l.testName,
        price: toRupees(lineAmountMinor(l)),
      }),
    ),
    totalAmount: toRupees(bill.totalMinor),
    discountAmount: toRupees(bill.discountMinor),
    finalAmount: toRupees(bill.finalMinor),
    advancePaid: toRupees(bill.advancePaidMinor),
    dueAmount: toRupees(bill.dueMinor),
    labTransactions: transactions.map((t) => ({
      paymentMethod: t.paymentMethod,
      transactionId: t.transactionId,
      amount: toRupees(t.amountMinor),
      recordedBy: t.recordedBy,
      recordedByName: t.recordedByName,
      recordedAt: t.recordedAt.toISOString(),
    })),
  };
}

function byBill<T extends { billId: number }>(rows: T[]): Map<number, T[]> {
  const map = new Map<number, T[]>();
  for (const row of rows) {
    const list = map.get(row.billId);
    if (list) list.push(row);
    else map.set(row.billId, [row]);
  }
  return map;
}

/** Bills with their lines and payments, in the query's order; `page` null = every bill of the range. */
async function summaryRows(
  ctx: AppContext,
  auth: TAuth,
  query: TLabSummaryQuery,
  page: { limit: number; offset: number } | null,
): Promise<TLabSummaryRow[]> {
  const bills = await findSummaryBills(ctx.db, auth, query, page);
  const rows: TLabSummaryRow[] = [];
  // Lines and payments of 1000 bills at a time: one round trip each, bounded parameter lists.
  for (let i = 0; i < bills.length; i += 1000) {
    const chunk = bills.slice(i, i + 1000);
    const ids = chunk.map((b) => b.id);
    const lines = byBill(await findLinesOf(ctx.db, ids));
    const payments = byBill(await findTransactionsOf(ctx.db, ids));
    for (const bill of chunk) rows.push(rowOf(bill, lines.get(bill.id) ?? [], payments.get(bill.id) ?? []));
  }
  return rows;
}

/** POST /api/lab/summary/search. */
export async function labSummarySearch(
  ctx: AppContext,
  auth: TAuth,
  body: TSummaryBody,
): Promise<TLabSummaryPage> {
  const { query } = await prepare(ctx, auth, body);
  const totals = await findSummaryTotals(ctx.db, auth, query);
  const content =
    totals.count === 0
      ? []
      : await summaryRows(ctx, auth, query, { limit: body.size, offset: body.page * body.size });
  return {
    ...toPageResponse(content, totals.count, body.page, body.size),
    totals: {
      bills: totals.bills,
      totalAmount: toRupees(totals.totalMinor),
      discountAmount: toRupees(totals.discountMinor),
      finalAmount: toRupees(totals.finalMinor),
      advancePaid: toRupees(totals.advancePaidMinor),
      dueAmount: toRupees(totals.dueMinor),
    },
  };
}

/** GET /api/lab/get-lab-users: supervisors only (spec-lab §6). */
export async function labUsers(ctx: AppContext, auth: TAuth): Promise<TLabUser[]> {
  requireSupervisor(auth);
  return findLabUsers(ctx.db, auth);
}

const paymentsText = (row: TLabSummaryRow, zone: string) =>
  row.labTransactions
    .map(
      (t) =>
        `${t.paymentMethod} ${t.amount.toFixed(2)}${t.transactionId ? ` (${t.transactionId})` : ''} by ${t.recordedByName} at ${formatDisplayTime(t.recordedAt, zone)}`,
    )
    .join('; ');

const SUMMARY_HEADER = [
  'Invoice No.',
  'Bill Date',
  'Created At',
  'Status',
  'Patient',
  'UHID',
  'Receptionist',
  'Tests',
  'Total',
  'Discount',
  'Net Payable',
  'Advance Paid',
  'Due',
  'Payments',
];

function summaryCells(row: TLabSummaryRow, zone: string): Array<string | number> {
  return [
    row.invoiceNumber,
    formatDisplayTime(row.billDate, zone),
    formatDisplayTime(row.createdAt, zone),
    row.status,
    row.patientName,
    row.uhidNumber,
    row.receptionistName,
    row.tests.join('; '),
    row.totalAmount,
    row.discountAmount,
    row.finalAmount,
    row.advancePaid,
    row.dueAmount,
    paymentsText(row, zone),
  ];
}

const fileName = (kind: string, range: TPrepared['range'], ext: string) =>
  `lab-${kind}-${range.startDay}-to-${range.endDay}.${ext}`;

/** POST /api/lab/summary/csv: every bill of the range as the screen shows it, then the totals. */
export async function labSummaryCsv(ctx: AppContext, auth: TAuth, body: TSummaryBody): Promise<TLabFile> {
  const { query, flags, range } = await prepare(ctx, auth, body);
  const zone = flags.displayTimeZone;
  const rows = await summaryRows(ctx, auth, query, null);
  const totals = await findSummaryTotals(ctx.db, auth, query);
  async function* lines() {
    yield `\uFEFF${csvLine(SUMMARY_HEADER)}`;
    for (const row of rows) yield csvLine(summaryCells(row, zone));
    yield csvLine([
      `Total of ${totals.bills} bills (cancelled excluded)`,
      '',
      '',
      '',
      '',
      '',
      '',
      '',
      toRupees(totals.totalMinor),
      toRupees(totals.discountMinor),
      toRupees(totals.finalMinor),
      toRupees(totals.advancePaidMinor),
      toRupees(totals.dueMinor),
      '',
    ]);
  }
  return {
    fileName: fileName('summary', range, 'csv'),
    contentType: 'text/csv; charset=utf-8',
    body: Readable.from(lines()),
  };
}

/** POST /api/lab/summary/tests/csv: 'Downloading tests excel' — a real .xlsx, one row per test line. */
export async function labTestsExcel(
  ctx: AppContext,
  auth: TAuth,
  body: TSummaryBody,
  onError: (error: unknown) => void,
): Promise<TLabFile> {
  requireSupervisor(auth);
  const { query, flags, range } = await prepare(ctx, auth, body);
  const zone = flags.displayTimeZone;
  const bills = await findSummaryBills(ctx.db, auth, query, null);
  const writer = new XlsxStreamWriter('Lab tests');
  const write = async () => {
    await writer.start();
    await writer.addRow(
      [
        'Invoice No.',
        'Bill Date',
        'Status',
        'Patient',
        'UHID',
        'Receptionist',
        'Test Code',
        'Test Name',
        'Modality',
        'Department',
        'Quantity',
        'Price',
        'Refund',
        'Amount',
        'Settlement',
        'Appointment',
      ],
      { bold: true },
    );
    for (let i = 0; i < bills.length; i += 1000) {
      const chunk = bills.slice(i, i + 1000);
      const lines = byBill(
        await findLinesOf(
          ctx.db,
          chunk.map((b) => b.id),
        ),
      );
      for (const bill of chunk) {
        for (const l of lines.get(bill.id) ?? []) {
          await writer.addRow([
            bill.invoiceNumber,
            formatDisplayTime(bill.billDate, zone),
            bill.status,
            bill.patientName,
            bill.uhidNumber,
            bill.receptionistName,
            l.testCode,
            l.testName,
            l.labModality,
            l.department,
            l.quantity,
            toRupees(l.originalPriceMinor),
            toRupees(l.refundMinor),
            toRupees(lineAmountMinor(l)),
            l.settlementStatus,
            l.startTimeOfAppointment
              ? `${l.appointmentName ?? ''} ${formatDisplayTime(l.startTimeOfAppointment, zone)}`.trim()
              : '',
          ]);
        }
      }
    }
    await writer.finish();
  };
  write().catch((error: unknown) => {
    onError(error);
    writer.fail(error instanceof Error ? error : new Error(String(error)));
  });
  return {
    fileName: fileName('tests', range, 'xlsx'),
    contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    body: writer.stream,
  };
}

/** A summary PDF prints at most this many bills (pdfmake lays a table out in one thread); the CSV has all. */
export const SUMMARY_PDF_MAX_ROWS = 2000;

function totalsTable(totals: Awaited<ReturnType<typeof findSummaryTotals>>): Content {
  const rows: Array<[string, string]> = [
    ['Bills (cancelled excluded)', String(totals.bills)],
    ['Total Amount', formatRupees(totals.totalMinor)],
    ['Discount', formatRupees(totals.discountMinor)],
    ['Net Payable', formatRupees(totals.finalMinor)],
    ['Advance Paid', formatRupees(totals.advancePaidMinor)],
    ['Due', formatRupees(totals.dueMinor)],
  ];
  return {
    table: {
      body: rows.map(([k, v]) => [
        { text: k, style: 'label' },
        { text: v, alignment: 'right' },
      ]),
    },
    layout: 'lightHorizontalLines',
    fontSize: 9,
  };
}

function pdfShell(
  title: string,
  content: Content[],
  orientation: 'portrait' | 'landscape',
): TDocumentDefinitions {
  return {
    pageSize: 'A4',
    pageOrientation: orientation,
    pageMargins: [30, 30, 30, 36],
    info: { title, creator: 'Radflow' },
    defaultStyle: { font: 'Roboto', fontSize: 8, lineHeight: 1.1 },
    footer: (currentPage: number, pageCount: number) =>
      ({
        text: `Page ${currentPage} of ${pageCount}`,
        alignment: 'right',
        style: 'small',
        margin: [30, 8, 30, 0],
      }) as Content,
    content,
    styles: BASE_STYLES,
  };
}

/** POST /api/lab/summary/pdf (under enableSummaryPdfRIS): the screen's table and totals. */
export async function labSummaryPdf(ctx: AppContext, auth: TAuth, body: TSummaryBody): Promise<TLabFile> {
  const { query, flags, range } = await prepare(ctx, auth, body);
  if (!flags.enableSummaryPdfRIS) throw new AppError('FORBIDDEN', M.summaryPdfOff);
  const zone = flags.displayTimeZone;
  const totals = await findSummaryTotals(ctx.db, auth, query);
  const rows = await summaryRows(ctx, auth, query, { limit: SUMMARY_PDF_MAX_ROWS, offset: 0 });
  const letterhead = await loadLabLetterhead(ctx, auth);
  const images: Record<string, string> = {};
  const who = !canSuperviseLab(auth.roles)
    ? auth.user.identifier
    : (body.receptionistName?.trim() ?? '') || M.allReceptionists;
  const content: Content[] = [
    letterheadBlock(letterhead, images),
    { text: 'LAB SUMMARY', style: 'title' },
    {
      text: `${range.startDay} to ${range.endDay} · ${who} · ${query.scheduled ? 'Scheduled' : 'Bills'} · sorted by ${LAB_SUMMARY_SORT_LABELS[query.sort]}`,
      alignment: 'center',
      margin: [0, 0, 0, 8],
    },
    {
      table: {
        headerRows: 1,
        widths: [
          'auto',
          'auto',
          'auto',
          '*',
          'auto',
          'auto',
          '*',
          'auto',
          'auto',
          'auto',
          'auto',
          'auto',
          '*',
        ],
        body: [
          [
            'Invoice',
            'Bill date',
            'Status',
            'Patient',
            'UHID',
            'Receptionist',
            'Tests',
            'Total',
            'Discount',
            'Net',
            'Paid',
            'Due',
            'Payments',
          ].map((h) => ({ text: h, style: 'th' })),
          ...rows.map((r) => [
            { text: r.invoiceNumber, noWrap: true },
            formatDisplayTime(r.billDate, zone, { label: false }).slice(0, 16),
            r.status,
            r.patientName,
            { text: r.uhidNumber, noWrap: true },
            r.receptionistName,
            r.tests.join('\n'),
            r.totalAmount.toFixed(2),
            r.discountAmount.toFixed(2),
            r.finalAmount.toFixed(2),
            r.advancePaid.toFixed(2),
            r.dueAmount.toFixed(2),
            r.labTransactions
              .map((t) => `${t.paymentMethod} ${t.amount.toFixed(2)} (${t.recordedByName})`)
              .join('\n'),
          ]),
        ],
      },
      layout: 'lightHorizontalLines',
    },
  ];
  if (totals.count > rows.length)
    content.push({
      text: `The first ${rows.length} of ${totals.count} bills; the CSV holds all of them.`,
      margin: [0, 6, 0, 0],
    });
  content.push({ stack: [totalsTable(totals)], margin: [0, 10, 0, 0] });
  const doc = pdfShell('Lab summary', content, 'landscape');
  doc.images = images;
  return {
    fileName: fileName('summary', range, 'pdf'),
    contentType: 'application/pdf',
    body: await renderPdfDefinition(doc),
  };
}

/**
 * POST /api/lab/summary/amu-summary-pdf (supervisor, under amuSpecialCustomization): the day-end
 * collection summary of the range — the tests done by modality with their gross, refunds and net,
 * the money taken by payment method, and the bills' totals. Cancelled bills and cancelled lines
 * are left out; every receptionist's bills count. DECISIONS.md.
 */
export async function labAmuSummaryPdf(ctx: AppContext, auth: TAuth, body: TAmuBody): Promise<TLabFile> {
  requireSupervisor(auth);
  const { query, flags, range } = await prepare(ctx, auth, body);
  if (!flags.amuSpecialCustomization) throw new AppError('FORBIDDEN', M.amuOff);
  const all = { ...query, scheduled: false };
  const [byModality, byMethod, totals, letterhead] = [
    await findCollectionByModality(ctx.db, auth, all),
    await findCollectionByMethod(ctx.db, auth, all),
    await findSummaryTotals(ctx.db, auth, all),
    await loadLabLetterhead(ctx, auth),
  ];
  const images: Record<string, string> = {};
  const th = (h: string) => ({ text: h, style: 'th' });
  const r = (text: string) => ({ text, alignment: 'right' as const });
  const modalityRows = byModality.map((m) => [
    m.labModality,
    r(String(m.tests)),
    r(String(m.quantity)),
    r(formatRupees(m.grossMinor)),
    r(formatRupees(m.refundMinor)),
    r(formatRupees(m.grossMinor - m.refundMinor)),
  ]);
  const sum = <K extends 'tests' | 'quantity' | 'grossMinor' | 'refundMinor'>(k: K) =>
    byModality.reduce((acc, m) => acc + m[k], 0);
  const collected = byMethod.reduce((acc, m) => acc + m.amountMinor, 0);
  const content: Content[] = [
    letterheadBlock(letterhead, images),
    { text: 'DAY END COLLECTION SUMMARY', style: 'title' },
    {
      text: `${range.startDay} to ${range.endDay} (bill dates, ${flags.displayTimeZone})`,
      alignment: 'center',
      margin: [0, 0, 0, 8],
    },
    { text: 'By modality', style: 'heading' },
    {
      table: {
        headerRows: 1,
        widths: ['*', 'auto', 'auto', 'auto', 'auto', 'auto'],
        body: [
          ['Modality', 'Tests', 'Quantity', 'Gross', 'Refunds', 'Net'].map(th),
          ...modalityRows,
          [
            { text: 'Total', bold: true },
            r(String(sum('tests'))),
            r(String(sum('quantity'))),
            r(formatRupees(sum('grossMinor'))),
            r(formatRupees(sum('refundMinor'))),
            r(formatRupees(sum('grossMinor') - sum('refundMinor'))),
          ],
        ],
      },
      layout: 'lightHorizontalLines',
      fontSize: 9,
    },
    { text: 'By payment method', style: 'heading' },
    {
      table: {
        headerRows: 1,
        widths: ['*', 'auto', 'auto'],
        body: [
          ['Method', 'Payments', 'Amount'].map(th),
          ...byMethod.map((m) => [m.paymentMethod, r(String(m.payments)), r(formatRupees(m.amountMinor))]),
          [
            { text: 'Collected', bold: true },
            r(String(byMethod.reduce((a, m) => a + m.payments, 0))),
            r(formatRupees(collected)),
          ],
        ],
      },
      layout: 'lightHorizontalLines',
      fontSize: 9,
    },
    { text: 'Bills', style: 'heading' },
    totalsTable(totals),
    {
      text: `Printed ${formatDisplayTime(ctx.now(), flags.displayTimeZone)} by ${auth.user.identifier}`,
      style: 'small',
      margin: [0, 10, 0, 0],
    },
  ];
  const doc = pdfShell('Day-end collection summary', content, 'portrait');
  doc.images = images;
  return {
    fileName: fileName('amu-summary', range, 'pdf'),
    contentType: 'application/pdf',
    body: await renderPdfDefinition(doc),
  };
}
