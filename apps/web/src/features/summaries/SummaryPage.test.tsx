import { SUMMARY_MESSAGES, type TRole, type TUserPreferences } from '@radflow/core';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { buildPreferences, buildUser, sessionHandlers } from '../../test/builders';
import { fakeApi, type TFakeReply, type TRecordedRequest } from '../../test/fake-api';
import { renderScreen } from '../../test/render';
import { buildStudyPage, buildStudyRow } from '../../test/study-row';
import { useSession } from '../auth/session';
import { END_DATE_LABEL, START_DATE_LABEL } from '../worklist/DateRangeFilter';
import { DATE_TYPE_LABEL, DOWNLOAD_EXCEL_LABEL, HISTORY_ACTION_LABELS, SummaryPage } from './SummaryPage';

const SLOW = { timeout: 20_000 };
const WAIT = { timeout: 8_000 };

function SignedIn({ children }: { children: ReactNode }) {
  const { data } = useSession();
  return data ? children : null;
}

type THandler = TFakeReply | ((request: TRecordedRequest) => TFakeReply);

const TOTALS = { total: 2, signedOff: 1, pending: 1, deleted: 0 };

function openSummary(
  roles: TRole[],
  opts: { preferences?: TUserPreferences; handlers?: Record<string, THandler> } = {},
) {
  const user = buildUser(roles);
  const api = fakeApi({
    ...sessionHandlers(user, opts.preferences),
    'POST /api/total-summary/': { body: TOTALS },
    ...opts.handlers,
  });
  const view = renderScreen(
    <SignedIn>
      <SummaryPage title="Report summary" />
    </SignedIn>,
    { path: '/summary' },
  );
  return { api, user, ...view };
}

const setDate = (label: string, value: string) =>
  fireEvent.change(screen.getByLabelText(label), { target: { value } });
const summaryCalls = (api: ReturnType<typeof fakeApi>, path = '/api/report-summary/') =>
  api.calls('POST', path).map((r) => r.json<Record<string, unknown>>());

beforeEach(() => {
  localStorage.clear();
  URL.createObjectURL = vi.fn(() => 'blob:fake');
  URL.revokeObjectURL = vi.fn();
});
afterEach(() => vi.unstubAllGlobals());

