import { AUTO_REFRESH_MS } from '@radflow/core';
import { act, screen } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildPreferences, buildUser, sessionHandlers } from '../../test/builders';
import { fakeApi } from '../../test/fake-api';
import { renderScreen } from '../../test/render';
import { buildStudyPage, buildStudyRow } from '../../test/study-row';
import { useSession } from '../auth/session';
import { StudyListPage } from './StudyListPage';

/** The two study list effects of the user's settings (spec-lab §2 auto refresh, §3 row colours). */

const SLOW = { timeout: 20_000 };
const WAIT = { timeout: 8_000 };

function SignedIn({ children }: { children: ReactNode }) {
  const { data } = useSession();
  return data ? children : null;
}

function openDoctorList(edit: Parameters<typeof buildPreferences>[0], rows = [buildStudyRow()]) {
  const api = fakeApi({
    ...sessionHandlers(buildUser(['ROLE_DOCTOR'], { email: 'doc@demo.local' }), buildPreferences(edit)),
    'POST /api/dicom-web/studies/': { body: buildStudyPage(rows) },
  });
  renderScreen(
    <SignedIn>
      <StudyListPage route="/" />
    </SignedIn>,
  );
  return { listCalls: () => api.calls('POST', '/api/dicom-web/studies/').length };
}

describe('the study list follows the settings', () => {
  afterEach(() => vi.useRealTimers());

  it.each([
    [true, 2],
    [false, 1],
  ])('with auto refresh %s asks %i times after 25 s', SLOW, async (autoRefresh, expected) => {
    // Only the intervals are faked: the list's 25 s refresh; MUI and the debounce keep real time.
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const row = buildStudyRow();
    const list = openDoctorList(
      (p) => {
        p.UI_PREFERENCES.autoRefresh = autoRefresh;
      },
      [row],
    );
    expect(await screen.findByTestId(`study-row-${row.id}`, {}, WAIT)).toBeTruthy();
    expect(list.listCalls()).toBe(1);
    await act(() => vi.advanceTimersByTimeAsync(AUTO_REFRESH_MS));
    expect(list.listCalls()).toBe(expected);
  });

  it("colours a locked row with the user's locked colour", SLOW, async () => {
    const locked = buildStudyRow({ status: 'LOCKED', lockedBy: 'doc@demo.local' });
    const plain = buildStudyRow({ status: 'HISTORY_CREATED' });
    openDoctorList(
      (p) => {
        p.UI_REPORT_TABLE_PREFERENCES.lockedColor = '#ff0000';
      },
      [locked, plain],
    );
    const lockedRow = await screen.findByTestId(`study-row-${locked.id}`, {}, WAIT);
    expect(lockedRow.getAttribute('data-row-colour')).toBe('locked');
    expect(screen.getByTestId(`study-row-${plain.id}`).getAttribute('data-row-colour')).toBeNull();
  });
});
