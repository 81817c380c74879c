import type { TCenter, TManagedUser, TRole } from '@radflow/core';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import { buildUser, sessionHandlers } from '../../test/builders';
import { fakeApi, type TFakeReply, type TRecordedRequest } from '../../test/fake-api';
import { renderScreen } from '../../test/render';
import { useSession } from '../auth/session';
import { ManageUsersPage } from './ManageUsersPage';

function SignedIn({ children }: { children: ReactNode }) {
  const { data } = useSession();
  return data ? children : null;
}

const center: TCenter = {
  id: 3,
  name: 'Riverside Imaging',
  email: 'desk@riverside.example',
  aeTitles: ['RIVER_CT'],
  contactName: '',
  contactMobile: null,
  region: '',
  createdAt: '2026-11-26T10:00:00.000Z',
};

let nextId = 100;
function person(roles: TRole[], overrides: Partial<TManagedUser> = {}): TManagedUser {
  nextId += 1;
  return {
    id: nextId,
    email: `user${nextId}@clinic.example`,
    identifier: `User ${nextId}`,
    mobileNumber: null,
    roles,
    centerId: null,
    active: true,
    invitationPending: false,
    doctorIds: [],
    ...overrides,
  };
}

function openPage(
  actorRoles: TRole[],
  people: TManagedUser[],
  extra: Record<string, TFakeReply | ((r: TRecordedRequest) => TFakeReply)> = {},
) {
  const api = fakeApi({
    ...sessionHandlers(buildUser(actorRoles)),
    'GET /api/admin/users': { body: people },
    'GET /api/admin/centers': { body: [center] },
    ...extra,
  });
  renderScreen(
    <SignedIn>
      <ManageUsersPage />
    </SignedIn>,
    { path: '/manage-users' },
  );
  return api;
}

const type = (label: string, value: string) =>
  fireEvent.change(screen.getByRole('textbox', { name: label }), { target: { value } });

