import type { TRole, TTurnaroundAtRiskResponse, TTurnaroundAtRiskRow } from '@radflow/core';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import { buildPreferences, buildUser, sessionHandlers } from '../../test/builders';
import { fakeApi } from '../../test/fake-api';
import { renderScreen } from '../../test/render';
import { buildStudyPage, buildReportingStudyRow as buildStudyRow } from '../../test/study-row';
import { useSession } from '../auth/session';
import { StudyListPage } from '../worklist/StudyListPage';
import { timeLeftText } from './turnaround-api';

const SLOW = { timeout: 20_000 };
const WAIT = { timeout: 5_000 };

function SignedIn({ children }: { children: ReactNode }) {
  const { data } = useSession();
  return data ? children : null;
}

const atRiskRow = (id: number, over: Partial<TTurnaroundAtRiskRow> = {}): TTurnaroundAtRiskRow => ({
  id,
  patientName: 'SHARMA^RAVI',
  studyName: 'CT Brain',
  modality: 'CT',
  centerName: 'Lotus Imaging',
  urgent: false,
  status: 'HISTORY_CREATED',
  state: 'AT_RISK',
  deadline: '2026-11-20T11:05:00.000Z',
  timeLeftMinutes: 42,
  forecastFinish: '2026-11-20T11:20:00.000Z',
  queuePosition: 4,
  assignedTo: { email: 'slow@demo.local', name: 'Dr Slow' },
  suggested: { email: 'quick@demo.local', name: 'Dr Quick', forecastFinish: '2026-11-20T10:35:00.000Z' },
  ...over,
});

const answer = (rows: TTurnaroundAtRiskRow[]): TTurnaroundAtRiskResponse => ({
  signOffTimeLimit: 60,
  now: '2026-11-20T10:23:00.000Z',
  counts: {
    atRisk: rows.filter((r) => r.state === 'AT_RISK').length,
    breached: rows.filter((r) => r.state === 'BREACHED').length,
  },
  rows,
});

function openList(roles: TRole[], limit: number | null, handlers: Parameters<typeof fakeApi>[0] = {}) {
  const user = buildUser(roles);
  const preferences = buildPreferences((p) => {
    p.ADMIN_PREFERENCES.signOffTimeLimit = limit;
  });
  const api = fakeApi({
    ...sessionHandlers(user, preferences),
    'GET /api/user/mapping': { body: {} },
    ...handlers,
  });
  const view = renderScreen(
    <SignedIn>
      <StudyListPage route="/" />
    </SignedIn>,
    { path: '/', route: '/' },
  );
  return { api, unmount: view.unmount };
}

describe('turnaround at risk in the study list (issue 24 §4)', () => {
  it('counts, marks and lists the studies at risk, and reassigns one to the suggestion', SLOW, async () => {
    const listed = buildStudyRow();
    let atRisk = [
      atRiskRow(listed.id),
      atRiskRow(listed.id + 5000, { state: 'BREACHED', timeLeftMinutes: -3, suggested: null }),
    ];
    const { api } = openList(['ROLE_ASSIGNOR'], 60, {
      'POST /api/dicom-web/studies/': { body: buildStudyPage([listed]) },
      'GET /api/turnaround/at-risk': () => ({ body: answer(atRisk) }),
      'POST /api/report-status/assign': () => {
        atRisk = atRisk.slice(1);
        return { body: {} };
      },
    });

    const button = await screen.findByRole('button', { name: 'At risk: 2' }, WAIT);
    expect((await screen.findByTestId(`at-risk-mark-${listed.id}`, {}, WAIT)).textContent).toBe(
      '42 min left',
    );

    fireEvent.click(button);
    const row = within(await screen.findByTestId(`at-risk-row-${listed.id}`, {}, WAIT));
    for (const text of ['RAVI SHARMA', 'CT · CT Brain', 'Lotus Imaging', '42 min left', 'Dr Slow'])
      expect(row.getByText(text, { exact: false })).toBeTruthy();
    expect(row.getByText(/^Dr Quick \(by 2026-11-20 16:05:00/)).toBeTruthy();
    const late = within(screen.getByTestId(`at-risk-row-${listed.id + 5000}`));
    expect(late.getByText('Late by 3 min')).toBeTruthy();
    expect(late.queryByRole('button')).toBeNull();

    fireEvent.click(row.getByRole('button', { name: 'Reassign to Dr Quick' }));
    await waitFor(() =>
      expect(api.calls('POST', '/api/report-status/assign').map((r) => r.json())).toEqual([
        { reportId: listed.id, assignedTo: 'quick@demo.local' },
      ]),
    );
    await waitFor(() => expect(screen.queryByTestId(`at-risk-row-${listed.id}`)).toBeNull(), WAIT);
    fireEvent.click(screen.getByRole('button', { name: 'Close' }));
    expect(await screen.findByRole('button', { name: 'At risk: 1' }, WAIT)).toBeTruthy();
    expect(screen.queryByTestId(`at-risk-mark-${listed.id}`)).toBeNull();
  });

  it('counts every study at risk and says when only the first are listed', SLOW, async () => {
    const listed = buildStudyRow();
    openList(['ROLE_ADMIN'], 60, {
      'POST /api/dicom-web/studies/': { body: buildStudyPage([listed]) },
      'GET /api/turnaround/at-risk': {
        body: { ...answer([atRiskRow(listed.id)]), counts: { atRisk: 250, breached: 3 } },
      },
    });
    fireEvent.click(await screen.findByRole('button', { name: 'At risk: 253' }, WAIT));
    expect(await screen.findByText(/^The first 1 of 253/, {}, WAIT)).toBeTruthy();
  });

  it('asks nothing without a sign-off limit, nor for a doctor', SLOW, async () => {
    for (const [roles, limit] of [
      [['ROLE_ASSIGNOR'], null],
      [['ROLE_DOCTOR'], 60],
    ] as const) {
      const row = buildStudyRow();
      const { api, unmount } = openList([...roles], limit, {
        'POST /api/dicom-web/studies/': { body: buildStudyPage([row]) },
      });
      expect(await screen.findByTestId(`study-row-${row.id}`, {}, WAIT)).toBeTruthy();
      expect(api.calls('GET', '/api/turnaround/at-risk')).toHaveLength(0);
      expect(screen.queryByRole('button', { name: /^At risk/ })).toBeNull();
      unmount();
    }
  });
});

describe('timeLeftText', () => {
  it.each([
    [0, '0 min left'],
    [59, '59 min left'],
    [60, '1 h 0 min left'],
    [125, '2 h 5 min left'],
    [-1, 'Late by 1 min'],
    [-61, 'Late by 1 h 1 min'],
  ])('%s → %s', (minutes, text) => expect(timeLeftText(minutes)).toBe(text));
});
