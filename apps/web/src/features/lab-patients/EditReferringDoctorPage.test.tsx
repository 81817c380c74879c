import { REFERRING_DOCTOR_MESSAGES as M, type TReferringDoctor } from '@radflow/core';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, type TRecordedRequest } from '../../test/fake-api';
import { renderScreen } from '../../test/render';
import { EditReferringDoctorPage } from './EditReferringDoctorPage';
import { LAB_PREFERENCES, buildDoctor, pageOf } from './lab-test-data';

afterEach(() => vi.unstubAllGlobals());

const rao = buildDoctor({ name: 'Dr Anand Rao', mobileNumber: '9876500001', department: 'CARDIOLOGY' });
const sen = buildDoctor({ name: 'Dr Bela Sen', active: false });

function openList(handlers: Parameters<typeof fakeApi>[0] = {}) {
  let doctors: TReferringDoctor[] = [rao, sen];
  const api = fakeApi({
    'GET /api/lab/get-preferences': { body: LAB_PREFERENCES },
    'POST /api/lab/referring-doctor/search': (req: TRecordedRequest) => {
      const body = req.json<{ mobileOrName?: string }>();
      const rows = doctors.filter(
        (d) => !body.mobileOrName || d.name.toLowerCase().includes(body.mobileOrName),
      );
      return { body: pageOf(rows) };
    },
    ...handlers,
  });
  renderScreen(<EditReferringDoctorPage />, { path: '/lab/edit-referring-doctor' });
  return { api, setDoctors: (next: TReferringDoctor[]) => (doctors = next) };
}
const confirmDialog = async (message: string) => {
  const text = await screen.findByText(message);
  return text.closest('[role="dialog"]') as HTMLElement;
};

