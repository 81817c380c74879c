import { SUPPORT_INBOX_TEXTS as T, type TSupportThread } from '@radflow/core';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { APP_ROUTES } from '../../app/routes';
import { buildUser, sessionHandlers } from '../../test/builders';
import { fakeApi, type TRecordedRequest } from '../../test/fake-api';
import { renderRoutes, simulateWideScreen } from '../../test/render';

/*
 * issue 29 §6: the platform's support answers the support chat on a screen of its own, the threads
 * waiting for an answer first; nobody else sees it in the menu or opens it.
 */

// A ceiling, not a wait: the shell's first render takes seconds on a loaded machine.
const SLOW = { timeout: 45_000 };
beforeEach(() => simulateWideScreen());

const THREADS = [
  {
    userId: 7,
    email: 'center@clinic.in',
    groupName: 'Clinic',
    lastMessage: 'The router is offline',
    lastAt: '2026-11-27T10:00:00Z',
    isAwaitingSupport: true,
  },
  {
    userId: 8,
    email: 'doctor@clinic.in',
    groupName: 'Clinic',
    lastMessage: 'Thanks',
    lastAt: '2026-11-27T11:00:00Z',
    isAwaitingSupport: false,
  },
];

describe('the support inbox', () => {
  it('support opens it from the menu, reads a thread and answers it', SLOW, async () => {
    let thread: TSupportThread = {
      messages: [
        {
          id: 1,
          fromSupport: false,
          senderEmail: 'center@clinic.in',
          message: 'The router is offline',
          createdAt: '2026-11-27T10:00:00Z',
        },
      ],
    };
    const api = fakeApi({
      ...sessionHandlers(buildUser(['ROLE_GROUP'], { answersSupport: true })),
      'GET /api/support-chat/threads': { body: THREADS },
      'GET /api/support-chat/threads/7': () => ({ body: thread }),
      'POST /api/support-chat/threads/7/send': (r: TRecordedRequest) => {
        const { message } = r.json<{ message: string }>();
        thread = {
          messages: [
            ...thread.messages,
            {
              id: 2,
              fromSupport: true,
              senderEmail: 'me@radflow',
              message,
              createdAt: '2026-11-27T10:05:00Z',
            },
          ],
        };
        return { body: thread };
      },
    });
    renderRoutes(APP_ROUTES, '/user/get-route');
    const menu = await screen.findByRole('navigation', { name: 'Main menu' }, SLOW);
    fireEvent.click(within(menu).getByRole('link', { name: T.title }));

    const list = await screen.findByRole('list', { name: T.threads }, SLOW);
    const rows = await within(list).findAllByRole('button');
    expect(rows.map((r) => r.textContent)).toEqual([
      expect.stringContaining('center@clinic.in'),
      expect.stringContaining('doctor@clinic.in'),
    ]);
    expect(rows[0]!.textContent).toContain(T.awaiting);
    fireEvent.click(rows[0]!);

    const log = await screen.findByRole('log', { name: 'center@clinic.in · Clinic' });
    expect(await within(log).findByText('The router is offline')).toBeTruthy();
    fireEvent.change(screen.getByLabelText(T.reply), { target: { value: 'Restart it, please' } });
    fireEvent.click(screen.getByRole('button', { name: T.send }));
    expect(await within(log).findByText('Restart it, please')).toBeTruthy();
    expect(api.calls('POST', '/api/support-chat/threads/7/send')[0]?.json()).toEqual({
      message: 'Restart it, please',
    });
    await waitFor(() => expect(api.calls('GET', '/api/support-chat/threads').length).toBeGreaterThan(1));
  });

  it('another group admin has no menu entry and is sent away from the address', SLOW, async () => {
    const api = fakeApi(sessionHandlers(buildUser(['ROLE_GROUP'])));
    renderRoutes(APP_ROUTES, '/support-inbox');
    const menu = await screen.findByRole('navigation', { name: 'Main menu' }, SLOW);
    expect(within(menu).queryByRole('link', { name: T.title })).toBeNull();
    expect(screen.queryByRole('list', { name: T.threads })).toBeNull();
    expect(api.calls('GET', '/api/support-chat/threads')).toHaveLength(0);
  });
});
