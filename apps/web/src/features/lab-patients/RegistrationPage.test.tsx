import { type ReactNode, useState } from 'react';
import type { TBillListRow, TReferringDoctor } from '@radflow/core';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildPreferences, buildUser, sessionHandlers } from '../../test/builders';
import { fakeApi, type TRecordedRequest } from '../../test/fake-api';
import { renderRoutes, renderScreen } from '../../test/render';
import { useSession } from '../auth/session';
import { savedBill } from '../lab-bills/test-bills';
import { APPOINTMENTS_SECTION_LABEL, BILLS_SECTION_LABEL, RegistrationPage } from './RegistrationPage';
import { ReferringDoctorPicker } from './ReferringDoctorPicker';
import { buildDoctor, buildPatient, pageOf } from './lab-test-data';

afterEach(() => vi.unstubAllGlobals());

const ravi = buildPatient({ name: 'Ravi Kumar', mobileNumber: '9876543210', uhidNumber: 'UH41' });
const rahul = buildPatient({ name: 'Rahul Sharma', mobileNumber: '9811111111', uhidNumber: 'UH42' });

function SignedIn({ children }: { children: ReactNode }) {
  const { data } = useSession();
  return data ? children : null;
}

/** A bill as POST /api/lab/bill/search lists it. */
// Typed: a field the server adds fails here, not only when the client's answer check refuses it.
const BILL_ROW: TBillListRow = {
  id: 501,
  version: 3,
  status: 'OPEN',
  invoiceNumber: 'INV-0501',
  uhidNumber: 'UH41',
  patientName: 'Ravi Kumar',
  mobileNumber: '9876543210',
  referringDoctorName: null,
  tests: ['CT: CT01 CT Head (1500)'],
  modalities: ['CT'],
  reportStatuses: [{ testCode: 'CT01', status: 'PENDING', studyInstanceUid: null, reportStatusId: null }],
  categories: [],
  priorities: [],
  totalPrice: 1500,
  finalAmount: 1500,
  dueAmount: 1500,
  billDate: savedBill().billDate,
  createdAt: savedBill().billDate,
};

function openRegistration(handlers: Parameters<typeof fakeApi>[0] = {}, appointmentSupportRIS = false) {
  const preferences = buildPreferences(
    (p) => (p.GROUP_SWITCHES.appointmentSupportRIS = appointmentSupportRIS),
  );
  const api = fakeApi({
    ...sessionHandlers(buildUser(['ROLE_LABS_RECEPTIONIST']), preferences),
    'POST /api/lab/bill/search': {
      body: { content: [BILL_ROW], totalElements: 1, totalRelation: 'eq', page: 0, size: 20 },
    },
    'POST /api/lab/get-all-slot': { body: { slots: [], blockedDays: {} } },
    'POST /api/lab/appointments/search': { body: { appointments: [] } },
    'POST /api/lab/register-patient/search': (req: TRecordedRequest) => {
      const body = req.json<{ name?: string; mobileNumber?: string }>();
      const all = [ravi, rahul];
      return {
        body: body.name
          ? all.filter((p) => p.name.toLowerCase().startsWith(body.name!.toLowerCase()))
          : all.filter((p) => p.mobileNumber?.startsWith(body.mobileNumber ?? '-')),
      };
    },
    ...handlers,
  });
  const view = renderRoutes(
    [
      {
        path: '/lab/registration',
        element: (
          <SignedIn>
            <RegistrationPage />
          </SignedIn>
        ),
      },
      { path: '/lab/create-bill/:id?', element: <p>Bill screen</p> },
    ],
    '/lab/registration',
  );
  const searches = () => api.calls('POST', '/api/lab/register-patient/search').map((r) => r.json());
  return { api, view, searches };
}
const findBox = () => screen.getByRole('combobox', { name: 'Find patient' });
const WAIT = { timeout: 15_000 };