describe('the report summary screen (spec-core §2 Summary screen)', () => {
  it('asks for both dates, then searches, re-searching on a new date type', SLOW, async () => {
    const signed = buildStudyRow({
      id: 41,
      patientName: 'DOE^JANE',
      status: 'SIGNED_OFF',
      signedOffAt: '2026-01-06T12:00:00.000Z',
      radiologyCenter: 'North Center',
    });
    const open = buildStudyRow({ id: 42, patientName: 'ROE^RICHARD' });
    const { api } = openSummary(['ROLE_CENTER'], {
      handlers: { 'POST /api/report-summary/': { body: buildStudyPage([signed, open]) } },
    });

    expect(await screen.findByText(SUMMARY_MESSAGES.selectDate, {}, WAIT)).toBeTruthy();
    setDate(START_DATE_LABEL, '2026-01-01');
    // One date is not a range: nothing is asked yet.
    expect(screen.getByText(SUMMARY_MESSAGES.selectDate)).toBeTruthy();
    expect(summaryCalls(api)).toHaveLength(0);

    setDate(END_DATE_LABEL, '2026-01-31');
    await waitFor(() => expect(summaryCalls(api)).toHaveLength(1), WAIT);
    expect(summaryCalls(api)[0]).toMatchObject({
      startTime: '2026-01-01',
      endTime: '2026-01-31',
      summaryType: 'UPLOAD_TIME',
      page: 0,
      size: 20,
    });
    const row = await screen.findByTestId('summary-row-41', {}, WAIT);
    expect(within(row).getByText('JANE DOE')).toBeTruthy();
    expect(within(row).getByText('North Center')).toBeTruthy();
    expect(row.querySelector('[data-column="signedOffDate"]')?.textContent).toBe('2026-01-06 17:30:00');
    expect(screen.queryByText(SUMMARY_MESSAGES.selectDate)).toBeNull();
    expect((await screen.findByTestId('summary-total-total')).textContent).toBe('Total: 2');
    expect(screen.getByTestId('summary-total-signedOff').textContent).toBe('Signed off: 1');
    // The default summary columns (core DEFAULT_COLUMNS doctorSummary); assigned-to is off by default.
    const headers = screen.getAllByRole('columnheader').map((h) => h.textContent);
    expect(headers).toContain('Signed Off Date');
    expect(headers).not.toContain('Assigned');

    fireEvent.mouseDown(screen.getByLabelText(DATE_TYPE_LABEL));
    fireEvent.click(await screen.findByRole('option', { name: 'Signed-off time' }));
    await waitFor(() => expect(summaryCalls(api).at(-1)?.summaryType).toBe('SIGNED_OFF_TIME'), WAIT);
    expect(summaryCalls(api, '/api/total-summary/').at(-1)?.summaryType).toBe('SIGNED_OFF_TIME');

    // Emptying a date stops the search: no call, the message again.
    const before = summaryCalls(api).length;
    setDate(END_DATE_LABEL, '');
    expect(await screen.findByText(SUMMARY_MESSAGES.selectDate)).toBeTruthy();
    expect(screen.queryByTestId('summary-row-41')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: DOWNLOAD_EXCEL_LABEL }));
    expect(summaryCalls(api, '/api/report-summary/xlsx')).toHaveLength(0);
    expect(summaryCalls(api)).toHaveLength(before);
  });

  it('opens again with the last dates and date type (kept per table key)', SLOW, async () => {
    const page = { 'POST /api/report-summary/': { body: buildStudyPage([buildStudyRow({ id: 8 })]) } };
    const first = openSummary(['ROLE_CENTER'], { handlers: page });
    await screen.findByLabelText(START_DATE_LABEL, {}, WAIT);
    setDate(START_DATE_LABEL, '2026-02-01');
    setDate(END_DATE_LABEL, '2026-02-10');
    fireEvent.mouseDown(screen.getByLabelText(DATE_TYPE_LABEL));
    fireEvent.click(await screen.findByRole('option', { name: 'Study time' }));
    await waitFor(() => expect(summaryCalls(first.api).at(-1)?.summaryType).toBe('STUDY_TIME'), WAIT);
    first.unmount();

    const again = openSummary(['ROLE_CENTER'], { handlers: page });
    await waitFor(() => expect(summaryCalls(again.api)).toHaveLength(1), WAIT);
    expect(summaryCalls(again.api)[0]).toMatchObject({
      startTime: '2026-02-01',
      endTime: '2026-02-10',
      summaryType: 'STUDY_TIME',
    });
    expect(await screen.findByTestId('summary-row-8', {}, WAIT)).toBeTruthy();
  });

  it('downloads the Excel of the range it shows', SLOW, async () => {
    const { api } = openSummary(['ROLE_ADMIN'], {
      handlers: {
        'POST /api/report-summary/': { body: buildStudyPage([buildStudyRow({ id: 7 })]) },
        'POST /api/report-summary/xlsx': {
          text: 'PK',
          headers: {
            'Content-Disposition': 'attachment; filename="report-summary-2026-01-01-to-2026-01-02.xlsx"',
          },
        },
      },
    });
    await screen.findByLabelText(START_DATE_LABEL, {}, WAIT);
    setDate(START_DATE_LABEL, '2026-01-01');
    setDate(END_DATE_LABEL, '2026-01-02');
    await screen.findByTestId('summary-row-7', {}, WAIT);
    fireEvent.click(screen.getByRole('button', { name: DOWNLOAD_EXCEL_LABEL }));
    await waitFor(() => expect(summaryCalls(api, '/api/report-summary/xlsx')).toHaveLength(1));
    expect(summaryCalls(api, '/api/report-summary/xlsx')[0]).toMatchObject({
      startTime: '2026-01-01',
      endTime: '2026-01-02',
      summaryType: 'UPLOAD_TIME',
    });
    await waitFor(() => expect(URL.createObjectURL).toHaveBeenCalled());
  });

  it("says 'You are not allowed to view this page' under the switches, and asks nothing", SLOW, async () => {
    const hidden = buildPreferences((p) => {
      p.USER_ADMIN_VISIBLE_PREFERENCES.hideSummaryPage = true;
    });
    const { api, unmount } = openSummary(['ROLE_DOCTOR'], { preferences: hidden });
    expect(await screen.findByText(SUMMARY_MESSAGES.notAllowed, {}, WAIT)).toBeTruthy();
    expect(screen.queryByLabelText(START_DATE_LABEL)).toBeNull();
    unmount();
    const teleMed = buildPreferences((p) => {
      p.USER_ADMIN_VISIBLE_PREFERENCES.teleMedSpecificCustomization = true;
    });
    openSummary(['ROLE_CENTER'], { preferences: teleMed });
    expect(await screen.findByText(SUMMARY_MESSAGES.notAllowed, {}, WAIT)).toBeTruthy();
    expect(summaryCalls(api)).toHaveLength(0);
  });

  it(
    'offers the history actions by role and hides Excel from an assignor under the switch',
    SLOW,
    async () => {
      const noExcel = buildPreferences((p) => {
        p.USER_ADMIN_VISIBLE_PREFERENCES.disableExcelDownloadForAssignor = true;
      });
      const live = buildStudyRow({ id: 51 });
      const deleted = buildStudyRow({ id: 52, status: 'DELETED' });
      const page = { 'POST /api/report-summary/': { body: buildStudyPage([live, deleted]) } };
      const assignor = openSummary(['ROLE_ADMIN', 'ROLE_ASSIGNOR', 'ROLE_BILLER'], {
        preferences: noExcel,
        handlers: page,
      });
      await screen.findByLabelText(START_DATE_LABEL, {}, WAIT);
      setDate(START_DATE_LABEL, '2026-01-01');
      setDate(END_DATE_LABEL, '2026-01-02');
      const row = await screen.findByTestId('summary-row-51', {}, WAIT);
      expect(screen.queryByRole('button', { name: DOWNLOAD_EXCEL_LABEL })).toBeNull();
      expect(
        within(row).getByRole('button', { name: `${HISTORY_ACTION_LABELS.editHistory} of study 51` }),
      ).toBeTruthy();
      expect(
        within(row).getByRole('button', { name: `${HISTORY_ACTION_LABELS.timeline} of study 51` }),
      ).toBeTruthy();
      const openLive = within(row).getByRole('button', {
        name: `${HISTORY_ACTION_LABELS.openReport} of study 51`,
      });
      expect(openLive.hasAttribute('disabled')).toBe(false);
      const deletedRow = screen.getByTestId('summary-row-52');
      const openDeleted = within(deletedRow).getByRole('button', {
        name: `${HISTORY_ACTION_LABELS.openReport} of study 52`,
      });
      expect(openDeleted.hasAttribute('disabled')).toBe(true);
      assignor.unmount();

      // A doctor: no history edit, no timeline; Excel offered (the switch is about assignors).
      openSummary(['ROLE_DOCTOR'], { preferences: noExcel, handlers: page });
      await screen.findByLabelText(START_DATE_LABEL, {}, WAIT);
      setDate(START_DATE_LABEL, '2026-01-01');
      setDate(END_DATE_LABEL, '2026-01-02');
      const doctorRow = await screen.findByTestId('summary-row-51', {}, WAIT);
      expect(screen.getByRole('button', { name: DOWNLOAD_EXCEL_LABEL })).toBeTruthy();
      expect(within(doctorRow).queryByRole('button', { name: /Edit history/ })).toBeNull();
      expect(within(doctorRow).queryByRole('button', { name: /Show timeline/ })).toBeNull();
    },
  );
});

