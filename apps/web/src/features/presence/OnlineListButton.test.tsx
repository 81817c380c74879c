import { fireEvent, screen, within } from '@testing-library/react';
import type { ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import { buildUser, sessionHandlers } from '../../test/builders';
import { fakeApi } from '../../test/fake-api';
import { renderScreen } from '../../test/render';
import { useSession } from '../auth/session';
import { OnlineListButton } from './OnlineListButton';
import { PRESENCE_BEAT_KEY } from './presence-api';

/** spec-lab §6, spec-core §1: doctors and centers see the group's doctors, ONLINE first. */
const WAIT = { timeout: 8_000 };

function SignedIn({ children }: { children: ReactNode }) {
  const { data } = useSession();
  return data ? children : null;
}

function open(roles: Parameters<typeof buildUser>[0]) {
  fakeApi(sessionHandlers(buildUser(roles)));
  const view = renderScreen(
    <SignedIn>
      <span>signed in</span>
      <OnlineListButton />
    </SignedIn>,
  );
  // What the tab's beat (PresenceHost) put in the cache.
  view.queryClient.setQueryData(PRESENCE_BEAT_KEY, {
    notificationMessages: [],
    onlineStatuses: [
      { email: 'a@demo.local', status: 'OFFLINE', updatedAt: null },
      { email: 'c@demo.local', status: 'ONLINE', updatedAt: '2026-11-27T10:00:00.000Z' },
      { email: 'b@demo.local', status: 'OFFLINE', updatedAt: '2026-11-27T09:00:00.000Z' },
    ],
  });
  return view;
}

describe('the doctors online list', () => {
  it('a center sees the doctors with their dots, ONLINE first', async () => {
    open(['ROLE_CENTER']);
    fireEvent.click(await screen.findByRole('button', { name: 'Doctors online: 1' }, WAIT));
    const list = await screen.findByRole('list', { name: 'Doctors online' });
    const items = within(list).getAllByTestId('online-doctor');
    expect(items.map((i) => [i.textContent, i.getAttribute('data-status')])).toEqual([
      ['c@demo.local', 'ONLINE'],
      ['a@demo.local', 'OFFLINE'],
      ['b@demo.local', 'OFFLINE'],
    ]);
    expect(within(items[0]!).getByRole('img', { name: 'Online' })).toBeTruthy();
  });

  it('a typist sees no such list', async () => {
    open(['ROLE_TYPIST']);
    await screen.findByText('signed in', {}, WAIT);
    expect(screen.queryByRole('button', { name: /Doctors online/ })).toBeNull();
  });
});
