import { type SQL, and, asc, count, desc, eq, exists, gte, inArray, lt, sql } from 'drizzle-orm';
import {
  AppError,
  BILL_LIST_COUNT_LIMIT,
  type TBillListPage,
  type TBillSearch,
  groupFlags,
  isCalendarDay,
  labReportStatusOf,
  nextCalendarDay,
  startOfDayIn,
  toRupees,
} from '@radflow/core';
import type { DbOrTx } from '../../db/client.js';
import {
  labBillTests,
  labBills,
  labPatients,
  labReferringDoctors,
  reportStatuses,
  studies,
} from '../../db/schema.js';
import type { TAuth } from '../../plugins/auth.js';
import { inLab } from '../lab-settings/lab-owner.js';
import { lineReportJoin, lineReportStatusIn } from '../lab-worklist/line-report-status.js';
import { loadGroupPreferences } from '../preferences/preferences.js';

const ORDER_COLUMNS = { billDate: labBills.billDate } as const;

/**
 * POST /api/lab/bill/search: one page of the billing list (spec-lab §2 columns). The page of bills is
 * read first (lab, statuses, bill-date days in the group's zone; the lab/date index), then the
 * lines of those bills only, so a page costs the same at any number of bills. The modality and
 * report-status filters keep bills with at least one such line (an EXISTS on the bill's lines).
 */
export async function searchBills(db: DbOrTx, auth: TAuth, search: TBillSearch): Promise<TBillListPage> {
  const filters: (SQL | undefined)[] = [
    inLab(labBills, auth),
    inArray(labBills.status, search.labBillingStatuses),
  ];
  if (search.startTime || search.endTime) {
    const timeZone = groupFlags(await loadGroupPreferences(db, auth.user.groupId)).displayTimeZone;
    for (const [field, day] of [
      ['startTime', search.startTime],
      ['endTime', search.endTime],
    ] as const) {
      if (day && !isCalendarDay(day))
        throw new AppError('BAD_REQUEST', `${field} must be a day (yyyy-MM-dd)`, field);
    }
    if (search.startTime && search.endTime && search.endTime < search.startTime) {
      throw new AppError('BAD_REQUEST', 'endTime must not be before startTime', 'endTime');
    }
    if (search.startTime) filters.push(gte(labBills.billDate, startOfDayIn(search.startTime, timeZone)));
    if (search.endTime)
      filters.push(lt(labBills.billDate, startOfDayIn(nextCalendarDay(search.endTime), timeZone)));
  }
  const lineFilters = [
    search.testModality ? eq(labBillTests.labModality, search.testModality) : undefined,
    lineReportStatusIn(search.labReportStatuses),
  ].filter((f): f is SQL => f !== undefined);
  if (lineFilters.length > 0) {
    filters.push(
      exists(
        db
          .select({ one: sql`1` })
          .from(labBillTests)
          .leftJoin(reportStatuses, lineReportJoin)
          .where(and(eq(labBillTests.billId, labBills.id), ...lineFilters)),
      ),
    );
  }
  const where = and(...filters);
  const direction = search.sortOrder === 'ASC' ? asc : desc;
  const [rows, [total]] = await Promise.all([
    db
      .select({
        id: labBills.id,
        version: labBills.version,
        status: labBills.status,
        invoiceNumber: labBills.invoiceNumber,
        uhidNumber: labPatients.uhidNumber,
        patientName: labPatients.name,
        mobileNumber: labPatients.mobileNumber,
        referringDoctorName: labReferringDoctors.name,
        categories: labBills.categories,
        totalMinor: labBills.totalMinor,
        finalMinor: labBills.finalMinor,
        dueMinor: labBills.dueMinor,
        billDate: labBills.billDate,
        createdAt: labBills.createdAt,
      })
      .from(labBills)
      .innerJoin(labPatients, eq(labPatients.id, labBills.patientId))
      .leftJoin(labReferringDoctors, eq(labReferringDoctors.id, labBills.referringDoctorId))
      .where(where)
      .orderBy(direction(ORDER_COLUMNS[search.orderingCriteria]), direction(labBills.id))
      .limit(search.size)
      .offset(search.page * search.size),
    // Counted up to the limit only: the first pages never pay for millions of rows.
    db.select({ n: count() }).from(
      db
        .select({ one: sql`1` })
        .from(labBills)
        .where(where)
        .limit(BILL_LIST_COUNT_LIMIT + 1)
        .as('matching'),
    ),
  ]);
  const lines =
    rows.length === 0
      ? []
      : await db
          .select({
            billId: labBillTests.billId,
            labModality: labBillTests.labModality,
            testCode: labBillTests.testCode,
            testName: labBillTests.testName,
            priceMinor: labBillTests.priceMinor,
            studyInstanceUid: studies.studyInstanceUid,
            reportStatusId: reportStatuses.id,
            reportStatus: reportStatuses.status,
          })
          .from(labBillTests)
          .leftJoin(studies, eq(studies.id, labBillTests.studyId))
          .leftJoin(reportStatuses, lineReportJoin)
          .where(
            inArray(
              labBillTests.billId,
              rows.map((r) => r.id),
            ),
          )
          .orderBy(asc(labBillTests.billId), asc(labBillTests.position));
  const linesOf = new Map<number, typeof lines>();
  for (const line of lines) linesOf.set(line.billId, [...(linesOf.get(line.billId) ?? []), line]);
  return {
    content: rows.map((r) => {
      const billLines = linesOf.get(r.id) ?? [];
      return {
        id: r.id,
        version: r.version,
        status: r.status,
        invoiceNumber: r.invoiceNumber,
        uhidNumber: r.uhidNumber,
        patientName: r.patientName,
        mobileNumber: r.mobileNumber,
        referringDoctorName: r.referringDoctorName,
        tests: billLines.map(
          (l) => `${l.labModality}: ${l.testCode} ${l.testName} (${toRupees(l.priceMinor)})`,
        ),
        modalities: [...new Set(billLines.map((l) => l.labModality))],
        reportStatuses: billLines.map((l) => {
          const status = labReportStatusOf(l.studyInstanceUid === null ? null : l.reportStatus);
          return {
            testCode: l.testCode,
            status,
            studyInstanceUid: l.studyInstanceUid,
            reportStatusId: status === 'PENDING' ? null : l.reportStatusId,
          };
        }),
        categories: r.categories.filter((c) => c.type === 'PATIENT_CATEGORY').map((c) => c.name),
        priorities: r.categories.filter((c) => c.type === 'PRIORITY').map((c) => c.name),
        totalPrice: toRupees(r.totalMinor),
        finalAmount: toRupees(r.finalMinor),
        dueAmount: toRupees(r.dueMinor),
        billDate: r.billDate.toISOString(),
        createdAt: r.createdAt.toISOString(),
      };
    }),
    totalElements: Math.min(Number(total?.n ?? 0), BILL_LIST_COUNT_LIMIT),
    totalRelation: Number(total?.n ?? 0) > BILL_LIST_COUNT_LIMIT ? 'gte' : 'eq',
    page: search.page,
    size: search.size,
  };
}