describe('Edit Referring Doctor (/lab/edit-referring-doctor)', () => {
  it('lists the doctors with department (None when unset) and status; searches by name or mobile', async () => {
    const { api } = openList();
    const table = await screen.findByRole('table', { name: 'Referring doctors' });
    expect(await within(table).findByText('Dr Anand Rao')).toBeTruthy();
    expect(within(table).getByText('CARDIOLOGY')).toBeTruthy();
    expect(within(table).getByText('None')).toBeTruthy();
    expect((screen.getByRole('switch', { name: 'Active: Dr Bela Sen' }) as HTMLInputElement).checked).toBe(
      false,
    );
    fireEvent.change(screen.getByLabelText('Name or mobile'), { target: { value: 'rao' } });
    await waitFor(() =>
      expect(api.calls('POST', '/api/lab/referring-doctor/search').at(-1)?.json()).toMatchObject({
        mobileOrName: 'rao',
        criteria: { page: 0, size: 20, orderingCriteria: 'name', sortOrder: 'ASC' },
      }),
    );
    await waitFor(() => expect(within(table).queryByText('Dr Bela Sen')).toBeNull());
  });

  it('the toggle asks with the target state, then saves; a refusal says Error updating the status', async () => {
    let refuse = false;
    const { api } = openList({
      'PUT /api/lab/referring-doctor': () =>
        refuse
          ? {
              status: 409,
              body: { errorStatusCode: 409, errorDescription: M.stale, additionalInfo: null, txnId: 't' },
            }
          : { body: { ...rao, active: false, version: 2 } },
    });
    fireEvent.click(await screen.findByRole('switch', { name: 'Active: Dr Anand Rao' }));
    const ask = await confirmDialog('Are you sure you want to change the status to Inactive?');
    fireEvent.click(within(ask).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByText(/change the status/)).toBeNull());
    expect(api.calls('PUT', '/api/lab/referring-doctor')).toHaveLength(0);

    fireEvent.click(screen.getByRole('switch', { name: 'Active: Dr Anand Rao' }));
    fireEvent.click(
      within(await confirmDialog('Are you sure you want to change the status to Inactive?')).getByRole(
        'button',
        { name: 'Confirm' },
      ),
    );
    await waitFor(() => expect(api.calls('PUT', '/api/lab/referring-doctor')).toHaveLength(1));
    expect(api.calls('PUT', '/api/lab/referring-doctor')[0]?.json()).toEqual({
      id: rao.id,
      version: 1,
      name: 'Dr Anand Rao',
      mobileNumber: '9876500001',
      department: 'CARDIOLOGY',
      active: false,
    });

    refuse = true;
    fireEvent.click(screen.getByRole('switch', { name: 'Active: Dr Bela Sen' }));
    fireEvent.click(
      within(await confirmDialog('Are you sure you want to change the status to Active?')).getByRole(
        'button',
        { name: 'Confirm' },
      ),
    );
    expect(await screen.findByText(M.statusError)).toBeTruthy();
  });

  it('creating: cannot be made inactive, department None is null, asks first, then Referring Doctor Created', async () => {
    const created = buildDoctor({ name: 'Dr Chetan Vyas' });
    let release!: () => void;
    const { api } = openList({
      'POST /api/lab/referring-doctor': () =>
        new Promise((resolve) => {
          release = () => resolve({ body: created });
        }),
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Create Referring Doctor' }));
    const dialog = screen.getByRole('dialog');
    fireEvent.click(within(dialog).getByRole('switch'));
    expect(
      await within(dialog).findByText('Refering doctor cannot be deactivated during creation.'),
    ).toBeTruthy();
    expect((within(dialog).getByRole('switch') as HTMLInputElement).checked).toBe(true);

    fireEvent.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(await within(dialog).findByText(M.nameRequired)).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText('Name', { exact: false }), {
      target: { value: 'Dr Chetan Vyas' },
    });
    fireEvent.change(within(dialog).getByLabelText('Mobile number'), { target: { value: '123' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(await within(dialog).findByText(M.mobileInvalid)).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText('Mobile number'), { target: { value: '' } });

    fireEvent.click(within(dialog).getByRole('button', { name: 'Create' }));
    const ask = await confirmDialog(M.createConfirm);
    fireEvent.click(within(ask).getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByText('Creating Referring Doctor')).toBeTruthy();
    release();
    expect(await screen.findByText(M.created)).toBeTruthy();
    await waitFor(() => expect(screen.queryByText('Creating Referring Doctor')).toBeNull());
    expect(api.calls('POST', '/api/lab/referring-doctor')[0]?.json()).toEqual({
      name: 'Dr Chetan Vyas',
      mobileNumber: null,
      department: null,
      active: true,
    });
  });

  it('editing: a set department is fixed; the save says Referring Doctor Updated', async () => {
    const { api } = openList({
      'PUT /api/lab/referring-doctor': { body: { ...rao, name: 'Dr A Rao', version: 2 } },
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Edit Dr Anand Rao' }));
    const dialog = screen.getByRole('dialog');
    expect(within(dialog).getByRole('combobox', { name: 'Department' }).getAttribute('aria-disabled')).toBe(
      'true',
    );
    expect(within(dialog).getByText('The department cannot be changed once set')).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText('Name', { exact: false }), {
      target: { value: 'Dr A Rao' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Update' }));
    expect(await screen.findByText(M.updated)).toBeTruthy();
    expect(api.calls('PUT', '/api/lab/referring-doctor')[0]?.json()).toMatchObject({
      id: rao.id,
      version: 1,
      name: 'Dr A Rao',
      department: 'CARDIOLOGY',
    });
  });

  it('editing a doctor without a department offers the lab’s referring doctor departments', async () => {
    openList();
    fireEvent.click(await screen.findByRole('button', { name: 'Edit Dr Bela Sen' }));
    const dialog = screen.getByRole('dialog');
    fireEvent.mouseDown(within(dialog).getByRole('combobox', { name: 'Department' }));
    expect(await screen.findByRole('option', { name: 'ORTHOPAEDICS' })).toBeTruthy();
    expect(screen.getByRole('option', { name: 'None' })).toBeTruthy();
    expect(screen.queryByRole('option', { name: 'RADIOLOGY' })).toBeNull();
  });
});
