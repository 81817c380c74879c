import { describe, expect, it } from 'vitest';
import { SETTINGS_MESSAGES as M } from './messages.js';
import { ZLabSlotsSetting, ZLabSlotsUpdate, isSlotDate, newSlotName } from './lab-slots.js';

const slot = (over: Record<string, unknown> = {}) => ({
  name: 'Morning CT',
  labModalities: ['CT'],
  weeklyTiming: { '1': { startTime: '09:00', endTime: '12:30', appointmentLimit: 10 } },
  blockedDays: [],
  ...over,
});

function messageOf(value: unknown): string | null {
  const result = ZLabSlotsUpdate.safeParse(value);
  return result.success ? null : (result.error.issues[0]?.message ?? '');
}

describe('LAB_SLOTS (spec-lab §5 slot)', () => {
  it('keeps a good slot; a blocked date sent twice is kept once', () => {
    const parsed = ZLabSlotsUpdate.parse({ slots: [slot({ blockedDays: ['2026-12-25', '2026-12-25'] })] });
    expect(parsed.slots[0]?.blockedDays).toEqual(['2026-12-25']);
    expect(ZLabSlotsSetting.parse(parsed)).toEqual(parsed);
  });
  it.each([
    [
      'start equal to end',
      { weeklyTiming: { '0': { startTime: '10:00', endTime: '10:00', appointmentLimit: 1 } } },
      M.slotStartAfterEnd,
    ],
    [
      'start after end',
      { weeklyTiming: { '6': { startTime: '18:00', endTime: '09:00', appointmentLimit: 1 } } },
      M.slotStartAfterEnd,
    ],
    ['no day', { weeklyTiming: {} }, 'Please select at least one day for the slot!'],
    [
      'day 7',
      { weeklyTiming: { '7': { startTime: '09:00', endTime: '10:00', appointmentLimit: 1 } } },
      M.slotDayInvalid,
    ],
    ['no modality', { labModalities: [] }, 'Please select at least one lab modality for the slot!'],
    ['two modalities', { labModalities: ['CT', 'MR'] }, M.slotOneModality],
    [
      'limit 0',
      { weeklyTiming: { '1': { startTime: '09:00', endTime: '10:00', appointmentLimit: 0 } } },
      M.slotLimitInvalid,
    ],
    [
      '12-hour time',
      { weeklyTiming: { '1': { startTime: '9:00 AM', endTime: '10:00', appointmentLimit: 1 } } },
      M.slotTimeInvalid,
    ],
    ['bad blocked date', { blockedDays: ['25-12-2026'] }, M.slotBlockedDateInvalid],
    ['impossible blocked date', { blockedDays: ['2026-02-30'] }, M.slotBlockedDateInvalid],
  ])('refuses %s', (_, over, message) => {
    expect(messageOf({ slots: [slot(over)] })).toBe(message);
  });
  it('refuses a second slot of the same name, with the spec message', () => {
    expect(messageOf({ slots: [slot(), slot({ name: 'morning ct' })] })).toBe(
      'A slot with this name already exists. Please choose a different name.',
    );
  });
  it('isSlotDate', () => {
    expect(isSlotDate('2024-02-29')).toBe(true);
    expect(isSlotDate('2023-02-29')).toBe(false);
  });
  it('newSlotName names a slot the save adds', () => {
    const before = ZLabSlotsSetting.parse({ slots: [slot()] });
    expect(newSlotName(before, before)).toBeNull();
    expect(newSlotName(before, { slots: [] })).toBeNull();
    expect(newSlotName(before, ZLabSlotsSetting.parse({ slots: [slot(), slot({ name: 'Evening' })] }))).toBe(
      'Evening',
    );
  });
});
