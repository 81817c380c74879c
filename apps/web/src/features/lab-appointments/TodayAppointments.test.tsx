import {
  type TAllSlots,
  type TAppointment,
  type TAppointmentSummary,
  type TSlotOccurrence,
  type TUserPreferences,
} from '@radflow/core';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildPreferences, buildUser, sessionHandlers } from '../../test/builders';
import { type TFakeReply, errorBody, fakeApi } from '../../test/fake-api';
import { renderScreen } from '../../test/render';
import { useSession } from '../auth/session';
import { TodayAppointments } from './TodayAppointments';

const WAIT = { timeout: 8_000 };
const SLOW = { timeout: 20_000 };

function SignedIn({ children }: { children: ReactNode }) {
  const { data } = useSession();
  return data ? children : null;
}

// 09:30 in Asia/Kolkata on 10 March 2026: the CT Morning window (09:00–10:00) covers it.
const NOW = new Date('2026-03-10T04:00:00.000Z');

const window = (
  appointmentName: string,
  labModality: string,
  start: string,
  end: string,
): TSlotOccurrence => ({
  appointmentName,
  labModality,
  date: '2026-03-10',
  startTime: start,
  endTime: end,
  appointmentLimit: 5,
  booked: 1,
  available: 4,
  blocked: false,
});
const CT_MORNING = window('CT Morning', 'CT', '2026-03-10T03:30:00.000Z', '2026-03-10T04:30:00.000Z');
const MR_MORNING = window('MR Morning', 'MR', '2026-03-10T03:00:00.000Z', '2026-03-10T05:00:00.000Z');
const CT_EVENING = window('CT Evening', 'CT', '2026-03-10T11:30:00.000Z', '2026-03-10T12:30:00.000Z');

const appointment = (id: number, slot: TSlotOccurrence, over: Partial<TAppointment> = {}): TAppointment => ({
  id,
  billId: 100 + id,
  invoiceNumber: `INV-${id}`,
  billStatus: 'SCHEDULED',
  appointmentName: slot.appointmentName,
  labModality: slot.labModality,
  startTimeOfAppointment: slot.startTime,
  endTimeOfAppointment: slot.endTime,
  scheduled: true,
  paid: false,
  state: 'SCHEDULED',
  statusOfReport: 'PENDING',
  uploadedThroughWorkList: false,
  patientName: `Patient ${id}`,
  uhidNumber: `UH-${id}`,
  mobileNumber: '9876543210',
  testCode: 'T1',
  testName: `Test ${id}`,
  dueAmount: 1500,
  ...over,
});

const APPOINTMENTS = [
  appointment(1, CT_MORNING),
  appointment(2, MR_MORNING, { state: 'PAID', scheduled: false, paid: true, dueAmount: 0 }),
  appointment(3, CT_EVENING, { state: 'PARTIALLY_PAID', scheduled: false }),
];

function open(
  opts: {
    preferences?: TUserPreferences;
    appointments?: TAppointment[];
    handlers?: Record<string, TFakeReply | (() => Promise<TFakeReply>)>;
  } = {},
) {
  const preferences =
    opts.preferences ?? buildPreferences((p) => (p.GROUP_SWITCHES.appointmentSupportRIS = true));
  const slots: TAllSlots = { slots: [MR_MORNING, CT_MORNING, CT_EVENING], blockedDays: {} };
  const api = fakeApi({
    ...sessionHandlers(buildUser(['ROLE_LABS_RECEPTIONIST'], { centerId: 3 }), preferences),
    'POST /api/lab/get-all-slot': { body: slots },
    'POST /api/lab/appointments/search': { body: { appointments: opts.appointments ?? APPOINTMENTS } },
    ...opts.handlers,
  });
  renderScreen(
    <SignedIn>
      <TodayAppointments now={() => NOW} />
    </SignedIn>,
    { path: '/lab/registration' },
  );
  return api;
}

const groupNames = () =>
  screen.queryAllByRole('region').flatMap((r) => {
    const label = r.getAttribute('aria-label');
    return label && label !== "Today's appointments" ? [label] : [];
  });

afterEach(() => vi.unstubAllGlobals());

