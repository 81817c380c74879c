import { WORKLIST_MESSAGES, ZIP_MESSAGES, type TRole, type TUserPreferences } from '@radflow/core';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { ReactNode } from 'react';
import { describe, expect, it, vi } from 'vitest';
import type { TUserMapping } from '../../api/identity';
import { buildPreferences, buildUser, sessionHandlers } from '../../test/builders';
import { fakeApi, type TFakeReply, type TRecordedRequest } from '../../test/fake-api';
import { renderScreen } from '../../test/render';
import { useSession } from '../auth/session';
import { auditSwitchLabel } from '../study-actions/audit-status';
import { END_DATE_LABEL, START_DATE_LABEL } from './DateRangeFilter';
import { StudyListPage } from './StudyListPage';
import { filterLabel } from './StudyTableHead';
import { UPLOAD_PENDING_LABEL } from './study-cells';
import { buildStudyPage, buildReportingStudyRow as buildStudyRow } from '../../test/study-row';

const SLOW = { timeout: 20_000 };
// MUI tables render slowly in jsdom on a busy machine.
const WAIT = { timeout: 5_000 };

function SignedIn({ children }: { children: ReactNode }) {
  const { data } = useSession();
  return data ? children : null;
}

type THandler = TFakeReply | ((request: TRecordedRequest) => TFakeReply);

function openList({
  roles,
  route = '/',
  path = route,
  preferences,
  mapping = {},
  handlers = {},
  email,
}: {
  roles: TRole[];
  route?: '/' | '/status';
  path?: string;
  preferences?: TUserPreferences;
  mapping?: TUserMapping;
  handlers?: Record<string, THandler>;
  email?: string;
}) {
  const user = buildUser(roles, email ? { email } : {});
  const api = fakeApi({
    ...sessionHandlers(user, preferences),
    'GET /api/user/mapping': { body: mapping },
    ...handlers,
  });
  const view = renderScreen(
    <SignedIn>
      <StudyListPage route={route} />
    </SignedIn>,
    { path, route },
  );
  return { api, user, ...view };
}

const listCalls = (api: ReturnType<typeof fakeApi>, path = '/api/dicom-web/studies/') =>
  api.calls('POST', path).map((r) => r.json<Record<string, unknown>>());
const tabNames = () => screen.getAllByRole('tab').map((t) => t.textContent);

