import { CHAT_MESSAGES, SUPPORT_CHAT_TEXTS as T, type TSupportThread } from '@radflow/core';
import { fireEvent, screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { APP_ROUTES } from '../../app/routes';
import { buildPreferences, buildUser, sessionHandlers } from '../../test/builders';
import { fakeApi, type TRecordedRequest } from '../../test/fake-api';
import { renderRoutes, simulateWideScreen } from '../../test/render';

/*
 * issue 29 §6 enableSupportChatBot (spec-core §2 Shell): our own support thread in the top bar, only
 * while the group's switch is on.
 */

const SLOW = { timeout: 15_000 };
beforeEach(() => simulateWideScreen());

const withSwitch = (on: boolean) =>
  buildPreferences((p) => {
    p.GROUP_SWITCHES.enableSupportChatBot = on;
  });

describe('the support chat button', () => {
  it('is not in the top bar while the switch is off', SLOW, async () => {
    fakeApi(sessionHandlers(buildUser(['ROLE_ADMIN_BILLER']), withSwitch(false)));
    renderRoutes(APP_ROUTES, '/user/get-route');
    const bar = await screen.findByRole('banner', {}, SLOW);
    await within(bar).findByRole('link', { name: 'Home' }, SLOW);
    expect(within(bar).queryByRole('button', { name: T.open })).toBeNull();
  });

  it('opens the thread, refuses an empty message, sends one and shows support’s answer', SLOW, async () => {
    let thread: TSupportThread = {
      messages: [
        {
          id: 1,
          fromSupport: true,
          senderEmail: 'support@radflow',
          message: 'Welcome',
          createdAt: '2026-11-27T10:00:00Z',
        },
      ],
    };
    const api = fakeApi({
      ...sessionHandlers(buildUser(['ROLE_ADMIN_BILLER']), withSwitch(true)),
      'GET /api/support-chat': () => ({ body: thread }),
      'POST /api/support-chat/send': (r: TRecordedRequest) => {
        const { message } = r.json<{ message: string }>();
        thread = {
          messages: [
            ...thread.messages,
            { id: 2, fromSupport: false, senderEmail: 'me', message, createdAt: '2026-11-27T10:01:00Z' },
          ],
        };
        return { body: thread };
      },
    });
    renderRoutes(APP_ROUTES, '/user/get-route');
    fireEvent.click(await screen.findByRole('button', { name: T.open }, SLOW));
    const panel = await screen.findByRole('dialog', { name: T.title });
    expect(await within(panel).findByText('Welcome')).toBeTruthy();

    fireEvent.click(within(panel).getByRole('button', { name: T.send }));
    expect(await within(panel).findByText(CHAT_MESSAGES.empty)).toBeTruthy();
    expect(api.calls('POST', '/api/support-chat/send')).toHaveLength(0);

    fireEvent.change(within(panel).getByLabelText(T.placeholder), {
      target: { value: ' My router is offline ' },
    });
    fireEvent.click(within(panel).getByRole('button', { name: T.send }));
    expect(await within(panel).findByText('My router is offline')).toBeTruthy();
    expect(api.calls('POST', '/api/support-chat/send')[0]?.json()).toEqual({
      message: 'My router is offline',
    });
  });
});