describe("today's appointment cards", () => {
  it(
    'asks for today in the group zone; shows by default the windows covering now, grouped by appointment name',
    SLOW,
    async () => {
      const api = open();
      expect(await screen.findByText('Patient 1', {}, WAIT)).toBeTruthy();
      expect(screen.getByText('Patient 2')).toBeTruthy();
      // CT Evening (17:00) does not cover 09:30.
      expect(screen.queryByText('Patient 3')).toBeNull();
      expect(groupNames()).toEqual(['MR Morning', 'CT Morning']);
      const range = { startTime: '2026-03-09T18:30:00.000Z', endTime: '2026-03-10T18:30:00.000Z' };
      expect(api.calls('POST', '/api/lab/appointments/search')[0]?.json()).toEqual(range);
      expect(api.calls('POST', '/api/lab/get-all-slot')[0]?.json()).toEqual(range);
      const card = screen.getByText('Patient 1').closest('[data-testid="appointment-card"]') as HTMLElement;
      expect(within(card).getByText('Scheduled')).toBeTruthy();
      expect(within(card).getByText(/UH-1/)).toBeTruthy();
      expect(within(card).getByText(/Invoice INV-1/)).toBeTruthy();
      expect(within(card).getByRole('link', { name: 'Open bill' }).getAttribute('href')).toBe(
        '/lab/create-bill/101',
      );
    },
  );

  it(
    "says 'Fetching all appointments' and 'Loading appointments...' until the answers arrive",
    SLOW,
    async () => {
      let release: () => void = () => undefined;
      const held = new Promise<void>((resolve) => (release = resolve));
      open({
        handlers: {
          'POST /api/lab/get-all-slot': async () => {
            await held;
            return { body: { slots: [CT_MORNING], blockedDays: {} } };
          },
        },
      });
      expect(await screen.findByText('Loading appointments...', {}, WAIT)).toBeTruthy();
      expect(await screen.findByText('Fetching all appointments', {}, WAIT)).toBeTruthy();
      release();
      expect(await screen.findByText('Patient 1', {}, WAIT)).toBeTruthy();
      await waitFor(() => expect(screen.queryByText('Fetching all appointments')).toBeNull(), WAIT);
      expect(screen.queryByText('Loading appointments...')).toBeNull();
    },
  );

  it('Refresh reads the day again', SLOW, async () => {
    const api = open();
    await screen.findByText('Patient 1', {}, WAIT);
    fireEvent.click(screen.getByRole('button', { name: 'Refresh' }));
    await waitFor(() => expect(api.calls('POST', '/api/lab/appointments/search')).toHaveLength(2), WAIT);
    expect(api.calls('POST', '/api/lab/get-all-slot')).toHaveLength(2);
  });

  it('groups by modality under amuSpecialCustomization', SLOW, async () => {
    open({
      preferences: buildPreferences((p) => {
        p.GROUP_SWITCHES.appointmentSupportRIS = true;
        p.USER_ADMIN_VISIBLE_PREFERENCES.amuSpecialCustomization = true;
      }),
    });
    await screen.findByText('Patient 1', {}, WAIT);
    expect(groupNames()).toEqual(['MR', 'CT']);
  });

  it('Filter by Time Slots picks other windows; none picked says so', SLOW, async () => {
    open();
    await screen.findByText('Patient 1', {}, WAIT);
    fireEvent.click(screen.getByRole('button', { name: 'Filter by Time Slots' }));
    const dialog = await screen.findByRole('dialog', {}, WAIT);
    const box = (name: RegExp) => within(dialog).getByRole('checkbox', { name });
    expect((box(/^CT Morning/) as HTMLInputElement).checked).toBe(true);
    expect((box(/^CT Evening/) as HTMLInputElement).checked).toBe(false);
    expect(within(dialog).getByText(/CT Evening \(CT\) 17:00–18:00 · Available 4 \/ 5/)).toBeTruthy();
    fireEvent.click(box(/^CT Evening/));
    fireEvent.click(box(/^CT Morning/));
    fireEvent.click(box(/^MR Morning/));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Apply' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(screen.getByText('Patient 3')).toBeTruthy();
    expect(screen.queryByText('Patient 1')).toBeNull();
    expect(groupNames()).toEqual(['CT Evening']);

    fireEvent.click(screen.getByRole('button', { name: 'Filter by Time Slots' }));
    const again = await screen.findByRole('dialog', {}, WAIT);
    fireEvent.click(within(again).getByRole('button', { name: 'Clear' }));
    fireEvent.click(within(again).getByRole('button', { name: 'Apply' }));
    expect(await screen.findByText('No appointment slots for selected time ranges', {}, WAIT)).toBeTruthy();
  });

  it('says so when the covering windows hold no appointment', SLOW, async () => {
    open({ appointments: [APPOINTMENTS[2]!] });
    expect(await screen.findByText('No appointment slots for selected time ranges', {}, WAIT)).toBeTruthy();
  });

  it('is not shown without appointmentSupportRIS', SLOW, async () => {
    const api = open({ preferences: buildPreferences() });
    await waitFor(() => expect(api.calls('GET', '/api/user/tele-info')).toHaveLength(1), WAIT);
    await new Promise((r) => setTimeout(r, 50));
    expect(screen.queryByText("Today's appointments")).toBeNull();
    expect(api.calls('POST', '/api/lab/appointments/search')).toHaveLength(0);
  });

  it("opens the appointment slip in a new tab, or says 'Error downloading PDF'", SLOW, async () => {
    const tab = { location: { href: '' }, close: vi.fn() };
    vi.stubGlobal(
      'open',
      vi.fn(() => tab),
    );
    URL.createObjectURL = vi.fn(() => 'blob:slip');
    URL.revokeObjectURL = vi.fn();
    const api = open({
      handlers: {
        'GET /api/lab/appointment-slip/print/101': {
          text: '%PDF-1.4',
          headers: { 'Content-Type': 'application/pdf' },
        },
        'GET /api/lab/appointment-slip/print/102': { status: 404, body: errorBody(404, 'No such bill') },
      },
    });
    const slip = async (patient: string) => {
      const card = (await screen.findByText(patient, {}, WAIT)).closest(
        '[data-testid="appointment-card"]',
      ) as HTMLElement;
      fireEvent.click(within(card).getByRole('button', { name: 'Appointment slip' }));
    };
    await slip('Patient 1');
    await waitFor(() => expect(tab.location.href).toBe('blob:slip'), WAIT);
    expect(api.calls('GET', '/api/lab/appointment-slip/print/101')).toHaveLength(1);
    await slip('Patient 2');
    expect(await screen.findByText('Error downloading PDF', {}, WAIT)).toBeTruthy();
    expect(tab.close).toHaveBeenCalled();
  });
});

