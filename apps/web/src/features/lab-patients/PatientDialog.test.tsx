import { LAB_PATIENT_MESSAGES as M, type TLabPatient } from '@radflow/core';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi } from '../../test/fake-api';
import { renderScreen } from '../../test/render';
import { PatientDialog } from './PatientDialog';
import { buildPatient } from './lab-test-data';

afterEach(() => vi.unstubAllGlobals());

const dialog = () => screen.getByRole('dialog');
const type = (label: string, value: string) =>
  fireEvent.change(within(dialog()).getByLabelText(label, { exact: false }), { target: { value } });
const choose = (label: string, option: string) => {
  fireEvent.mouseDown(within(dialog()).getByRole('combobox', { name: label }));
  fireEvent.click(screen.getByRole('option', { name: option }));
};
const valueOf = (label: string) =>
  (within(dialog()).getByLabelText(label, { exact: false }) as HTMLInputElement).value;

function open(patient: TLabPatient | null, onSaved = vi.fn()) {
  const onClose = vi.fn();
  renderScreen(<PatientDialog patient={patient} onClose={onClose} onSaved={onSaved} />, {
    path: '/lab/registration',
  });
  return { onClose, onSaved };
}

describe('the patient dialog (spec-lab §5 Patient)', () => {
  it('names every missing field and a bad mobile before sending anything', async () => {
    const api = fakeApi({});
    open(null);
    fireEvent.click(within(dialog()).getByRole('button', { name: 'Create' }));
    expect(await within(dialog()).findByText(M.nameRequired)).toBeTruthy();
    expect(within(dialog()).getByText(M.designationRequired)).toBeTruthy();
    expect(within(dialog()).getByText(M.genderRequired)).toBeTruthy();

    type('Name', 'Ravi Kumar');
    choose('Designation', 'MR');
    choose('Gender', 'Male');
    for (const bad of ['98765', '5876543210', '98765abcde']) {
      type('Mobile number', bad);
      fireEvent.click(within(dialog()).getByRole('button', { name: 'Create' }));
      expect(
        await within(dialog()).findByText('Mobile number should be 10 digit and start with 6,7,8 or 9'),
      ).toBeTruthy();
    }
    expect(api.requests).toHaveLength(0);
  });

  it('keeps age parts absolute and within 150 years, 11 months, 30 days, and shows the age string', () => {
    fakeApi({});
    open(null);
    type('Age years', '-34');
    expect(valueOf('Age years')).toBe('34');
    type('Age years', '200');
    expect(valueOf('Age years')).toBe('150');
    type('Age months', '15');
    expect(valueOf('Age months')).toBe('11');
    type('Age days', '45');
    expect(valueOf('Age days')).toBe('30');
    expect(within(dialog()).getByText('Age: 150Y')).toBeTruthy();
    type('Age years', '');
    expect(within(dialog()).getByText('Age: 11M')).toBeTruthy();
    type('Age months', '');
    expect(within(dialog()).getByText('Age: 30D')).toBeTruthy();
  });

  it("creates: 'Creating Patient' while it saves, then 'Patient Created' and the saved patient", async () => {
    const saved = buildPatient({ name: 'Ravi Kumar', mobileNumber: '9876543210', ageYears: 34 });
    let release!: () => void;
    const api = fakeApi({
      'POST /api/lab/register-patient': () =>
        new Promise((resolve) => {
          release = () => resolve({ body: saved });
        }),
    });
    const { onSaved, onClose } = open(null);
    type('Name', ' Ravi Kumar ');
    choose('Designation', 'MR');
    choose('Gender', 'Male');
    type('Mobile number', '9876543210');
    type('Age years', '34');
    fireEvent.click(within(dialog()).getByRole('button', { name: 'Create' }));

    expect(await screen.findByText(M.creating)).toBeTruthy();
    release();
    expect(await screen.findByText(M.created)).toBeTruthy();
    await waitFor(() => expect(onSaved).toHaveBeenCalledWith(saved));
    expect(onClose).toHaveBeenCalled();
    expect(screen.queryByText(M.creating)).toBeNull();
    expect(api.calls('POST', '/api/lab/register-patient')[0]?.json()).toEqual({
      name: 'Ravi Kumar',
      designation: 'MR',
      gender: 'M',
      mobileNumber: '9876543210',
      email: null,
      address: null,
      weight: null,
      dateBirth: null,
      ageYears: 34,
      ageMonths: 0,
      ageDays: 0,
    });
  });

  it("edits: PUT with the id and version, 'Updating Patient', 'Patient Updated'; a conflict is shown in the dialog", async () => {
    const patient = buildPatient({ name: 'Asha Rao', designation: 'MRS', gender: 'F', version: 3 });
    let conflict = true;
    const api = fakeApi({
      'PUT /api/lab/register-patient': () =>
        conflict
          ? {
              status: 409,
              body: {
                errorStatusCode: 409,
                errorDescription: M.stale,
                additionalInfo: 'version',
                txnId: 't',
              },
            }
          : { body: { ...patient, name: 'Asha R', version: 4 } },
    });
    const { onSaved } = open(patient);
    expect(valueOf('Name')).toBe('Asha Rao');
    type('Name', 'Asha R');
    fireEvent.click(within(dialog()).getByRole('button', { name: 'Update' }));
    expect(await within(dialog()).findByText(M.stale)).toBeTruthy();
    expect(onSaved).not.toHaveBeenCalled();

    conflict = false;
    fireEvent.click(within(dialog()).getByRole('button', { name: 'Update' }));
    expect(await screen.findByText(M.updated)).toBeTruthy();
    const body = api.calls('PUT', '/api/lab/register-patient')[1]?.json<Record<string, unknown>>();
    expect(body).toMatchObject({
      id: patient.id,
      version: 3,
      name: 'Asha R',
      designation: 'MRS',
      gender: 'F',
    });
  });

  it('a date of birth fills in the age', () => {
    fakeApi({});
    open(null);
    const year = new Date().getUTCFullYear() - 5;
    type('Date of birth', `${year}-01-01`);
    expect(Number(valueOf('Age years'))).toBeGreaterThanOrEqual(4);
  });
});
