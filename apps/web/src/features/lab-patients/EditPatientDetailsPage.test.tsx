import type { ReactNode } from 'react';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildPreferences, buildUser, sessionHandlers } from '../../test/builders';
import { fakeApi, type TRecordedRequest } from '../../test/fake-api';
import { renderScreen } from '../../test/render';
import { useSession } from '../auth/session';
import { EditPatientDetailsPage } from './EditPatientDetailsPage';
import { buildPatient, pageOf } from './lab-test-data';

afterEach(() => vi.unstubAllGlobals());

function SignedIn({ children }: { children: ReactNode }) {
  const { data } = useSession();
  return data ? children : null;
}

const ravi = buildPatient({ name: 'Ravi Kumar', uhidNumber: 'UH7', mobileNumber: '9876543210' });
const asha = buildPatient({
  name: 'Asha Rao',
  uhidNumber: 'UH8',
  gender: 'F',
  designation: 'MRS',
  ageString: '5M',
});

function openList(amu: boolean) {
  const user = buildUser(['ROLE_LABS_RECEPTIONIST']);
  const preferences = buildPreferences((p) => {
    p.USER_ADMIN_VISIBLE_PREFERENCES = { ...p.USER_ADMIN_VISIBLE_PREFERENCES, amuSpecialCustomization: amu };
  });
  const api = fakeApi({
    ...sessionHandlers(user, preferences),
    'POST /api/lab/all-patient/search': (req: TRecordedRequest) => {
      const body = req.json<{ name?: string; page: number; size: number }>();
      const rows = body.name ? [ravi] : [ravi, asha];
      return { body: pageOf(rows, body.name ? 1 : 45, body.page, body.size) };
    },
  });
  renderScreen(
    <SignedIn>
      <EditPatientDetailsPage />
    </SignedIn>,
    { path: '/lab/edit-patient-details' },
  );
  const searches = () =>
    api.calls('POST', '/api/lab/all-patient/search').map((r) => r.json<Record<string, unknown>>());
  return { api, searches };
}

describe('Edit Patient Details (/lab/edit-patient-details)', () => {
  it('lists the patients newest first, 20 a page; filters, sorts and pages on the server', async () => {
    const { searches } = openList(false);
    const table = await screen.findByRole('table', { name: 'Patients' });
    expect(await within(table).findByText('MR Ravi Kumar')).toBeTruthy();
    expect(within(table).getByText('MRS Asha Rao')).toBeTruthy();
    expect(within(table).getByText('5M')).toBeTruthy();
    expect(searches()[0]).toEqual({ page: 0, size: 20, orderingCriteria: 'id', sortOrder: 'DESC' });
    expect(screen.queryByLabelText('UHID')).toBeNull();

    fireEvent.change(screen.getByLabelText('Name'), { target: { value: ' ravi ' } });
    await waitFor(() => expect(searches().at(-1)).toMatchObject({ name: 'ravi', page: 0 }));
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: '' } });
    // Back to the first answer (cached): both patients again.
    expect(await within(table).findByText('MRS Asha Rao')).toBeTruthy();

    fireEvent.click(within(table).getByRole('button', { name: 'Name' }));
    await waitFor(() =>
      expect(searches().at(-1)).toMatchObject({ orderingCriteria: 'name', sortOrder: 'ASC' }),
    );
    fireEvent.click(within(table).getByRole('button', { name: 'Name' }));
    await waitFor(() =>
      expect(searches().at(-1)).toMatchObject({ orderingCriteria: 'name', sortOrder: 'DESC' }),
    );

    fireEvent.click(screen.getByRole('button', { name: /next page/i }));
    await waitFor(() => expect(searches().at(-1)).toMatchObject({ page: 1 }));

    fireEvent.mouseDown(screen.getByRole('combobox', { name: 'Gender' }));
    fireEvent.click(screen.getByRole('option', { name: 'Female' }));
    await waitFor(() => expect(searches().at(-1)).toMatchObject({ gender: 'F', page: 0 }));
  });

  it('offers the UHID search only when amuSpecialCustomization is on', async () => {
    const { searches } = openList(true);
    fireEvent.change(await screen.findByLabelText('UHID'), { target: { value: 'UH7' } });
    await waitFor(() => expect(searches().at(-1)).toMatchObject({ uhidNumber: 'UH7' }));
  });

  it('Create Patient opens the empty dialog; Edit opens the row’s patient', async () => {
    openList(false);
    fireEvent.click(await screen.findByRole('button', { name: 'Create Patient' }));
    const create = screen.getByRole('dialog');
    expect(within(create).getByText('Create Patient')).toBeTruthy();
    fireEvent.click(within(create).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    fireEvent.click(await screen.findByRole('button', { name: 'Edit Ravi Kumar (UH7)' }));
    const edit = screen.getByRole('dialog');
    expect(within(edit).getByText('Edit Patient UH7')).toBeTruthy();
    expect((within(edit).getByLabelText('Name', { exact: false }) as HTMLInputElement).value).toBe(
      'Ravi Kumar',
    );
  });
});
