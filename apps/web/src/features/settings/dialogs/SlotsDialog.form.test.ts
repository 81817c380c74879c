import { SETTINGS_MESSAGES, type TLabSlot } from '@radflow/core';
import { describe, expect, it } from 'vitest';
import { addBlockedDay, emptySlotForm, formToSlot, placeSlot, slotToForm } from './SlotsDialog.form';

const morning: TLabSlot = {
  name: 'Morning',
  labModalities: ['CT'],
  weeklyTiming: {
    '0': { startTime: '08:00', endTime: '12:00', appointmentLimit: 5 },
    '6': { startTime: '09:30', endTime: '11:00', appointmentLimit: 1 },
  },
  blockedDays: ['2026-12-25'],
};

describe('slot form', () => {
  it('round-trips a stored slot through the form', () => {
    expect(formToSlot(slotToForm(morning))).toEqual(morning);
  });

  it('keeps a blocked date once and in date order', () => {
    expect(addBlockedDay(['2026-12-25'], '2026-12-25')).toEqual(['2026-12-25']);
    expect(addBlockedDay(['2026-12-25'], '2026-01-26')).toEqual(['2026-01-26', '2026-12-25']);
  });

  it("answers the spec's message for a blank limit, no modality and a name taken (any case)", () => {
    const form = slotToForm({ ...morning, name: 'Evening' });
    form.days['0'].appointmentLimit = ' ';
    expect(placeSlot([morning], form, null)).toEqual({ error: SETTINGS_MESSAGES.slotLimitInvalid });
    expect(placeSlot([morning], { ...slotToForm(morning), name: 'x', modality: '' }, null)).toEqual({
      error: SETTINGS_MESSAGES.slotModalityRequired,
    });
    expect(placeSlot([morning], { ...slotToForm(morning), name: 'MORNING' }, null)).toEqual({
      error: SETTINGS_MESSAGES.slotDuplicateName,
    });
    expect(placeSlot([morning], { ...emptySlotForm(), name: 'Late', modality: 'MR' }, null)).toEqual({
      error: SETTINGS_MESSAGES.slotDayRequired,
    });
  });

  it('replaces the edited slot in place, keeping its name', () => {
    const form = slotToForm(morning);
    form.days['6'].enabled = false;
    expect(placeSlot([morning], form, 0)).toEqual({
      slots: [{ ...morning, weeklyTiming: { '0': morning.weeklyTiming['0'] } }],
    });
  });
});