describe('Manage users (/manage-users)', () => {
  it('invites a center user: the role asks for the center, the invitation goes by the chosen channel', async () => {
    const api = openPage(['ROLE_GROUP'], [], {
      'POST /api/admin/users': (req) => ({
        body: person(req.json<{ roles: TRole[] }>().roles, { invitationPending: true }),
      }),
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Invite user' }));
    type('E-mail', 'reception@riverside.example');
    type('Name', 'Front Desk');
    type('Mobile', '9876512345');
    fireEvent.click(screen.getByRole('checkbox', { name: 'Center' }));
    fireEvent.click(screen.getByRole('radio', { name: 'SMS' }));
    fireEvent.click(screen.getByRole('button', { name: 'Send invitation' }));
    expect(await screen.findByText('A center role needs a center')).toBeTruthy();
    expect(api.calls('POST', '/api/admin/users')).toHaveLength(0);

    fireEvent.mouseDown(screen.getByRole('combobox', { name: 'Center' }));
    fireEvent.click(await screen.findByRole('option', { name: 'Riverside Imaging' }));
    fireEvent.click(screen.getByRole('button', { name: 'Send invitation' }));
    await waitFor(() => expect(api.calls('POST', '/api/admin/users')).toHaveLength(1));
    expect(api.calls('POST', '/api/admin/users')[0]?.json()).toEqual({
      email: 'reception@riverside.example',
      identifier: 'Front Desk',
      mobileNumber: '9876512345',
      roles: ['ROLE_CENTER'],
      centerId: 3,
      channel: 'SMS',
    });
  });

  it('offers an admin only the roles at or below their own', async () => {
    openPage(['ROLE_ADMIN'], []);
    fireEvent.click(await screen.findByRole('button', { name: 'Invite user' }));
    const roles = within(screen.getByRole('group', { name: 'Roles' }));
    expect(roles.getByRole('checkbox', { name: 'Doctor' })).toBeTruthy();
    expect(roles.getByRole('checkbox', { name: 'Admin' })).toBeTruthy();
    expect(roles.queryByRole('checkbox', { name: 'Group' })).toBeNull();
    expect(roles.queryByRole('checkbox', { name: 'Viewer' })).toBeNull();
    expect(roles.queryByRole('checkbox', { name: 'Customer' })).toBeNull();
  });

  it("shows each user's state; a group admin's row has no actions for an admin", async () => {
    const pending = person(['ROLE_DOCTOR'], { invitationPending: true });
    const gone = person(['ROLE_TYPIST'], { active: false });
    const owner = person(['ROLE_GROUP']);
    openPage(['ROLE_ADMIN'], [pending, gone, owner]);
    const table = await screen.findByRole('table', { name: 'Users' });
    const row = (u: TManagedUser) => within(within(table).getByRole('row', { name: u.email }));
    await within(table).findByText(pending.email);
    expect(row(pending).getByText('Invitation pending')).toBeTruthy();
    expect(row(pending).getByRole('button', { name: 'Resend invitation' })).toBeTruthy();
    expect(row(gone).getByText('Deactivated')).toBeTruthy();
    expect(row(gone).getByRole('button', { name: 'Activate' })).toBeTruthy();
    expect(row(owner).queryAllByRole('button')).toHaveLength(0);
  });

  it('deactivates after a confirm, and maps a typist to doctors', async () => {
    const doctor = person(['ROLE_DOCTOR'], { identifier: 'Dr. Sen' });
    const typist = person(['ROLE_TYPIST'], { identifier: 'Typist Tara' });
    const api = openPage(['ROLE_GROUP'], [doctor, typist], {
      [`POST /api/admin/users/${doctor.id}/deactivate`]: { body: { ...doctor, active: false } },
      [`PUT /api/admin/users/${typist.id}/doctors`]: (req) => ({
        body: { ...typist, doctorIds: req.json<{ doctorIds: number[] }>().doctorIds },
      }),
    });
    const table = await screen.findByRole('table', { name: 'Users' });
    await within(table).findByText(doctor.email);
    fireEvent.click(
      within(within(table).getByRole('row', { name: doctor.email })).getByRole('button', {
        name: 'Deactivate',
      }),
    );
    fireEvent.click(await screen.findByRole('button', { name: 'Confirm' }));
    await waitFor(() =>
      expect(api.calls('POST', `/api/admin/users/${doctor.id}/deactivate`)).toHaveLength(1),
    );

    fireEvent.click(
      within(within(table).getByRole('row', { name: typist.email })).getByRole('button', { name: 'Doctors' }),
    );
    fireEvent.click(await screen.findByRole('checkbox', { name: `Dr. Sen (${doctor.email})` }));
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(api.calls('PUT', `/api/admin/users/${typist.id}/doctors`)).toHaveLength(1));
    expect(api.calls('PUT', `/api/admin/users/${typist.id}/doctors`)[0]?.json()).toEqual({
      doctorIds: [doctor.id],
    });
  });

  it('shows the recent changes of the group, named', async () => {
    const doctor = person(['ROLE_DOCTOR'], { identifier: 'Dr. Sen' });
    openPage(['ROLE_GROUP'], [doctor], {
      'GET /api/admin/audit': {
        body: [
          {
            id: 2,
            action: 'USER_DEACTIVATED',
            actorEmail: 'group@clinic.example',
            targetType: 'USER',
            targetId: doctor.id,
            detail: {},
            createdAt: '2026-11-26T10:05:00.000Z',
          },
          {
            id: 1,
            action: 'CENTER_CREATED',
            actorEmail: 'group@clinic.example',
            targetType: 'CENTER',
            targetId: center.id,
            detail: {},
            createdAt: '2026-11-26T10:00:00.000Z',
          },
        ],
      },
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Show recent changes' }));
    const table = await screen.findByRole('table', { name: 'Recent changes' });
    await within(table).findByText('User deactivated');
    const rows = within(table).getAllByRole('row');
    expect(
      rows.slice(1).map((r) =>
        within(r)
          .getAllByRole('cell')
          .slice(1)
          .map((c) => c.textContent),
      ),
    ).toEqual([
      ['User deactivated', doctor.email, 'group@clinic.example'],
      ['Center added', 'Riverside Imaging', 'group@clinic.example'],
    ]);
  });
});
