import { useState } from 'react';
import type { TReferringDoctor } from '@radflow/core';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, type TRecordedRequest } from '../../test/fake-api';
import { renderRoutes, renderScreen } from '../../test/render';
import { RegistrationPage } from './RegistrationPage';
import { ReferringDoctorPicker } from './ReferringDoctorPicker';
import { buildDoctor, buildPatient, pageOf } from './lab-test-data';

afterEach(() => vi.unstubAllGlobals());

const ravi = buildPatient({ name: 'Ravi Kumar', mobileNumber: '9876543210', uhidNumber: 'UH41' });
const rahul = buildPatient({ name: 'Rahul Sharma', mobileNumber: '9811111111', uhidNumber: 'UH42' });

function openRegistration(handlers: Parameters<typeof fakeApi>[0] = {}) {
  const api = fakeApi({
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
      { path: '/lab/registration', element: <RegistrationPage /> },
      { path: '/lab/create-bill/:id?', element: <p>Bill screen</p> },
    ],
    '/lab/registration',
  );
  const searches = () => api.calls('POST', '/api/lab/register-patient/search').map((r) => r.json());
  return { api, view, searches };
}
const findBox = () => screen.getByRole('combobox', { name: 'Find patient' });

describe('Patient Registration (/lab/registration)', () => {
  it('finds a patient as you type (a name, then a mobile) and goes on to the bill with it', async () => {
    const { searches, view } = openRegistration();
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
