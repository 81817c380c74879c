import { screen, within } from '@testing-library/react';
import type { ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import { buildPreferences, buildUser, sessionHandlers } from '../../test/builders';
import { fakeApi } from '../../test/fake-api';
import { renderScreen } from '../../test/render';
import { buildStudyPage, buildStudyRow } from '../../test/study-row';
import { useSession } from '../auth/session';
import { activityAge } from './ActiveInViewer';
import { StudyListPage } from './StudyListPage';

/** spec-core §6: assignors with showActiveInViewer see the top 3 recently active viewer users. */

const SLOW = { timeout: 20_000 };
const WAIT = { timeout: 8_000 };

function SignedIn({ children }: { children: ReactNode }) {
  const { data } = useSession();
  return data ? children : null;
}

function openAssignorList(answer: { enabled: boolean; activeUsers: Record<string, unknown> }) {
  const row = buildStudyRow({ id: 4242 });
  // The assignor's session holds the group's switches (GET /user/group-preferences).
  const prefs = buildPreferences((p) => {
    p.GROUP_SWITCHES.showActiveInViewer = answer.enabled;
  });
  const api = fakeApi({
    ...sessionHandlers(buildUser(['ROLE_ASSIGNOR']), prefs),
    'POST /api/dicom-web/studies/': { body: buildStudyPage([row]) },
    'POST /api/viewer/active-users': { body: answer },
  });
  renderScreen(
    <SignedIn>
      <StudyListPage route="/" />
    </SignedIn>,
  );
  return { api, row };
}

describe('Active in Viewer (assignors, showActiveInViewer)', () => {
  it("shows who was last active on a row, asking once for the page's rows", SLOW, async () => {
    const lastActive = new Date(Date.now() - 5 * 60_000).toISOString();
    const { api, row } = openAssignorList({
      enabled: true,
      activeUsers: { '4242': [{ userEmail: 'dr.a@demo.local', lastActive }] },
    });
    const cell = await screen.findByTestId('active-in-viewer', {}, WAIT);
    expect(within(cell).getByText('dr.a@demo.local · 5 min ago')).toBeTruthy();
    expect(screen.getByRole('columnheader', { name: /Active in Viewer/ })).toBeTruthy();
    expect(api.calls('POST', '/api/viewer/active-users')[0]!.json()).toEqual({ ids: [row.id] });
  });

  it('shows no such column when the group has the switch off', SLOW, async () => {
    const { row } = openAssignorList({ enabled: false, activeUsers: {} });
    expect(await screen.findByTestId(`study-row-${row.id}`, {}, WAIT)).toBeTruthy();
    expect(screen.queryByRole('columnheader', { name: /Active in Viewer/ })).toBeNull();
  });

  it('says how long ago, in the coarsest unit that fits', () => {
    const now = Date.parse('2026-11-21T12:00:00Z');
    expect(activityAge('2026-11-21T11:59:40Z', now)).toBe('now');
    expect(activityAge('2026-11-21T11:15:00Z', now)).toBe('45 min ago');
    expect(activityAge('2026-11-21T09:00:00Z', now)).toBe('3 h ago');
    expect(activityAge('2026-11-19T12:00:00Z', now)).toBe('2 d ago');
  });
});
