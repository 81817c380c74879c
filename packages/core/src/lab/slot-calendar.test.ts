import { describe, expect, it } from 'vitest';
import type { TLabSlot } from '../settings/lab-slots.js';
import { checkSlotChoice, slotWindows } from './slot-calendar.js';

const slot: TLabSlot = {
  name: 'Morning CT',
  labModalities: ['CT'],
  // Monday and Wednesday
  weeklyTiming: {
    '1': { startTime: '09:00', endTime: '12:30', appointmentLimit: 2 },
    '3': { startTime: '14:00', endTime: '15:00', appointmentLimit: 5 },
  },
  blockedDays: ['2026-12-02'],
};
const zone = 'Asia/Kolkata';

describe('slot calendar', () => {
  it('lists the windows of a week in the zone, blocked days marked', () => {
    const windows = slotWindows(
      [slot],
      new Date('2026-11-29T18:30:00Z'),
      new Date('2026-12-06T18:30:00Z'),
      zone,
    );
    expect(windows.map((w) => [w.date, w.start.toISOString(), w.end.toISOString(), w.blocked])).toEqual([
      ['2026-11-30', '2026-11-30T03:30:00.000Z', '2026-11-30T07:00:00.000Z', false],
      ['2026-12-02', '2026-12-02T08:30:00.000Z', '2026-12-02T09:30:00.000Z', true],
    ]);
  });

  it('accepts a real window and refuses others with the screen messages', () => {
    const monday = {
      appointmentName: 'Morning CT',
      start: new Date('2026-11-30T03:30:00Z'),
      end: new Date('2026-11-30T07:00:00Z'),
    };
    expect(checkSlotChoice([slot], 'CT', monday, zone)).toMatchObject({
      ok: true,
      window: { appointmentLimit: 2 },
    });
    expect(checkSlotChoice([slot], 'MR', monday, zone)).toEqual({
      ok: false,
      status: 400,
      message: 'No slots available for this modality',
    });
    expect(
      checkSlotChoice([slot], 'CT', { ...monday, start: new Date('2026-11-30T04:30:00Z') }, zone),
    ).toMatchObject({ ok: false });
    const blocked = {
      appointmentName: 'Morning CT',
      start: new Date('2026-12-02T08:30:00Z'),
      end: new Date('2026-12-02T09:30:00Z'),
    };
    expect(checkSlotChoice([slot], 'CT', blocked, zone)).toEqual({
      ok: false,
      status: 400,
      message: 'Note: The following slots are blocked for this date: Morning CT (2026-12-02)',
    });
  });
});
