import { SETTINGS_MESSAGES, type TLabSlot } from '@radflow/core';
import { fireEvent, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { buildPreferences } from '../../../test/builders';
import { errorBody } from '../../../test/fake-api';
import { openSettingDialog, snackbarText, SLOW } from './CenterLabDialogs.testkit';
import SlotsDialog from './SlotsDialog';

const SAVE = 'POST /api/setting/update/LAB_SLOTS';
const evening: TLabSlot = {
  name: 'Evening',
  labModalities: ['MR'],
  weeklyTiming: { '1': { startTime: '17:00', endTime: '20:00', appointmentLimit: 4 } },
  blockedDays: [],
};

function open(handlers = {}, appointmentSupportRIS = true) {
  const preferences = buildPreferences((p) => {
    p.GROUP_SWITCHES.appointmentSupportRIS = appointmentSupportRIS;
    p.LAB_SLOTS.slots = [evening];
  });
  return openSettingDialog(SlotsDialog, { preferences, handlers, title: 'Slots' });
}

const set = (scope: HTMLElement, label: string, value: string) =>
  fireEvent.change(within(scope).getByLabelText(label), { target: { value } });

/** Fills the new-slot form: Morning, CT, Monday 09:00–12:00 for 10. */
function fillMorning(dialog: HTMLElement, { start = '09:00', end = '12:00' } = {}) {
  const form = within(dialog).getByRole('group', { name: 'New slot' });
  set(form, 'Slot name', 'Morning');
  set(form, 'Lab modality', 'CT');
  fireEvent.click(within(form).getByLabelText('Monday'));
  set(form, 'Monday start', start);
  set(form, 'Monday end', end);
  set(form, 'Monday appointment limit', '10');
  return form;
}

describe('SlotsDialog', () => {
  it(
    'adds a slot with its blocked dates (a date twice kept once), edits another and saves the list',
    SLOW,
    async () => {
      const { api, dialog, isClosed } = await open({ [SAVE]: { body: { slots: [] } } });
      const form = fillMorning(dialog);
      set(form, 'Blocked date', '2026-12-25');
      fireEvent.click(within(form).getByRole('button', { name: 'Block date' }));
      set(form, 'Blocked date', '2026-12-25');
      fireEvent.click(within(form).getByRole('button', { name: 'Block date' }));
      fireEvent.click(within(form).getByRole('button', { name: 'Add slot' }));
      expect(within(dialog).getByText('Morning · CT')).toBeTruthy();

      fireEvent.click(within(dialog).getByRole('button', { name: 'Edit Evening' }));
      const edit = within(dialog).getByRole('group', { name: 'Edit slot Evening' });
      expect((within(edit).getByLabelText('Slot name') as HTMLInputElement).disabled).toBe(true);
      set(edit, 'Monday appointment limit', '6');
      fireEvent.click(within(edit).getByRole('button', { name: 'Update slot' }));

      fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
      expect(await snackbarText('status')).toBe(SETTINGS_MESSAGES.updated);
      expect(api.calls('POST', '/api/setting/update/LAB_SLOTS')[0]?.json()).toEqual({
        slots: [
          {
            ...evening,
            weeklyTiming: { '1': { startTime: '17:00', endTime: '20:00', appointmentLimit: 6 } },
          },
          {
            name: 'Morning',
            labModalities: ['CT'],
            weeklyTiming: { '1': { startTime: '09:00', endTime: '12:00', appointmentLimit: 10 } },
            blockedDays: ['2026-12-25'],
          },
        ],
      });
      await waitFor(() => expect(isClosed()).toBe(true));
    },
  );

  it("shows the spec's slot messages and sends nothing", SLOW, async () => {
    const { api, dialog } = await open();
    const form = fillMorning(dialog, { start: '12:00', end: '09:00' });
    fireEvent.click(within(form).getByRole('button', { name: 'Add slot' }));
    expect(within(form).getByRole('alert').textContent).toBe(SETTINGS_MESSAGES.slotStartAfterEnd);

    fireEvent.click(within(form).getByLabelText('Monday'));
    fireEvent.click(within(form).getByRole('button', { name: 'Add slot' }));
    expect(within(form).getByRole('alert').textContent).toBe(SETTINGS_MESSAGES.slotDayRequired);

    set(form, 'Slot name', 'evening');
    fireEvent.click(within(form).getByLabelText('Monday'));
    set(form, 'Monday start', '08:00');
    fireEvent.click(within(form).getByRole('button', { name: 'Add slot' }));
    expect(within(form).getByRole('alert').textContent).toBe(SETTINGS_MESSAGES.slotDuplicateName);

    expect(within(dialog).queryByText('Morning · CT')).toBeNull();
    expect(api.calls('POST', '/api/setting/update/LAB_SLOTS')).toHaveLength(0);
  });

  it("keeps the slots on a server refusal and shows the server's text", SLOW, async () => {
    const { dialog, isClosed } = await open({
      [SAVE]: { status: 400, body: errorBody(400, 'Slots refused') },
    });
    const form = fillMorning(dialog);
    fireEvent.click(within(form).getByRole('button', { name: 'Add slot' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await snackbarText('alert')).toContain('Slots refused');
    expect(within(dialog).getByText('Morning · CT')).toBeTruthy();
    expect(isClosed()).toBe(false);
  });

  it(
    'disables adding with the message when appointment slots are off, and still allows deleting',
    SLOW,
    async () => {
      const { api, dialog } = await open({ [SAVE]: { body: { slots: [] } } }, false);
      expect(within(dialog).getByText(SETTINGS_MESSAGES.slotAppointmentsOff)).toBeTruthy();
      const form = within(dialog).getByRole('group', { name: 'New slot' });
      expect((within(form).getByRole('button', { name: 'Add slot' }) as HTMLButtonElement).disabled).toBe(
        true,
      );
      fireEvent.click(within(dialog).getByRole('button', { name: 'Delete Evening' }));
      fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
      await waitFor(() => expect(api.calls('POST', '/api/setting/update/LAB_SLOTS')).toHaveLength(1));
      expect(api.calls('POST', '/api/setting/update/LAB_SLOTS')[0]?.json()).toEqual({ slots: [] });
    },
  );
});