describe('the Advanced Search Report Summary screen', () => {
  const aggregate = (totalCases: number) => ({
    totalCases,
    completedCases: 1,
    signedOffWithinLimit: 1,
    uniquePatients: totalCases,
  });
  const on = buildPreferences((p) => {
    p.USER_ADMIN_VISIBLE_PREFERENCES.enableElasticReportSummary = true;
  });

  function openAdvanced(preferences: TUserPreferences) {
    const api = fakeApi({
      ...sessionHandlers(buildUser(['ROLE_CENTER']), preferences),
      'POST /api/query/report-summary': {
        body: {
          ...buildStudyPage([buildStudyRow({ id: 61 })]),
          aggregations: [
            ['CUSTOM', '2026-01-01', '2026-01-31', 5],
            ['LAST_1_DAYS', '2026-11-27', '2026-11-27', 1],
            ['LAST_7_DAYS', '2026-11-21', '2026-11-27', 2],
            ['LAST_30_DAYS', '2026-10-29', '2026-11-27', 3],
          ].map(([key, startTime, endTime, n]) => ({
            key,
            startTime,
            endTime,
            group: aggregate(n as number),
            centers: [{ centerEmail: 'north@demo.local', centerName: 'North', ...aggregate(n as number) }],
          })),
        },
      },
    });
    renderScreen(
      <SignedIn>
        <SummaryPage title="Advanced Search Report Summary" advanced />
      </SignedIn>,
      { path: '/search-page/summary' },
    );
    return api;
  }

  it('shows the page and the aggregates of each window from one call', SLOW, async () => {
    const api = openAdvanced(on);
    await screen.findByLabelText(START_DATE_LABEL, {}, WAIT);
    setDate(START_DATE_LABEL, '2026-01-01');
    setDate(END_DATE_LABEL, '2026-01-31');
    expect(await screen.findByTestId('summary-row-61', {}, WAIT)).toBeTruthy();
    expect(summaryCalls(api, '/api/query/report-summary')[0]).toMatchObject({
      startTime: '2026-01-01',
      endTime: '2026-01-31',
    });
    expect(summaryCalls(api)).toHaveLength(0);
    const custom = screen.getByTestId('summary-window-CUSTOM');
    expect(within(custom).getByText('North')).toBeTruthy();
    expect(screen.getByTestId('summary-window-CUSTOM-total').textContent).toBe('Total5115');
    expect(screen.getByTestId('summary-window-LAST_30_DAYS-total').textContent).toBe('Total3113');
  });

  it('is not allowed without enableElasticReportSummary', SLOW, async () => {
    const api = openAdvanced(buildPreferences());
    expect(await screen.findByText(SUMMARY_MESSAGES.notAllowed, {}, WAIT)).toBeTruthy();
    expect(summaryCalls(api, '/api/query/report-summary')).toHaveLength(0);
  });
});
