import { and, asc, eq, gte, isNotNull, isNull, lt, ne } from 'drizzle-orm';
import type { ZAppointmentSummaryRequest } from '@radflow/core';
import {
  AppError,
  labReportStatusOf,
  type TAppointment,
  type TAppointmentList,
  type TAppointmentSearch,
  type TAppointmentSummary,
  appointmentFlagsOf,
  appointmentSearchProblem,
  appointmentStateOf,
  appointmentSummaryDays,
  appointmentSummaryInstants,
  groupFlags,
  summarizeAppointments,
  toRupees,
  calendarDayIn,
} from '@radflow/core';
import type { z } from 'zod';
import type { AppContext } from '../../context.js';
import type { DbOrTx } from '../../db/client.js';
import { labBillTests, labBills, labPatients, reportStatuses, studies } from '../../db/schema.js';
import type { TAuth } from '../../plugins/auth.js';
import { inLab } from '../lab-settings/lab-owner.js';
import { loadGroupPreferences } from '../preferences/preferences.js';

/**
 * The appointment views of the front desk (spec-lab §2 cards and Detailed Summary, §3 Appointment
 * data): the caller's lab's live bill lines that hold a slot window, with their bill's state. A
 * live line is the one that holds a seat (lab-bills slot-bookings): not CANCEL, its bill not CANCELLED.
 */

interface TRange {
  from: Date;
  to: Date;
  appointmentName?: string | null;
  modality?: string | null;
}

async function appointmentsIn(db: DbOrTx, auth: TAuth, range: TRange): Promise<TAppointment[]> {
  const rows = await db
    .select({
      line: {
        id: labBillTests.id,
        appointmentName: labBillTests.appointmentName,
        labModality: labBillTests.labModality,
        start: labBillTests.startTimeOfAppointment,
        end: labBillTests.endTimeOfAppointment,
        testCode: labBillTests.testCode,
        testName: labBillTests.testName,
        uploadedThroughWorkList: labBillTests.uploadedThroughWorkList,
      },
      bill: {
        id: labBills.id,
        status: labBills.status,
        invoiceNumber: labBills.invoiceNumber,
        dueMinor: labBills.dueMinor,
      },
      patient: {
        name: labPatients.name,
        uhidNumber: labPatients.uhidNumber,
        mobileNumber: labPatients.mobileNumber,
      },
      studyId: studies.id,
      reportStatus: reportStatuses.status,
    })
    .from(labBillTests)
    .innerJoin(labBills, eq(labBills.id, labBillTests.billId))
    .innerJoin(labPatients, eq(labPatients.id, labBills.patientId))
    .leftJoin(studies, eq(studies.id, labBillTests.studyId))
    // The study's own report row (one per study; split-off rows are other reports).
    .leftJoin(
      reportStatuses,
      and(eq(reportStatuses.studyId, labBillTests.studyId), isNull(reportStatuses.splitFromReportStatusId)),
    )
    .where(
      and(
        inLab(labBills, auth),
        ne(labBills.status, 'CANCELLED'),
        ne(labBillTests.settlementStatus, 'CANCEL'),
        isNotNull(labBillTests.appointmentName),
        gte(labBillTests.startTimeOfAppointment, range.from),
        lt(labBillTests.startTimeOfAppointment, range.to),
        range.appointmentName ? eq(labBillTests.appointmentName, range.appointmentName) : undefined,
        range.modality ? eq(labBillTests.labModality, range.modality) : undefined,
      ),
    )
    .orderBy(asc(labBillTests.startTimeOfAppointment), asc(labBillTests.id));
  return rows.map((r) => {
    const flags = appointmentFlagsOf(r.bill);
    return {
      id: r.line.id,
      billId: r.bill.id,
      invoiceNumber: r.bill.invoiceNumber,
      billStatus: r.bill.status,
      appointmentName: r.line.appointmentName ?? '',
      labModality: r.line.labModality,
      startTimeOfAppointment: r.line.start!.toISOString(),
      endTimeOfAppointment: (r.line.end ?? r.line.start!).toISOString(),
      ...flags,
      state: appointmentStateOf(flags),
      statusOfReport: labReportStatusOf(r.studyId === null ? null : r.reportStatus),
      uploadedThroughWorkList: r.line.uploadedThroughWorkList,
      patientName: r.patient.name,
      uhidNumber: r.patient.uhidNumber,
      mobileNumber: r.patient.mobileNumber,
      testCode: r.line.testCode,
      testName: r.line.testName,
      dueAmount: toRupees(r.bill.dueMinor),
    };
  });
}

/** POST /api/lab/appointments/search: the appointments starting in the range (at most 31 days). */
export async function searchAppointments(
  db: DbOrTx,
  auth: TAuth,
  body: TAppointmentSearch,
): Promise<TAppointmentList> {
  const problem = appointmentSearchProblem(body);
  if (problem) throw new AppError('BAD_REQUEST', problem, 'endTime');
  return {
    appointments: await appointmentsIn(db, auth, {
      from: new Date(body.startTime),
      to: new Date(body.endTime),
      appointmentName: body.appointmentName,
      modality: body.modality,
    }),
  };
}

/**
 * POST /api/lab/appointments/summary: the Detailed Summary's counts over Today, Tomorrow, Yesterday
 * (days of the group's display zone, from the app's clock) or a custom range of at most 31 days.
 */
export async function appointmentSummary(
  app: AppContext,
  auth: TAuth,
  body: z.output<typeof ZAppointmentSummaryRequest>,
): Promise<TAppointmentSummary> {
  const timeZone = groupFlags(await loadGroupPreferences(app.db, auth.user.groupId)).displayTimeZone;
  const days = appointmentSummaryDays(body, calendarDayIn(app.now(), timeZone));
  if (!days.ok) throw new AppError('BAD_REQUEST', days.message, days.field);
  const appointments = await appointmentsIn(app.db, auth, appointmentSummaryInstants(days, timeZone));
  return { startDay: days.startDay, endDay: days.endDay, ...summarizeAppointments(appointments) };
}
