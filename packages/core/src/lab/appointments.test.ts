import { describe, expect, it } from 'vitest';
import {
  APPOINTMENT_MESSAGES,
  type TAppointmentState,
  appointmentFlagsOf,
  appointmentStateOf,
  appointmentSummaryDays,
  groupAppointments,
  inWindows,
  summarizeAppointments,
  windowsCovering,
} from './appointments.js';
import type { TBillStatus } from './entities.js';

describe('appointment state (spec-lab §4)', () => {
  it.each<[boolean, boolean, TAppointmentState]>([
    [true, false, 'SCHEDULED'],
    [true, true, 'SCHEDULED'],
    [false, true, 'PAID'],
    [false, false, 'PARTIALLY_PAID'],
  ])('scheduled %s, paid %s is %s', (scheduled, paid, state) => {
    expect(appointmentStateOf({ scheduled, paid })).toBe(state);
  });

  it.each<[TBillStatus, number, boolean, boolean]>([
    ['SCHEDULED', 150_000, true, false],
    ['OPEN', 50_000, false, false],
    ['OPEN', 0, false, true],
    ['COMPLETED', 0, false, true],
  ])('a %s bill with %i paise due: scheduled %s, paid %s', (status, dueMinor, scheduled, paid) => {
    expect(appointmentFlagsOf({ status, dueMinor })).toEqual({ scheduled, paid });
  });
});

describe('the summary days', () => {
  const today = '2026-03-01';
  it.each([
    [{ dateType: 'TODAY' as const }, '2026-03-01', '2026-03-01'],
    [{ dateType: 'TOMORROW' as const }, '2026-03-02', '2026-03-02'],
    [{ dateType: 'YESTERDAY' as const }, '2026-02-28', '2026-02-28'],
    [
      { dateType: 'CUSTOM' as const, startDate: '2026-02-01', endDate: '2026-03-03' },
      '2026-02-01',
      '2026-03-03',
    ],
  ])('%j covers %s to %s', (request, startDay, endDay) => {
    expect(appointmentSummaryDays(request, today)).toEqual({ ok: true, startDay, endDay });
  });

  it.each([
    [{ startDate: null, endDate: '2026-03-01' }, 'startDate', APPOINTMENT_MESSAGES.customRangeRequiresDates],
    [{ startDate: '2026-03-01', endDate: '' }, 'endDate', APPOINTMENT_MESSAGES.customRangeRequiresDates],
    [
      { startDate: '2026-02-01', endDate: '2026-03-04' },
      'endDate',
      'Custom range must not be more than 31 days',
    ],
    [{ startDate: '2026-03-02', endDate: '2026-03-01' }, 'endDate', 'End date must not be before start date'],
    [
      { startDate: '2026-02-30', endDate: '2026-03-01' },
      'startDate',
      'startDate must be a date (yyyy-MM-dd)',
    ],
  ])('custom %j is refused on %s: %s', (range, field, message) => {
    expect(appointmentSummaryDays({ dateType: 'CUSTOM', ...range }, today)).toEqual({
      ok: false,
      field,
      message,
    });
  });

  it('says the messages word for word', () => {
    expect(APPOINTMENT_MESSAGES.customRangeRequiresDates).toBe('Custom range requires start and end dates');
    expect(APPOINTMENT_MESSAGES.customRangeTooLong).toBe('Custom range must not be more than 31 days');
  });
});

const appt = (
  id: number,
  appointmentName: string,
  labModality: string,
  start: string,
  state: TAppointmentState,
) => ({
  id,
  appointmentName,
  labModality,
  startTimeOfAppointment: start,
  state,
});

describe('cards and the time filter', () => {
  const list = [
    appt(1, 'MRI Evening', 'MR', '2026-03-01T12:30:00.000Z', 'PAID'),
    appt(2, 'CT Morning', 'CT', '2026-03-01T03:30:00.000Z', 'SCHEDULED'),
    appt(3, 'CT Noon', 'CT', '2026-03-01T06:30:00.000Z', 'PARTIALLY_PAID'),
    appt(4, 'CT Morning', 'CT', '2026-03-01T03:30:00.000Z', 'PAID'),
  ];

  it('groups by appointment name, or by modality, in start order', () => {
    expect(
      groupAppointments(list, 'appointmentName').map((g) => [g.key, g.appointments.map((a) => a.id)]),
    ).toEqual([
      ['CT Morning', [2, 4]],
      ['CT Noon', [3]],
      ['MRI Evening', [1]],
    ]);
    expect(
      groupAppointments(list, 'labModality').map((g) => [g.key, g.appointments.map((a) => a.id)]),
    ).toEqual([
      ['CT', [2, 4, 3]],
      ['MR', [1]],
    ]);
  });

  const windows = [
    {
      appointmentName: 'CT Morning',
      startTime: '2026-03-01T03:30:00.000Z',
      endTime: '2026-03-01T04:30:00.000Z',
    },
    {
      appointmentName: 'CT Noon',
      startTime: '2026-03-01T06:30:00.000Z',
      endTime: '2026-03-01T07:30:00.000Z',
    },
    {
      appointmentName: 'CT Wide',
      startTime: '2026-03-01T03:00:00.000Z',
      endTime: '2026-03-01T08:00:00.000Z',
    },
  ];

  it.each([
    ['2026-03-01T03:30:00.000Z', ['CT Morning', 'CT Wide']],
    ['2026-03-01T04:30:00.000Z', ['CT Wide']],
    ['2026-03-01T02:59:59.000Z', []],
  ])('at %s the default filter is %j', (now, names) => {
    expect(windowsCovering(windows, new Date(now)).map((w) => w.appointmentName)).toEqual(names);
  });

  it('keeps the appointments of the chosen windows', () => {
    expect(inWindows(list, [windows[0]!]).map((a) => a.id)).toEqual([2, 4]);
    expect(inWindows(list, []).map((a) => a.id)).toEqual([]);
  });

  it('counts per name, per modality and in all, by state', () => {
    const summary = summarizeAppointments(list);
    expect(summary.total).toEqual({ key: 'Total', scheduled: 1, paid: 2, partiallyPaid: 1, total: 4 });
    expect(summary.byAppointmentName).toEqual([
      { key: 'CT Morning', scheduled: 1, paid: 1, partiallyPaid: 0, total: 2 },
      { key: 'CT Noon', scheduled: 0, paid: 0, partiallyPaid: 1, total: 1 },
      { key: 'MRI Evening', scheduled: 0, paid: 1, partiallyPaid: 0, total: 1 },
    ]);
    expect(summary.byModality).toEqual([
      { key: 'CT', scheduled: 1, paid: 1, partiallyPaid: 1, total: 3 },
      { key: 'MR', scheduled: 0, paid: 1, partiallyPaid: 0, total: 1 },
    ]);
  });
});
