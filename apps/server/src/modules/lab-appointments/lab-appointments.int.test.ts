import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type TAppointmentList,
  type TAppointmentSummary,
  type TBill,
  nextCalendarDay,
  calendarDayIn,
} from '@radflow/core';
import { eq } from 'drizzle-orm';
import { labBillTests } from '../../db/schema.js';
import {
  type TestApp,
  type TestClient,
  clockAtNoonIn,
  createTestApp,
  createTestCenter,
  signIn,
} from '../../../test/test-app.js';
import { createTestStudy } from '../../../test/worklist-test-data.js';
import {
  centerLab,
  everyDaySlot,
  insertPatient,
  insertTest,
  labPlace,
  put,
  setCenterSection,
  windowOn,
} from '../../../test/lab-bill-data.js';

/**
 * POST /api/lab/appointments/search and /summary (spec-lab §2 appointment cards and Detailed
 * Summary, §3 Appointment data, §4 states, §5 custom range): live appointments of the caller's lab
 * only, classified scheduled / paid / partially paid, counted over the group zone's days.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  clockAtNoonIn(t, ZONE);
});
afterAll(() => t.close());

const ZONE = 'Asia/Kolkata';
const today = () => calendarDayIn(t.clock.now, ZONE);
const yesterdayOf = (day: string) =>
  new Date(Date.parse(`${day}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
const dayRange = (day: string) => ({
  startTime: `${day}T00:00:00+05:30`,
  endTime: `${nextCalendarDay(day)}T00:00:00+05:30`,
});

async function book(
  browser: TestClient,
  patientId: number,
  labTestId: number,
  appointmentName: string,
  day: string,
  advancePaid = 0,
): Promise<TBill> {
  const res = await browser.post('/api/lab/bill', {
    patientId,
    labBillTests: [{ labTestId, quantity: 1, appointmentName, ...windowOn(day) }],
    advancePaid,
    paymentMethod: 'CASH',
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<TBill>();
}

async function slottedPlace() {
  const p = await labPlace(t, { appointmentSupportRIS: true });
  await setCenterSection(t.db, p.center.id, 'LAB_SLOTS', {
    slots: [everyDaySlot('CT Morning', 'CT', 10), everyDaySlot('DX Morning', 'DX', 10)],
  });
  return p;
}

describe('the appointment cards (POST /api/lab/appointments/search)', () => {
  it('answers the day’s live appointments with scheduled, paid, report status and the card fields', async () => {
    const p = await slottedPlace();
    const day = today();
    const scheduled = await book(p.receptionist, p.patient.id, p.ct.id, 'CT Morning', day);
    const partly = await book(p.receptionist, p.patient.id, p.ct.id, 'CT Morning', day, 100);
    const paid = await book(p.receptionist, p.patient.id, p.dx.id, 'DX Morning', day, 500);
    const cancelled = await book(p.receptionist, p.patient.id, p.ct.id, 'CT Morning', day);
    const tomorrow = await book(p.receptionist, p.patient.id, p.ct.id, 'CT Morning', nextCalendarDay(day));
    expect([scheduled.status, partly.status, paid.status]).toEqual(['SCHEDULED', 'OPEN', 'OPEN']);
    const gone = await put(p.receptionist, '/api/lab/cancel-status', {
      id: cancelled.id,
      cancellationRemark: 'Patient called off',
    });
    expect(gone.statusCode, gone.body).toBe(200);
    // The paid bill's study came back and was signed off.
    const { study } = await createTestStudy(t.db, {
      groupId: p.group.id,
      centerId: p.center.id,
      row: { status: 'SIGNED_OFF' },
    });
    await t.db
      .update(labBillTests)
      .set({ studyId: study.id, uploadedThroughWorkList: true })
      .where(eq(labBillTests.billId, paid.id));

    const res = await p.receptionist.post('/api/lab/appointments/search', dayRange(day));
    expect(res.statusCode, res.body).toBe(200);
    const { appointments } = res.json<TAppointmentList>();
    expect(appointments.map((a) => [a.billId, a.appointmentName, a.state])).toEqual([
      [scheduled.id, 'CT Morning', 'SCHEDULED'],
      [partly.id, 'CT Morning', 'PARTIALLY_PAID'],
      [paid.id, 'DX Morning', 'PAID'],
    ]);
    expect(appointments[0]).toMatchObject({
      scheduled: true,
      paid: false,
      billStatus: 'SCHEDULED',
      labModality: 'CT',
      ...windowOn(day),
      statusOfReport: 'PENDING',
      uploadedThroughWorkList: false,
      patientName: p.patient.name,
      uhidNumber: p.patient.uhidNumber,
      mobileNumber: '9876543210',
      testName: 'CT Head',
      invoiceNumber: scheduled.invoiceNumber,
      dueAmount: 1500,
    });
    expect(appointments[1]).toMatchObject({ scheduled: false, paid: false, dueAmount: 1400 });
    expect(appointments[2]).toMatchObject({
      scheduled: false,
      paid: true,
      dueAmount: 0,
      statusOfReport: 'SIGNED_OFF',
      uploadedThroughWorkList: true,
    });

    const ctOnly = await p.supervisor.post('/api/lab/appointments/search', {
      ...dayRange(day),
      modality: 'CT',
    });
    expect(ctOnly.json<TAppointmentList>().appointments.map((a) => a.billId)).toEqual([
      scheduled.id,
      partly.id,
    ]);
    const byName = await p.supervisor.post('/api/lab/appointments/search', {
      startTime: dayRange(day).startTime,
      endTime: dayRange(nextCalendarDay(day)).endTime,
      appointmentName: 'CT Morning',
    });
    expect(byName.json<TAppointmentList>().appointments.map((a) => a.billId)).toEqual([
      scheduled.id,
      partly.id,
      tomorrow.id,
    ]);
  });

  it('another center of the group and another group see none of them', async () => {
    const p = await slottedPlace();
    const day = today();
    await book(p.receptionist, p.patient.id, p.ct.id, 'CT Morning', day);

    const otherCenter = await createTestCenter(t.db, { groupId: p.group.id });
    const owner = centerLab(p.group.id, otherCenter.id);
    await setCenterSection(t.db, otherCenter.id, 'LAB_SLOTS', {
      slots: [everyDaySlot('CT Morning', 'CT', 10)],
    });
    const [neighbour, patient, ct] = await Promise.all([
      signIn(t, { roles: ['ROLE_LABS_RECEPTIONIST'], groupId: p.group.id, centerId: otherCenter.id }),
      insertPatient(t.db, owner, 'Neighbour Patient'),
      insertTest(t.db, owner, { code: 'CT01', modality: 'CT', rupees: 900 }),
    ]);
    const theirs = await book(neighbour.browser, patient.id, ct.id, 'CT Morning', day);
    const otherGroup = await slottedPlace();

    const ids = async (browser: TestClient) => {
      const res = await browser.post('/api/lab/appointments/search', dayRange(day));
      expect(res.statusCode, res.body).toBe(200);
      return res.json<TAppointmentList>().appointments.map((a) => a.patientName);
    };
    expect(await ids(p.receptionist)).toEqual([p.patient.name]);
    expect(await ids(neighbour.browser)).toEqual(['Neighbour Patient']);
    expect(await ids(otherGroup.receptionist)).toEqual([]);
    const summary = await otherGroup.supervisor.post('/api/lab/appointments/summary', { dateType: 'TODAY' });
    expect(summary.json<TAppointmentSummary>().total.total).toBe(0);
    expect(theirs.status).toBe('SCHEDULED');
  });

  it('refuses roles without the lab menu (403) and ranges over 31 days (400)', async () => {
    const p = await slottedPlace();
    const doctor = await p.as(['ROLE_DOCTOR']);
    const center = await p.as(['ROLE_CENTER']);
    for (const browser of [doctor, center]) {
      expect((await browser.post('/api/lab/appointments/search', dayRange(today()))).statusCode).toBe(403);
      expect((await browser.post('/api/lab/appointments/summary', { dateType: 'TODAY' })).statusCode).toBe(
        403,
      );
    }
    const long = await p.receptionist.post('/api/lab/appointments/search', {
      startTime: '2026-01-01T00:00:00+05:30',
      endTime: '2026-02-02T00:00:00+05:30',
    });
    expect(long.statusCode).toBe(400);
    expect(long.json<{ errorDescription: string }>().errorDescription).toBe(
      'Custom range must not be more than 31 days',
    );
    const backwards = await p.receptionist.post('/api/lab/appointments/search', {
      startTime: '2026-01-02T00:00:00+05:30',
      endTime: '2026-01-01T00:00:00+05:30',
    });
    expect(backwards.statusCode).toBe(400);
  });
});

describe('the Detailed Summary (POST /api/lab/appointments/summary)', () => {
  it('counts per name, per modality and by state over today, tomorrow, yesterday and a custom range', async () => {
    const p = await slottedPlace();
    const day = today();
    const tomorrow = nextCalendarDay(day);
    const yesterday = yesterdayOf(day);
    await book(p.receptionist, p.patient.id, p.ct.id, 'CT Morning', day);
    await book(p.receptionist, p.patient.id, p.ct.id, 'CT Morning', day, 1500);
    await book(p.receptionist, p.patient.id, p.dx.id, 'DX Morning', day, 100);
    await book(p.receptionist, p.patient.id, p.dx.id, 'DX Morning', tomorrow);
    await book(p.receptionist, p.patient.id, p.ct.id, 'CT Morning', yesterday, 200);

    const summary = async (body: object) => {
      const res = await p.supervisor.post('/api/lab/appointments/summary', body);
      expect(res.statusCode, res.body).toBe(200);
      return res.json<TAppointmentSummary>();
    };
    const todays = await summary({ dateType: 'TODAY' });
    expect(todays).toMatchObject({ startDay: day, endDay: day });
    expect(todays.total).toEqual({ key: 'Total', scheduled: 1, paid: 1, partiallyPaid: 1, total: 3 });
    expect(todays.byAppointmentName).toEqual([
      { key: 'CT Morning', scheduled: 1, paid: 1, partiallyPaid: 0, total: 2 },
      { key: 'DX Morning', scheduled: 0, paid: 0, partiallyPaid: 1, total: 1 },
    ]);
    expect(todays.byModality.map((c) => [c.key, c.total])).toEqual([
      ['CT', 2],
      ['DX', 1],
    ]);
    expect((await summary({ dateType: 'TOMORROW' })).byAppointmentName).toEqual([
      { key: 'DX Morning', scheduled: 1, paid: 0, partiallyPaid: 0, total: 1 },
    ]);
    expect((await summary({ dateType: 'YESTERDAY' })).total).toMatchObject({ partiallyPaid: 1, total: 1 });
    const custom = await summary({ dateType: 'CUSTOM', startDate: yesterday, endDate: tomorrow });
    expect(custom).toMatchObject({ startDay: yesterday, endDay: tomorrow, total: { total: 5 } });
  });

  it('refuses a custom range without both dates or longer than 31 days with the spec’s messages', async () => {
    const p = await slottedPlace();
    const cases: [object, string][] = [
      [{ dateType: 'CUSTOM', startDate: '2026-01-01' }, 'Custom range requires start and end dates'],
      [{ dateType: 'CUSTOM', endDate: '2026-01-01' }, 'Custom range requires start and end dates'],
      [
        { dateType: 'CUSTOM', startDate: '2026-01-01', endDate: '2026-02-01' },
        'Custom range must not be more than 31 days',
      ],
    ];
    for (const [body, message] of cases) {
      const res = await p.receptionist.post('/api/lab/appointments/summary', body);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json<{ errorDescription: string }>().errorDescription).toBe(message);
    }
    const month = await p.receptionist.post('/api/lab/appointments/summary', {
      dateType: 'CUSTOM',
      startDate: '2026-01-01',
      endDate: '2026-01-31',
    });
    expect(month.statusCode, month.body).toBe(200);
  });
});