describe('Patient Registration (/lab/registration)', () => {
  it('finds a patient as you type (a name, then a mobile) and goes on to the bill with it', async () => {
    const { searches, view } = openRegistration();
    await screen.findByRole('combobox', { name: 'Find patient' }, WAIT);
    expect((screen.getByRole('button', { name: 'Create Bill' }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.change(findBox(), { target: { value: 'ra' } });
    expect(await screen.findByRole('option', { name: /Ravi Kumar/ })).toBeTruthy();
    expect(screen.getByRole('option', { name: /Rahul Sharma/ })).toBeTruthy();
    expect(searches()).toContainEqual({ name: 'ra' });

    fireEvent.change(findBox(), { target: { value: '9876' } });
    await waitFor(() => expect(screen.queryByRole('option', { name: /Rahul Sharma/ })).toBeNull());
    expect(searches()).toContainEqual({ mobileNumber: '9876' });
    fireEvent.click(screen.getByRole('option', { name: /Ravi Kumar/ }));

    const chosen = screen.getByRole('group', { name: 'Selected patient' });
    expect(within(chosen).getByText('MR Ravi Kumar')).toBeTruthy();
    expect(within(chosen).getByText(/UHID UH41/)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Create Bill' }));
    expect(await screen.findByText('Bill screen')).toBeTruthy();
    expect(view.router.state.location.pathname).toBe('/lab/create-bill');
    expect(view.router.state.location.search).toBe(`?patientId=${ravi.id}`);
  });

  it('blank text asks nothing', async () => {
    const { searches } = openRegistration();
    await screen.findByRole('combobox', { name: 'Find patient' }, WAIT);
    fireEvent.change(findBox(), { target: { value: '   ' } });
    await new Promise((r) => setTimeout(r, 300));
    expect(searches()).toHaveLength(0);
  });

  it('registers a new patient with the typed mobile, then that patient is the one chosen', async () => {
    const created = buildPatient({
      name: 'Meera Nair',
      mobileNumber: '9000000001',
      uhidNumber: 'UH99',
      gender: 'F',
    });
    const { api } = openRegistration({ 'POST /api/lab/register-patient': { body: created } });
    await screen.findByRole('combobox', { name: 'Find patient' }, WAIT);
    fireEvent.change(findBox(), { target: { value: '9000000001' } });
    fireEvent.click(screen.getByRole('button', { name: 'Register New Patient' }));
    const dialog = screen.getByRole('dialog');
    expect((within(dialog).getByLabelText('Mobile number') as HTMLInputElement).value).toBe('9000000001');
    fireEvent.change(within(dialog).getByLabelText('Name', { exact: false }), {
      target: { value: 'Meera Nair' },
    });
    fireEvent.mouseDown(within(dialog).getByRole('combobox', { name: 'Designation' }));
    fireEvent.click(screen.getByRole('option', { name: 'MRS' }));
    fireEvent.mouseDown(within(dialog).getByRole('combobox', { name: 'Gender' }));
    fireEvent.click(screen.getByRole('option', { name: 'Female' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(await screen.findByText('Patient Created')).toBeTruthy();
    expect(api.calls('POST', '/api/lab/register-patient')[0]?.json()).toMatchObject({
      name: 'Meera Nair',
      mobileNumber: '9000000001',
      designation: 'MRS',
      gender: 'F',
    });
    const chosen = await screen.findByRole('group', { name: 'Selected patient' });
    expect(within(chosen).getByText(/UHID UH99/)).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Create Bill' }) as HTMLButtonElement).disabled).toBe(false);
  });
});

describe("the front desk under the finder: bills and today's appointments", () => {
  it('shows the billing list under the finder; no appointments without appointmentSupportRIS', async () => {
    const { api } = openRegistration();
    await screen.findByRole('combobox', { name: 'Find patient' }, WAIT);
    expect(screen.getByRole('heading', { name: BILLS_SECTION_LABEL })).toBeTruthy();
    const list = screen.getByRole('region', { name: 'Lab billing list' });
    expect(await within(list).findByTestId('bill-row-501', {}, WAIT)).toBeTruthy();
    expect(within(list).getByRole('link', { name: 'Create Bill' })).toBeTruthy();
    expect(screen.queryByRole('tab', { name: APPOINTMENTS_SECTION_LABEL })).toBeNull();
    expect(api.calls('POST', '/api/lab/appointments/search')).toHaveLength(0);
  });

  it("under appointmentSupportRIS offers Bills and Today's appointments as tabs", async () => {
    const { api } = openRegistration({}, true);
    await screen.findByRole('combobox', { name: 'Find patient' }, WAIT);
    const bills = screen.getByRole('tab', { name: BILLS_SECTION_LABEL });
    expect(bills.getAttribute('aria-selected')).toBe('true');
    expect(await screen.findByTestId('bill-row-501', {}, WAIT)).toBeTruthy();
    fireEvent.click(screen.getByRole('tab', { name: APPOINTMENTS_SECTION_LABEL }));
    await waitFor(() => expect(api.calls('POST', '/api/lab/appointments/search')).toHaveLength(1), WAIT);
    expect(screen.queryByRole('region', { name: 'Lab billing list' })).toBeNull();
    fireEvent.click(screen.getByRole('tab', { name: BILLS_SECTION_LABEL }));
    expect(await screen.findByTestId('bill-row-501', {}, WAIT)).toBeTruthy();
  });
});

describe('the referring doctor picker (for the bill screen)', () => {
  function Host() {
    const [doctor, setDoctor] = useState<TReferringDoctor | null>(null);
    return (
      <>
        <ReferringDoctorPicker value={doctor} onChange={setDoctor} />
        <p>Chosen: {doctor?.name ?? 'none'}</p>
      </>
    );
  }

  it('asks for active doctors only, reads content, and asks nothing for blank text', async () => {
    const rao = buildDoctor({ name: 'Dr Anand Rao', department: 'CARDIOLOGY' });
    const api = fakeApi({ 'POST /api/lab/referring-doctor/search': { body: pageOf([rao]) } });
    renderScreen(<Host />);
    const box = screen.getByRole('combobox', { name: 'Referring doctor' });
    box.focus();
    fireEvent.change(box, { target: { value: '  ' } });
    await new Promise((r) => setTimeout(r, 300));
    expect(api.calls('POST', '/api/lab/referring-doctor/search')).toHaveLength(0);
    fireEvent.change(box, { target: { value: 'rao' } });
    fireEvent.click(await screen.findByRole('option', { name: /Dr Anand Rao · CARDIOLOGY/ }));
    expect(screen.getByText('Chosen: Dr Anand Rao')).toBeTruthy();
    expect(api.calls('POST', '/api/lab/referring-doctor/search')[0]?.json()).toEqual({
      mobileOrName: 'rao',
      active: true,
      criteria: { size: 20 },
    });
  });
});
