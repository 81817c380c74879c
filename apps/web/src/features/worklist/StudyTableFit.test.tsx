import type { TRole, TStudyListRow, TUserPreferences } from '@radflow/core';
import { fireEvent, screen, within } from '@testing-library/react';
import type { ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import { buildPreferences, buildUser, sessionHandlers } from '../../test/builders';
import { fakeApi } from '../../test/fake-api';
import { renderScreen } from '../../test/render';
import { buildReportingStudyRow, buildStudyPage } from '../../test/study-row';
import { useSession } from '../auth/session';
import { ASSIGNED_TO_YOU, ASSIGNED_TO_YOUR_DOCTOR } from './study-cells';
import { CONTEXT_DOCTOR_STORAGE_KEY } from './list-user';
import { StudyListPage } from './StudyListPage';

/*
 * Issue 21 §5, §6: the doctor sees which studies are theirs; the row's actions stay on screen (a
 * pinned column, drawn last); a double click opens what the list's users open most.
 */

const SLOW = { timeout: 20_000 };
const WAIT = { timeout: 5_000 };

function SignedIn({ children }: { children: ReactNode }) {
  const { data } = useSession();
  return data ? children : null;
}

function openList({
  roles,
  email,
  route = '/',
  rows,
  preferences,
  centerId = null,
  mapping = {},
}: {
  roles: TRole[];
  email: string;
  route?: '/' | '/status';
  rows: TStudyListRow[];
  preferences?: TUserPreferences;
  centerId?: number | null;
  mapping?: Record<string, { email: string; active: boolean }[]>;
}) {
  const user = buildUser(roles, { email, centerId });
  const listPath = route === '/' ? 'POST /api/dicom-web/studies/' : 'POST /api/report-status/';
  const api = fakeApi({
    ...sessionHandlers(user, preferences),
    'GET /api/user/mapping': { body: mapping },
    [listPath]: { body: buildStudyPage(rows) },
  });
  const view = renderScreen(
    <SignedIn>
      <StudyListPage route={route} />
    </SignedIn>,
    { path: route, route },
  );
  return { api, ...view };
}

/** The column labels: the first header row (the second holds the filter boxes). */
const headerLabels = () =>
  within(screen.getAllByRole('row')[0]!)
    .getAllByRole('columnheader')
    .map((h) => h.textContent);

/** The cell of a row under a column, by the header's label. */
function cellOf(row: HTMLElement, label: string): HTMLElement {
  const index = headerLabels().indexOf(label);
  expect(index, label).toBeGreaterThanOrEqual(0);
  return within(row).getAllByRole('cell')[index]!;
}

describe("the doctor's own studies (issue 21 §5)", () => {
  it(
    'marks the studies assigned to the doctor, names the other doctor, and leaves the pool blank',
    SLOW,
    async () => {
      const me = 'doc@demo.local';
      const mine = buildReportingStudyRow({ assignedTo: me, assignedToName: 'Dr Me' });
      const theirs = buildReportingStudyRow({ assignedTo: 'other@demo.local', assignedToName: 'Dr Other' });
      const pool = buildReportingStudyRow();
      openList({ roles: ['ROLE_DOCTOR'], email: me, rows: [mine, theirs, pool] });
      const mineRow = await screen.findByTestId(`study-row-${mine.id}`, {}, WAIT);
      expect(headerLabels()).toContain('Assigned');
      expect(within(cellOf(mineRow, 'Assigned')).getByText(ASSIGNED_TO_YOU)).toBeTruthy();
      expect(mineRow.getAttribute('data-assigned-to-me')).toBe('true');
      const theirsRow = screen.getByTestId(`study-row-${theirs.id}`);
      expect(cellOf(theirsRow, 'Assigned').textContent).toBe('Dr Other');
      expect(theirsRow.getAttribute('data-assigned-to-me')).toBeNull();
      expect(cellOf(screen.getByTestId(`study-row-${pool.id}`), 'Assigned').textContent).toBe('—');
    },
  );
});

describe("the typist's doctor's studies (issue 21 §5)", () => {
  it(
    "marks the studies of the doctor the typist types for as their doctor's, not as the typist's",
    SLOW,
    async () => {
      const doctor = 'doc@demo.local';
      localStorage.setItem(CONTEXT_DOCTOR_STORAGE_KEY, JSON.stringify({ 'typist@demo.local': doctor }));
      const theirs = buildReportingStudyRow({ assignedTo: doctor, assignedToName: 'Dr Doc' });
      const other = buildReportingStudyRow({ assignedTo: 'other@demo.local', assignedToName: 'Dr Other' });
      openList({
        roles: ['ROLE_TYPIST'],
        email: 'typist@demo.local',
        rows: [theirs, other],
        mapping: { ROLE_DOCTOR: [{ email: doctor, active: true }] },
      });
      const theirsRow = await screen.findByTestId(`study-row-${theirs.id}`, {}, WAIT);
      expect(within(cellOf(theirsRow, 'Assigned')).getByText(ASSIGNED_TO_YOUR_DOCTOR)).toBeTruthy();
      expect(theirsRow.getAttribute('data-assigned-to-me')).toBe('true');
      expect(cellOf(screen.getByTestId(`study-row-${other.id}`), 'Assigned').textContent).toBe('Dr Other');
    },
  );
});

describe('the row actions stay on screen (issue 21 §6)', () => {
  it(
    "draws the actions last and pinned, even where a user's saved columns put them first",
    SLOW,
    async () => {
      const preferences = buildPreferences((p) => {
        p.USER_TABLE_PREFERENCES.tableColumnSettings.studyList = [
          { colName: 'actions', visible: true, index: 0 },
          { colName: 'id', visible: true, index: 1 },
          { colName: 'patient', visible: true, index: 2 },
          { colName: 'history', visible: true, index: 3 },
        ];
      });
      const row = buildReportingStudyRow({ history: 'Chest pain' });
      openList({ roles: ['ROLE_DOCTOR'], email: 'doc@demo.local', rows: [row], preferences });
      const drawn = await screen.findByTestId(`study-row-${row.id}`, {}, WAIT);
      // The saved choice is kept (History on), the actions come last.
      expect(headerLabels().slice(0, 3)).toEqual(['Id', 'Patient', 'History']);
      expect(headerLabels().at(-1)).toBe('Actions');
      const cells = within(drawn).getAllByRole('cell');
      const last = cells.at(-1)!;
      expect(last.getAttribute('data-pinned')).toBe('right');
      expect(within(last).getByRole('button', { name: 'View images' })).toBeTruthy();
      expect(screen.getByRole('columnheader', { name: 'Actions' }).getAttribute('data-pinned')).toBe('right');
    },
  );
});

describe('a double click on a row opens what the list opens most (issue 21 §6)', () => {
  it("opens the doctor's report editor", SLOW, async () => {
    const row = buildReportingStudyRow();
    const { router } = openList({ roles: ['ROLE_DOCTOR'], email: 'doc@demo.local', rows: [row] });
    const drawn = await screen.findByTestId(`study-row-${row.id}`, {}, WAIT);
    fireEvent.doubleClick(cellOf(drawn, 'Patient'));
    expect(router.state.location.pathname).toBe(`/report-edit/${row.instanceId}/${row.id}`);
  });

  it("opens the center's signed report, and the images of a study not reported yet", SLOW, async () => {
    const signed = buildReportingStudyRow({ status: 'SIGNED_OFF', hasReports: true, centerId: 7 });
    const waiting = buildReportingStudyRow({ centerId: 7 });
    const { router } = openList({
      roles: ['ROLE_CENTER'],
      email: 'center@demo.local',
      route: '/status',
      rows: [signed, waiting],
      centerId: 7,
    });
    const signedRow = await screen.findByTestId(`study-row-${signed.id}`, {}, WAIT);
    fireEvent.doubleClick(cellOf(signedRow, 'Patient'));
    expect(router.state.location.pathname).toBe(`/report-edit/${signed.instanceId}/${signed.id}`);

    await router.navigate('/status');
    const waitingRow = await screen.findByTestId(`study-row-${waiting.id}`, {}, WAIT);
    fireEvent.doubleClick(cellOf(waitingRow, 'Patient'));
    expect(router.state.location.pathname).toBe(`/viewer/${waiting.instanceId}/${waiting.id}`);
  });

  it("opens the assignor's Assign doctor dialog, and stays on the list", SLOW, async () => {
    const row = buildReportingStudyRow({ status: 'HISTORY_CREATED' });
    const { router } = openList({ roles: ['ROLE_ASSIGNOR'], email: 'assignor@demo.local', rows: [row] });
    const drawn = await screen.findByTestId(`study-row-${row.id}`, {}, WAIT);
    fireEvent.doubleClick(cellOf(drawn, 'Patient'));
    expect(await screen.findByRole('dialog', { name: 'Assign doctor' }, { timeout: 10_000 })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/');
  });

  it('leaves a double click on a button or a filter box to that control', SLOW, async () => {
    const row = buildReportingStudyRow();
    const { router } = openList({ roles: ['ROLE_DOCTOR'], email: 'doc@demo.local', rows: [row] });
    const drawn = await screen.findByTestId(`study-row-${row.id}`, {}, WAIT);
    fireEvent.doubleClick(within(drawn).getByRole('button', { name: 'More actions' }));
    expect(router.state.location.pathname).toBe('/');
  });
});
