import { NOTIFICATION_KINDS, type TNotification, type TNotificationsPage } from '@radflow/core';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { buildUser, sessionHandlers } from '../../test/builders';
import { fakeApi } from '../../test/fake-api';
import { renderRoutes } from '../../test/render';
import { NotificationBell } from './NotificationBell';

const notification = (over: Partial<TNotification>): TNotification => ({
  id: 1,
  kind: 'ASSIGNED_TO_YOU',
  eventType: 'ASSIGNED',
  reportStatusId: 41,
  studyId: 7,
  studyInstanceUid: '1.2.3',
  apiVersion: 2,
  patientName: 'DOE^JANE',
  studyName: 'CT CHEST',
  actor: 'Asha Assignor',
  at: '2026-11-27T05:00:00.000Z',
  seen: false,
  ...over,
});
const page = (notifications: TNotification[]): TNotificationsPage => ({
  unseen: notifications.filter((n) => !n.seen).length,
  notifications,
  more: false,
  popupKinds: [...NOTIFICATION_KINDS],
  browserNotifications: false,
});

function renderBell() {
  return renderRoutes(
    [
      { path: '/', element: <NotificationBell /> },
      { path: '/viewer/:uids/:id', element: <p>The viewer</p> },
    ],
    '/',
  );
}

describe('the notification bell', () => {
  it('counts, lists, marks all read, pops up what arrives later, and opens its study', async () => {
    const assigned = notification({});
    const message = notification({ id: 2, kind: 'MESSAGE', eventType: 'CHAT_MESSAGE_SENT', actor: 'Center' });
    let answer = page([assigned]);
    const api = fakeApi({
      ...sessionHandlers(buildUser(['ROLE_DOCTOR'])),
      'GET /api/notifications': () => ({ body: answer }),
      'POST /api/notifications/all-seen': () => {
        // Read, and meanwhile a message arrived.
        answer = page([message, { ...assigned, seen: true }]);
        return { body: { seen: 1, unseen: 1 } };
      },
      'POST /api/notifications/seen': { body: { seen: 1, unseen: 0 } },
    });
    renderBell();
    const bell = await screen.findByRole('button', { name: 'Notifications' });
    await waitFor(() => expect(bell.getAttribute('title')).toBe('Notifications: 1 unread'));
    // What was there on load is on the bell, not thrown at the user as a pop-up.
    expect(screen.queryByRole('log', { name: 'New notifications' })).toBeNull();

    fireEvent.click(bell);
    const list = await screen.findByRole('region', { name: 'Notification list' });
    expect(within(list).getByText('Assigned to you')).toBeTruthy();
    expect(list.textContent).toContain('JANE DOE · CT CHEST');
    fireEvent.click(within(list).getByRole('button', { name: 'Mark all as read' }));
    await waitFor(() => expect(api.calls('POST', '/api/notifications/all-seen')).toHaveLength(1));
    fireEvent.keyDown(list, { key: 'Escape' });
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Notification list' })).toBeNull());

    const popups = await screen.findByRole('log', { name: 'New notifications' });
    expect(within(popups).getByText('A message for you')).toBeTruthy();
    fireEvent.click(within(popups).getByRole('button', { name: /A message for you/ }));
    await screen.findByText('The viewer');
    expect(window.location.pathname).toBe('/viewer/1.2.3/41');
    expect(api.calls('POST', '/api/notifications/seen').map((r) => r.json())).toEqual([{ ids: [2] }]);
  });

  it('shows older notifications a page at a time', async () => {
    const newest = notification({ id: 9, kind: 'URGENT', eventType: 'URGENT_MARKED' });
    const oldest = notification({ id: 3, seen: true });
    fakeApi({
      ...sessionHandlers(buildUser(['ROLE_CENTER'])),
      'GET /api/notifications': { body: { ...page([newest]), more: true } },
    });
    // The fake API keys on the path alone: `before` rides in the query, read here from the URL.
    const fetchStub = globalThis.fetch;
    globalThis.fetch = ((input: RequestInfo | URL, init?: RequestInit) =>
      String(input).includes('before=9')
        ? Promise.resolve(new Response(JSON.stringify(page([oldest])), { status: 200 }))
        : fetchStub(input, init)) as typeof fetch;
    try {
      renderBell();
      fireEvent.click(await screen.findByRole('button', { name: 'Notifications' }));
      const list = await screen.findByRole('region', { name: 'Notification list' });
      await within(list).findByText('Urgent');
      fireEvent.click(within(list).getByRole('button', { name: 'Show older' }));
      await within(list).findByText('Assigned to you');
      expect(within(list).queryByRole('button', { name: 'Show older' })).toBeNull();
    } finally {
      globalThis.fetch = fetchStub;
    }
  });

  it("saves which kinds pop up, and asks the browser's permission only when that is switched on", async () => {
    const requestPermission = vi.fn(() => Promise.resolve('granted' as NotificationPermission));
    vi.stubGlobal(
      'Notification',
      Object.assign(function Notification() {}, { permission: 'default', requestPermission }),
    );
    const api = fakeApi({
      ...sessionHandlers(buildUser(['ROLE_ASSIGNOR'])),
      'GET /api/notifications': { body: { ...page([]), popupKinds: [] } },
      'POST /api/setting/update/USER_PREFERENCES': (request) => ({ body: request.json() }),
    });
    renderBell();
    fireEvent.click(await screen.findByRole('button', { name: 'Notifications' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Pop-up settings' }));
    const dialog = await screen.findByRole('dialog', { name: 'Pop-up settings' });
    expect(requestPermission).not.toHaveBeenCalled();
    fireEvent.click(within(dialog).getByRole('checkbox', { name: 'Critical result' }));
    fireEvent.click(within(dialog).getByRole('switch', { name: /through the browser/ }));
    await waitFor(() => expect(requestPermission).toHaveBeenCalledTimes(1));
    await waitFor(() =>
      expect(
        (within(dialog).getByRole('switch', { name: /through the browser/ }) as HTMLInputElement).checked,
      ).toBe(true),
    );
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(api.calls('POST', '/api/setting/update/USER_PREFERENCES').map((r) => r.json())).toEqual([
        { popupKinds: ['CRITICAL_RESULT'], browserNotifications: true },
      ]),
    );
  });
});
