import type { TAuditRow } from '@radflow/core';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fakeApi, type TRecordedRequest } from '../../test/fake-api';
import { renderScreen } from '../../test/render';
import { AuditLoginsPage } from './AuditLoginsPage';

const page = <T,>(content: T[], number = 0, size = 20) => ({
  content,
  totalElements: content.length,
  pageable: { pageNumber: number, pageSize: size },
  totalPages: content.length ? 1 : 0,
  size,
  numberOfElements: content.length,
  number,
  first: true,
  last: true,
  empty: content.length === 0,
});

const pendingRow: TAuditRow = {
  status: 'PENDING',
  deviceId: '7d444840-9dc0-11d1-b245-5ffdce74fad2',
  deviceName: 'Chrome on Windows',
  email: 'doctor@demo.local',
  firstApprovedAt: null,
  createdAt: '2026-01-05T09:00:00.000Z',
  lastSeenAt: '2026-01-05T09:00:00.000Z',
};

describe('AuditLoginsPage', () => {
  it('lists pending devices first and approves one after a confirm', async () => {
    const approvedRow: TAuditRow = {
      ...pendingRow,
      status: 'APPROVED',
      deviceId: 'a1',
      email: 'admin@demo.local',
      firstApprovedAt: '2026-01-01T00:00:00Z',
    };
    const api = fakeApi({
      'POST /api/user/audit/search': { body: page([approvedRow, pendingRow]) },
      'POST /api/user/audit/update-approval-status': (req: TRecordedRequest) => ({
        body: {
          ...pendingRow,
          status: req.json<{ status: string }>().status,
          firstApprovedAt: '2026-01-05T10:00:00Z',
        },
      }),
    });
    renderScreen(<AuditLoginsPage />, { path: '/audit-logins' });

    const table = await screen.findByRole('table', { name: 'Devices' });
    expect(await within(table).findByText('doctor@demo.local')).toBeTruthy();
    expect(api.calls('POST', '/api/user/audit/search')[0]?.json()).toEqual({
      page: 0,
      size: 20,
      sortOrder: 'DESC',
      orderingCriteria: 'lastSeenAt',
      filters: {},
    });
    const emails = within(table)
      .getAllByRole('row')
      .slice(1)
      .map((r) => r.querySelector('td')?.textContent);
    expect(emails).toEqual(['doctor@demo.local', 'admin@demo.local']);

    fireEvent.click(
      within(table).getByRole('switch', { name: 'Approve Chrome on Windows for doctor@demo.local' }),
    );
    const dialog = await screen.findByRole('dialog');
    expect(dialog.textContent).toContain('Allow doctor@demo.local to sign in from “Chrome on Windows”?');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Confirm' }));

    expect((await screen.findByRole('status')).textContent).toBe('Device approved');
    expect(api.calls('POST', '/api/user/audit/update-approval-status')[0]?.json()).toEqual({
      status: 'APPROVED',
      deviceId: pendingRow.deviceId,
      email: 'doctor@demo.local',
    });
    await waitFor(() => expect(api.calls('POST', '/api/user/audit/search').length).toBeGreaterThan(1));
  });

  it('filters by status', async () => {
    const api = fakeApi({ 'POST /api/user/audit/search': { body: page([]) } });
    renderScreen(<AuditLoginsPage />, { path: '/audit-logins' });
    fireEvent.mouseDown(await screen.findByRole('combobox', { name: 'Status' }));
    fireEvent.click(await screen.findByRole('option', { name: 'PENDING' }));
    await waitFor(() =>
      expect(api.calls('POST', '/api/user/audit/search').at(-1)?.json()).toMatchObject({
        filters: { status: 'PENDING' },
      }),
    );
  });

  it('does nothing when the confirm is cancelled', async () => {
    const api = fakeApi({ 'POST /api/user/audit/search': { body: page([pendingRow]) } });
    renderScreen(<AuditLoginsPage />, { path: '/audit-logins' });
    fireEvent.click(await screen.findByRole('button', { name: 'Reject' }));
    fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(api.calls('POST', '/api/user/audit/update-approval-status')).toHaveLength(0);
  });

  it("says 'No result found' for an empty page and shows the sign-in log tab", async () => {
    fakeApi({
      'POST /api/user/audit/search': { body: page([]) },
      'POST /api/user/audit/search-logs': {
        body: page([
          {
            id: 1,
            eventType: 'LOGIN_DEVICE_PENDING',
            email: 'doctor@demo.local',
            deviceId: pendingRow.deviceId,
            deviceName: 'Chrome on Windows',
            clientAddress: '10.0.0.7',
            actorEmail: null,
            detail: null,
            createdAt: '2026-01-05T09:00:00.000Z',
          },
        ]),
      },
    });
    renderScreen(<AuditLoginsPage />, { path: '/audit-logins' });
    expect(await screen.findByText('No result found')).toBeTruthy();
    fireEvent.click(screen.getByRole('tab', { name: 'Sign-in log' }));
    const log = await screen.findByRole('table', { name: 'Sign-in log' });
    expect(await within(log).findByText('Device awaiting approval')).toBeTruthy();
    expect(within(log).getByText('10.0.0.7')).toBeTruthy();
  });
});