describe('the Detailed Summary', () => {
  const counts = (key: string, scheduled: number, paid: number, partiallyPaid: number) => ({
    key,
    scheduled,
    paid,
    partiallyPaid,
    total: scheduled + paid + partiallyPaid,
  });

  async function openSummary(summary: TAppointmentSummary) {
    const api = open({ handlers: { 'POST /api/lab/appointments/summary': { body: summary } } });
    await screen.findByText('Patient 1', {}, WAIT);
    fireEvent.click(screen.getByRole('button', { name: 'Detailed Summary' }));
    const dialog = await screen.findByRole('dialog', {}, WAIT);
    return { api, dialog };
  }

  const chooseCustom = (dialog: HTMLElement) => {
    fireEvent.mouseDown(within(dialog).getByRole('combobox', { name: 'Date type' }));
    fireEvent.click(screen.getByRole('option', { name: 'By Custom Range' }));
  };

  it('refuses a custom range without both dates or over 31 days, before asking', SLOW, async () => {
    const empty = {
      startDay: '2026-03-10',
      endDay: '2026-03-10',
      byAppointmentName: [],
      byModality: [],
      total: counts('Total', 0, 0, 0),
    };
    const { api, dialog } = await openSummary(empty);
    chooseCustom(dialog);
    fireEvent.change(within(dialog).getByLabelText('Start date'), { target: { value: '2026-02-01' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Show' }));
    expect(
      await within(dialog).findByText('Custom range requires start and end dates', {}, WAIT),
    ).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText('End date'), { target: { value: '2026-03-04' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Show' }));
    expect(
      await within(dialog).findByText('Custom range must not be more than 31 days', {}, WAIT),
    ).toBeTruthy();
    expect(api.calls('POST', '/api/lab/appointments/summary')).toHaveLength(0);

    fireEvent.change(within(dialog).getByLabelText('End date'), { target: { value: '2026-03-03' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Show' }));
    expect(
      await within(dialog).findByText('No appointment data found for the selected date range.', {}, WAIT),
    ).toBeTruthy();
    expect(api.calls('POST', '/api/lab/appointments/summary')[0]?.json()).toEqual({
      dateType: 'CUSTOM',
      startDate: '2026-02-01',
      endDate: '2026-03-03',
    });
  });

  it('shows the counts per appointment name and per modality', SLOW, async () => {
    const { api, dialog } = await openSummary({
      startDay: '2026-03-10',
      endDay: '2026-03-10',
      byAppointmentName: [counts('CT Morning', 1, 2, 0), counts('MR Morning', 0, 0, 1)],
      byModality: [counts('CT', 1, 2, 0), counts('MR', 0, 0, 1)],
      total: counts('Total', 1, 2, 1),
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Show' }));
    const byName = await within(dialog).findByRole('table', { name: 'Appointment name' }, WAIT);
    const rows = within(byName)
      .getAllByRole('row')
      .slice(1)
      .map((r) =>
        within(r)
          .getAllByRole('cell')
          .map((c) => c.textContent),
      );
    expect(rows).toEqual([
      ['CT Morning', '1', '2', '0', '3'],
      ['MR Morning', '0', '0', '1', '1'],
      ['Total', '1', '2', '1', '4'],
    ]);
    expect(within(dialog).getByRole('table', { name: 'Modality' })).toBeTruthy();
    expect(api.calls('POST', '/api/lab/appointments/summary')[0]?.json()).toEqual({
      dateType: 'TODAY',
      startDate: null,
      endDate: null,
    });
  });
});