describe('study list screens (spec-core §2)', () => {
  it('gives a doctor the doctor list, sends the selected tab and remembers it', SLOW, async () => {
    const row = buildStudyRow({ urgent: true });
    const first = openList({
      roles: ['ROLE_DOCTOR'],
      email: 'doc@demo.local',
      handlers: { 'POST /api/dicom-web/studies/': { body: buildStudyPage([row]) } },
    });
    expect(await screen.findByTestId(`study-row-${row.id}`, {}, WAIT)).toBeTruthy();
    expect(tabNames()).toEqual(['All', 'Pending', 'Signed Off', 'Urgent']);
    expect(screen.getByTestId(`study-row-${row.id}`).getAttribute('data-row-colour')).toBe('urgent');

    fireEvent.click(screen.getByRole('tab', { name: 'Pending' }));
    await waitFor(() =>
      expect(listCalls(first.api).at(-1)?.statuses).toEqual(['CREATED', 'HISTORY_CREATED', 'LOCKED']),
    );
    first.unmount();

    const again = openList({
      roles: ['ROLE_DOCTOR'],
      email: 'doc@demo.local',
      handlers: { 'POST /api/dicom-web/studies/': { body: buildStudyPage([]) } },
    });
    await waitFor(() => expect(listCalls(again.api)).toHaveLength(1));
    expect(screen.getByRole('tab', { name: 'Pending' }).getAttribute('aria-selected')).toBe('true');
    expect(listCalls(again.api)[0]?.statuses).toEqual(['CREATED', 'HISTORY_CREATED', 'LOCKED']);
  });

  it('shows the empty state, filters after typing stops, sorts and clears all filters', SLOW, async () => {
    const { api } = openList({
      roles: ['ROLE_ADMIN'],
      handlers: { 'POST /api/dicom-web/studies/': { body: buildStudyPage([]) } },
    });
    for (const line of WORKLIST_MESSAGES.emptyState)
      expect(await screen.findByText(line, {}, WAIT)).toBeTruthy();
    expect(tabNames()).toEqual([
      'All',
      'Unassigned',
      'Assigned',
      'Pending',
      'Signed Off',
      'Urgent',
      'Reprint Needed',
      'My Reports',
      'My Pending',
    ]);

    fireEvent.change(screen.getByLabelText(filterLabel('Patient')), { target: { value: 'ram' } });
    await waitFor(() => expect(listCalls(api).at(-1)?.filters).toEqual({ patientName: 'ram' }), {
      timeout: 3000,
    });

    const header = screen.getByRole('columnheader', { name: 'Patient' });
    fireEvent.click(within(header).getByRole('button', { name: 'Patient' }));
    await waitFor(() =>
      expect(listCalls(api).at(-1)).toMatchObject({ orderingCriteria: 'patientName', sortOrder: 'DESC' }),
    );
    expect(screen.getByRole('columnheader', { name: 'Patient' }).getAttribute('aria-sort')).toBe(
      'descending',
    );

    fireEvent.click(screen.getByRole('button', { name: 'Clear all filters' }));
    await waitFor(() => expect(listCalls(api).at(-1)?.filters).toEqual({}));
    expect((screen.getByLabelText(filterLabel('Patient')) as HTMLInputElement).value).toBe('');
  });

  it('uses a numeric ?id= as the id filter and ignores any other', SLOW, async () => {
    const numeric = openList({
      roles: ['ROLE_ADMIN'],
      path: '/?id=77',
      handlers: { 'POST /api/dicom-web/studies/': { body: buildStudyPage([]) } },
    });
    await waitFor(() => expect(listCalls(numeric.api)[0]?.filters).toEqual({ id: '77' }));
    numeric.unmount();
    window.localStorage.clear();
    const other = openList({
      roles: ['ROLE_ADMIN'],
      path: '/?id=77x',
      handlers: { 'POST /api/dicom-web/studies/': { body: buildStudyPage([]) } },
    });
    await waitFor(() => expect(listCalls(other.api)[0]?.filters).toEqual({}));
  });

  it('gives an assignor row checkboxes with a tri-state select-all', SLOW, async () => {
    const rows = [buildStudyRow(), buildStudyRow()];
    openList({
      roles: ['ROLE_ASSIGNOR'],
      handlers: { 'POST /api/dicom-web/studies/': { body: buildStudyPage(rows) } },
    });
    fireEvent.click(await screen.findByRole('checkbox', { name: `Select study ${rows[0]!.id}` }, WAIT));
    const all = screen.getByRole('checkbox', { name: 'Select all rows' }) as HTMLInputElement;
    expect(all.getAttribute('data-indeterminate')).toBe('true');
    fireEvent.click(all);
    expect(all.checked).toBe(true);
    expect(
      (screen.getByRole('checkbox', { name: `Select study ${rows[1]!.id}` }) as HTMLInputElement).checked,
    ).toBe(true);
    fireEvent.click(all);
    expect(all.checked).toBe(false);
    expect(all.getAttribute('data-indeterminate')).toBe('false');
  });

  it(
    'shows a center the add-info tabs on POST /report-status/ when sharingDetailBeforeSend is on',
    SLOW,
    async () => {
      const preferences = buildPreferences((p) => {
        p.USER_ADMIN_VISIBLE_PREFERENCES.sharingDetailBeforeSend = true;
      });
      const { api } = openList({
        roles: ['ROLE_CENTER'],
        route: '/status',
        preferences,
        handlers: { 'POST /api/report-status/': { body: buildStudyPage([]) } },
      });
      await waitFor(() => expect(listCalls(api, '/api/report-status/')).toHaveLength(1));
      expect(tabNames()).toEqual(['Pending', 'Sent', 'Ready Reports', 'Past Reports', 'Urgent', 'All']);
      expect(listCalls(api, '/api/report-status/')[0]?.statuses).toEqual(['CREATED']);
      expect(screen.getByRole('button', { name: 'Create study' })).toBeTruthy();
    },
  );

  it('asks a typist for the doctor first and lists for that doctor', SLOW, async () => {
    const { api } = openList({
      roles: ['ROLE_TYPIST'],
      mapping: { ROLE_DOCTOR: [{ email: 'doc@demo.local', active: true }] },
      handlers: { 'POST /api/dicom-web/studies/': { body: buildStudyPage([]) } },
    });
    expect(await screen.findByText('Choose the doctor you are typing for', {}, WAIT)).toBeTruthy();
    expect(listCalls(api)).toHaveLength(0);
    fireEvent.mouseDown(screen.getByRole('combobox', { name: 'Doctor' }));
    fireEvent.click(await screen.findByRole('option', { name: 'doc@demo.local' }));
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    await waitFor(() => expect(listCalls(api)[0]?.contextDoctor).toBe('doc@demo.local'));
  });

  it("labels a typist's signed-off tab Drafted when the group has enableDraftedForTypist", SLOW, async () => {
    openList({
      roles: ['ROLE_TYPIST'],
      preferences: buildPreferences((p) => {
        p.GROUP_SWITCHES.enableDraftedForTypist = true;
      }),
      mapping: { ROLE_DOCTOR: [{ email: 'doc@demo.local', active: true }] },
      handlers: { 'POST /api/dicom-web/studies/': { body: buildStudyPage([]) } },
    });
    fireEvent.mouseDown(await screen.findByRole('combobox', { name: 'Doctor' }, WAIT));
    fireEvent.click(await screen.findByRole('option', { name: 'doc@demo.local' }));
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByRole('tab', { name: /Drafted/ }, WAIT)).toBeTruthy();
    expect(screen.queryByRole('tab', { name: /Signed Off/ })).toBeNull();
  });

  it('saves the column choice in USER_TABLE_PREFERENCES and redraws the table', SLOW, async () => {
    const row = buildStudyRow({ history: 'Chest pain' });
    const { api } = openList({
      roles: ['ROLE_DOCTOR'],
      handlers: {
        'POST /api/dicom-web/studies/': { body: buildStudyPage([row]) },
        'POST /api/setting/update/USER_TABLE_PREFERENCES': (request) => ({ body: request.json() }),
      },
    });
    await screen.findByTestId(`study-row-${row.id}`, {}, WAIT);
    expect(screen.getByRole('columnheader', { name: 'Age' })).toBeTruthy();
    expect(screen.queryByRole('columnheader', { name: 'History' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Column settings' }));
    const dialog = await screen.findByRole('dialog', { name: 'Column settings' }, WAIT);
    fireEvent.click(within(dialog).getByRole('checkbox', { name: 'Age' }));
    fireEvent.click(within(dialog).getByRole('checkbox', { name: 'History' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Move Patient up' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('columnheader', { name: 'Age' })).toBeNull());
    expect(screen.getByRole('columnheader', { name: 'History' })).toBeTruthy();
    const saved = api.calls('POST', '/api/setting/update/USER_TABLE_PREFERENCES')[0]!.json<{
      tableColumnSettings: Record<string, { colName: string; visible: boolean; index: number }[]>;
    }>();
    expect(saved.tableColumnSettings.studyList?.slice(0, 2)).toEqual([
      { colName: 'patient', visible: true, index: 0 },
      { colName: 'id', visible: true, index: 1 },
    ]);
    expect(saved.tableColumnSettings.studyList?.find((c) => c.colName === 'age')?.visible).toBe(false);
    expect(saved.tableColumnSettings.studyList?.find((c) => c.colName === 'history')?.visible).toBe(true);
    const headers = screen.getAllByRole('columnheader').map((h) => h.textContent);
    expect(headers.indexOf('Patient')).toBeLessThan(headers.indexOf('Id'));
  });

  it(
    'draws tags as 2 chips and +N, the simple status, the upload-pending badge, and refuses its zip',
    SLOW,
    async () => {
      const tag = (id: number, name: string) => ({
        id,
        tag: name,
        globalTag: false,
        createdBy: '',
        reportStatusId: 1,
      });
      const pending = buildStudyRow({
        status: 'LOCKED',
        lastUploadCompletedAt: null,
        tags: [tag(1, 'chest'), tag(2, 'covid'), tag(3, 'follow-up'), tag(4, 'old')],
      });
      const signed = buildStudyRow({ status: 'SIGNED_OFF' });
      // Tags, the simple status and the image count are one tick away in Column settings (issue 21 §6).
      const preferences = buildPreferences((p) => {
        p.USER_TABLE_PREFERENCES.tableColumnSettings.centerReportList = [
          'id',
          'patient',
          'imageCount',
          'tag',
          'status',
          'reportStatus',
          'actions',
        ].map((colName, index) => ({ colName, visible: true, index }));
      });
      const { api } = openList({
        roles: ['ROLE_CENTER'],
        route: '/status',
        preferences,
        handlers: { 'POST /api/report-status/': { body: buildStudyPage([pending, signed]) } },
      });
      const row = await screen.findByTestId(`study-row-${pending.id}`, {}, WAIT);
      expect(within(row).getByText('chest')).toBeTruthy();
      expect(within(row).getByText('covid')).toBeTruthy();
      expect(within(row).queryByText('follow-up')).toBeNull();
      expect(within(row).getByText('+2')).toBeTruthy();
      expect(within(row).getByText('PENDING')).toBeTruthy();
      expect(within(row).getAllByText(UPLOAD_PENDING_LABEL).length).toBeGreaterThan(0);
      const signedRow = screen.getByTestId(`study-row-${signed.id}`);
      expect(within(signedRow).getAllByText('SIGNED_OFF').length).toBeGreaterThan(0);
      expect(within(signedRow).queryByText(UPLOAD_PENDING_LABEL)).toBeNull();

      fireEvent.click(within(row).getByRole('button', { name: `Download zip of study ${pending.id}` }));
      expect(await screen.findByText(ZIP_MESSAGES.notUploaded)).toBeTruthy();
      expect(api.calls('POST', '/api/batch/run')).toHaveLength(0);
    },
  );
});

describe('study list gaps: date range, audit switch, forwarding for group staff', () => {
  const dateInput = (label: string) => screen.getByLabelText(label) as HTMLInputElement;

  it('sends the date range, keeps it per table key and clears it with the filters', SLOW, async () => {
    const first = openList({
      roles: ['ROLE_ADMIN'],
      handlers: { 'POST /api/dicom-web/studies/': { body: buildStudyPage([]) } },
    });
    await waitFor(() => expect(listCalls(first.api)).toHaveLength(1));
    expect(listCalls(first.api)[0]).not.toHaveProperty('startTime');
    fireEvent.change(dateInput(START_DATE_LABEL), { target: { value: '2026-11-01' } });
    fireEvent.change(dateInput(END_DATE_LABEL), { target: { value: '2026-11-20' } });
    await waitFor(() =>
      expect(listCalls(first.api).at(-1)).toMatchObject({
        startTime: '2026-11-01',
        endTime: '2026-11-20',
        page: 0,
      }),
    );
    first.unmount();

    const again = openList({
      roles: ['ROLE_ADMIN'],
      handlers: { 'POST /api/dicom-web/studies/': { body: buildStudyPage([]) } },
    });
    await waitFor(() => expect(listCalls(again.api)).toHaveLength(1));
    expect(listCalls(again.api)[0]).toMatchObject({ startTime: '2026-11-01', endTime: '2026-11-20' });
    expect(dateInput(START_DATE_LABEL).value).toBe('2026-11-01');

    fireEvent.click(screen.getByRole('button', { name: 'Clear all filters' }));
    await waitFor(() => expect(listCalls(again.api).at(-1)).not.toHaveProperty('startTime'));
    expect(listCalls(again.api).at(-1)).not.toHaveProperty('endTime');
    expect(dateInput(START_DATE_LABEL).value).toBe('');
    expect(dateInput(END_DATE_LABEL).value).toBe('');
  });

  it(
    "gives the study's auditor the approve/reject switch on their list and sends the verdict",
    SLOW,
    async () => {
      const email = 'aud@demo.local';
      const mine = buildStudyRow({ status: 'SIGNED_OFF', auditor: email });
      const others = buildStudyRow({
        status: 'SIGNED_OFF',
        auditor: 'other@demo.local',
        auditStatus: 'REJECTED',
      });
      const { api } = openList({
        roles: ['ROLE_AUDITOR'],
        email,
        handlers: {
          'POST /api/dicom-web/studies/': { body: buildStudyPage([mine, others]) },
          [`POST /api/report-status/audit-status/${mine.id}`]: { body: { ...mine, auditStatus: 'APPROVED' } },
        },
      });
      const row = await screen.findByTestId(`study-row-${mine.id}`, {}, WAIT);
      expect(screen.getByRole('columnheader', { name: 'Audit Approval' })).toBeTruthy();
      const toggle = await within(row).findByRole('switch', { name: auditSwitchLabel(mine.id) }, WAIT);
      expect(within(row).getByText('Not audited')).toBeTruthy();
      const otherRow = screen.getByTestId(`study-row-${others.id}`);
      expect(within(otherRow).queryByRole('switch')).toBeNull();
      expect(within(otherRow).getByText('Rejected')).toBeTruthy();

      fireEvent.click(toggle);
      expect(await screen.findByText('Audit approved')).toBeTruthy();
      expect(api.calls('POST', `/api/report-status/audit-status/${mine.id}`)[0]?.json()).toEqual({
        status: 'APPROVED',
      });
      expect(within(row).getByText('Approved')).toBeTruthy();
    },
  );

  it('shows a doctor the verdict without a switch', SLOW, async () => {
    const row = buildStudyRow({ status: 'SIGNED_OFF', auditor: 'aud@demo.local', auditStatus: 'APPROVED' });
    const preferences = buildPreferences((p) => {
      p.USER_TABLE_PREFERENCES.tableColumnSettings.studyList = [
        { colName: 'id', visible: true, index: 0 },
        { colName: 'auditApproval', visible: true, index: 1 },
      ];
    });
    openList({
      roles: ['ROLE_DOCTOR'],
      preferences,
      handlers: { 'POST /api/dicom-web/studies/': { body: buildStudyPage([row]) } },
    });
    const drawn = await screen.findByTestId(`study-row-${row.id}`, {}, WAIT);
    expect(within(drawn).getByText('Approved')).toBeTruthy();
    expect(within(drawn).queryByRole('switch')).toBeNull();
  });

  it("offers group staff forwarding and asks for the row's center's PACS list", SLOW, async () => {
    const preferences = buildPreferences((p) => {
      p.GROUP_SWITCHES.addForwardingPacsFeature = true;
    });
    const row = buildStudyRow({ centerId: 7 });
    const { api } = openList({
      roles: ['ROLE_ADMIN'],
      preferences,
      handlers: {
        'POST /api/dicom-web/studies/': { body: buildStudyPage([row]) },
        'GET /api/forward/status': { body: { studies: [] } },
        'GET /api/forwarding-pacs': { body: [] },
      },
    });
    const drawn = await screen.findByTestId(`study-row-${row.id}`, {}, WAIT);
    fireEvent.click(within(drawn).getByRole('button', { name: `Forward study ${row.id} to PACS` }));
    expect(await screen.findByText('Please create pacs server', {}, WAIT)).toBeTruthy();
    expect(api.calls('GET', '/api/forwarding-pacs')).toHaveLength(1);
    const urls = vi.mocked(fetch).mock.calls.map(([input]) => String(input));
    expect(urls).toContain('/api/forwarding-pacs?centerId=7');
  });

  it('offers group staff no forwarding on a row without its center', SLOW, async () => {
    const preferences = buildPreferences((p) => {
      p.GROUP_SWITCHES.addForwardingPacsFeature = true;
    });
    const row = buildStudyRow();
    openList({
      roles: ['ROLE_ADMIN'],
      preferences,
      handlers: { 'POST /api/dicom-web/studies/': { body: buildStudyPage([row]) } },
    });
    const drawn = await screen.findByTestId(`study-row-${row.id}`, {}, WAIT);
    expect(within(drawn).queryByRole('button', { name: `Forward study ${row.id} to PACS` })).toBeNull();
  });
});
