import { and, asc, count, desc, eq, gte, inArray, lt, ne } from 'drizzle-orm';
import {
  type TLabBillTestSearchRequest,
  type TRisPage,
  ZLabBillTestSearchRequest,
  billStatusesOfFilter,
  groupFlags,
  labReportStatusOf,
  startOfDayIn,
  toPageResponse,
  toRupees,
} from '@radflow/core';
import type { z } from 'zod';
import type { Db } from '../../db/client.js';
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
import { lineReportJoin, lineReportStatusIn } from './line-report-status.js';
import { loadGroupPreferences } from '../preferences/preferences.js';

/**
 * POST /api/lab/lab-bill-test/search (spec-lab §2 test-level report list, §3 RIS row, §7): the
 * caller's lab's bill lines, each with its study's report status in the lab's words
 * (`labReportStatusOf`), filtered by tab, bill date, report status and modality, newest bill first.
 */

type TSearch = z.output<typeof ZLabBillTestSearchRequest>;

/** A yyyy-MM-dd day (or an exact yyyy-MM-dd HH:mm:ss) of the zone as an instant; `endOfDay` the next day's start. */
function instantOf(value: string, timeZone: string, endOfDay: boolean): Date {
  const [day = '', time] = value.split(' ');
  if (time === undefined) {
    const next = new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
    return startOfDayIn(endOfDay ? next : day, timeZone);
  }
  const [h = 0, m = 0, s = 0] = time.split(':').map(Number);
  const seconds = (h * 60 + m) * 60 + s + (endOfDay ? 1 : 0);
  return new Date(startOfDayIn(day, timeZone).getTime() + seconds * 1000);
}

export async function searchLabBillTests(
  db: Db,
  auth: TAuth,
  input: TLabBillTestSearchRequest | TSearch,
): Promise<TRisPage> {
  const request = ZLabBillTestSearchRequest.parse(input);
  const timeZone =
    request.startTime || request.endTime
      ? groupFlags(await loadGroupPreferences(db, auth.user.groupId)).displayTimeZone
      : 'UTC';
  const where = and(
    inLab(labBills, auth),
    inArray(labBills.status, [...billStatusesOfFilter(request)]),
    request.cancelled ? undefined : ne(labBillTests.settlementStatus, 'CANCEL'),
    request.startTime ? gte(labBills.billDate, instantOf(request.startTime, timeZone, false)) : undefined,
    request.endTime ? lt(labBills.billDate, instantOf(request.endTime, timeZone, true)) : undefined,
    request.modality ? eq(labBillTests.labModality, request.modality) : undefined,
    lineReportStatusIn(request.statuses),
  );
  const from = () =>
    db
      .select({
        line: labBillTests,
        bill: {
          id: labBills.id,
          status: labBills.status,
          invoiceNumber: labBills.invoiceNumber,
          billDate: labBills.billDate,
          categories: labBills.categories,
          dueMinor: labBills.dueMinor,
        },
        patient: {
          id: labPatients.id,
          uhidNumber: labPatients.uhidNumber,
          name: labPatients.name,
          mobileNumber: labPatients.mobileNumber,
          gender: labPatients.gender,
          ageString: labPatients.ageString,
        },
        doctor: { name: labReferringDoctors.name, mobileNumber: labReferringDoctors.mobileNumber },
        reportStatusId: reportStatuses.id,
        reportStatus: reportStatuses.status,
        studyInstanceUid: studies.studyInstanceUid,
      })
      .from(labBillTests)
      .innerJoin(labBills, eq(labBills.id, labBillTests.billId))
      .innerJoin(labPatients, eq(labPatients.id, labBills.patientId))
      .leftJoin(labReferringDoctors, eq(labReferringDoctors.id, labBills.referringDoctorId))
      .leftJoin(studies, eq(studies.id, labBillTests.studyId))
      .leftJoin(reportStatuses, lineReportJoin);
  const order = request.sortOrder === 'ASC' ? asc : desc;
  const [rows, [total]] = await Promise.all([
    from()
      .where(where)
      .orderBy(order(labBills.billDate), order(labBills.id), asc(labBillTests.position))
      .limit(request.size)
      .offset(request.page * request.size),
    db
      .select({ total: count() })
      .from(labBillTests)
      .innerJoin(labBills, eq(labBills.id, labBillTests.billId))
      .leftJoin(reportStatuses, lineReportJoin)
      .where(where),
  ]);
  const content = rows.map((r) => {
    const statusOfReport = labReportStatusOf(r.studyInstanceUid === null ? null : r.reportStatus);
    return {
      id: r.line.id,
      labBillingId: r.bill.id,
      labBillingStatus: r.bill.status,
      statusOfReport,
      reportStatusId: statusOfReport === 'PENDING' ? null : r.reportStatusId,
      studyInstanceId: r.studyInstanceUid,
      invoiceNumber: r.bill.invoiceNumber,
      labTestId: r.line.labTestId,
      testCode: r.line.testCode,
      testName: r.line.testName,
      labModality: r.line.labModality,
      accessionNumber: r.line.accessionNumber,
      settlementStatus: r.line.settlementStatus,
      uploadedThroughWorkList: r.line.uploadedThroughWorkList,
      billDate: r.bill.billDate.toISOString(),
      startTimeOfAppointment: r.line.startTimeOfAppointment?.toISOString() ?? null,
      patient: r.patient,
      referringDoctor: r.doctor?.name ? { name: r.doctor.name, mobileNumber: r.doctor.mobileNumber } : null,
      labBillCategories: r.bill.categories,
      dueAmount: toRupees(r.bill.dueMinor),
    };
  });
  return toPageResponse(content, total?.total ?? 0, request.page, request.size);
}
