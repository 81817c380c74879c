import { type TRisRow, toPageResponse } from '@radflow/core';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { buildPreferences, buildUser, sessionHandlers } from '../../test/builders';
import { type TRecordedRequest, fakeApi } from '../../test/fake-api';
import { renderScreen } from '../../test/render';
import { useSession } from '../auth/session';
import { LabBillTestPage } from './LabBillTestPage';
import { SELECT_REPORT_TITLE, WITHOUT_HEADER_LABEL } from './PrintLabReport';

const WAIT = { timeout: 8_000 };

function SignedIn({ children }: { children: ReactNode }) {
  const { data } = useSession();
  return data ? children : null;
}

const risRow = (id: number, over: Partial<TRisRow> = {}): TRisRow => ({
  id,
  labBillingId: 100 + id,
  labBillingStatus: 'OPEN',
  statusOfReport: 'PENDING',
  reportStatusId: null,
  studyInstanceId: null,
  invoiceNumber: `INV-${id}`,
  labTestId: 7,
  testCode: 'CT01',
  testName: 'CT Brain',
  labModality: 'CT',
  accessionNumber: `RF0000000${id}`,
  settlementStatus: 'FULL_PRICE',
  uploadedThroughWorkList: false,
  billDate: '2026-03-10T05:00:00.000Z',
  startTimeOfAppointment: null,
  patient: {
    id: 1,
    uhidNumber: 'UH-1',
    name: 'Ravi Kumar',
    mobileNumber: null,
    gender: 'M',
    ageString: '45Y',
  },
  referringDoctor: { name: 'Anil Mehta', mobileNumber: null },
  labBillCategories: [],
  dueAmount: 250.5,
  ...over,
});

type TBody = {
  scheduled: boolean;
  cancelled: boolean;
  statuses: string[];
  modality: string | null;
  page: number;
};

function openPage(
  rows: (request: TRecordedRequest) => TRisRow[],
  switches: { directHeaderPrint?: boolean } = {},
) {
  const preferences = buildPreferences((p) => {
    p.GROUP_SWITCHES.enableDirectHeaderReportPrint = switches.directHeaderPrint ?? false;
  });
  const api = fakeApi({
    ...sessionHandlers(buildUser(['ROLE_LABS_SUPERVISOR'], { centerId: 3 }), preferences),
    'POST /api/pdf/download': { text: '%PDF-1.7 fake', headers: { 'Content-Type': 'application/pdf' } },
    'POST /api/lab/lab-bill-test/search': (request) => {
      const content = rows(request);
      return { body: toPageResponse(content, content.length, 0, 20) };
    },
  });
  renderScreen(
    <SignedIn>
      <LabBillTestPage />
    </SignedIn>,
    { path: '/lab/lab-bill-test' },
  );
  const searches = () => api.calls('POST', '/api/lab/lab-bill-test/search').map((r) => r.json<TBody>());
  return { api, searches };
}

beforeEach(() => {
  localStorage.clear();
  // The printed PDF goes to a hidden frame through an object URL.
  URL.createObjectURL = vi.fn(() => 'blob:fake');
  URL.revokeObjectURL = vi.fn();
});
afterEach(() => vi.unstubAllGlobals());

describe('the test-level dashboard (/lab/lab-bill-test)', () => {
  it('lists the billed tests; a signed-off test opens its report in a new tab', async () => {
    openPage(() => [
      risRow(1, {
        statusOfReport: 'SIGNED_OFF',
        reportStatusId: 55,
        studyInstanceId: '2.25.123',
      }),
      risRow(2, { testName: 'MRI Knee', labModality: 'MR' }),
    ]);
    const signed = await screen.findByTestId('lab-bill-test-row-1', {}, WAIT);
    expect(within(signed).getByText('INV-1')).toBeTruthy();
    expect(within(signed).getByText('Ravi Kumar')).toBeTruthy();
    expect(within(signed).getByText('CT01: CT Brain')).toBeTruthy();
    expect(within(signed).getByText('250.50')).toBeTruthy();
    // 05:00 UTC is 10:30 in the group's default zone (+05:30).
    expect(within(signed).getByText('2026-03-10 10:30:00')).toBeTruthy();
    const link = within(signed).getByRole('link', { name: 'Open the report of CT Brain (INV-1)' });
    expect(link.getAttribute('href')).toBe('/report-edit/2.25.123/55');
    expect(link.getAttribute('target')).toBe('_blank');
    const pending = screen.getByTestId('lab-bill-test-row-2');
    expect(within(pending).getByText('PENDING')).toBeTruthy();
    expect(within(pending).queryByRole('link')).toBeNull();
  });

  it('sends the tab flags, modality and report status; the tab is remembered', async () => {
    const { searches } = openPage(() => []);
    await screen.findByTestId('lab-bill-test-empty', {}, WAIT);
    expect(searches()[0]).toMatchObject({ scheduled: false, cancelled: false, statuses: [], modality: null });

    fireEvent.click(screen.getByRole('tab', { name: 'Scheduled' }));
    await waitFor(() => expect(searches().at(-1)).toMatchObject({ scheduled: true, cancelled: false }), WAIT);
    fireEvent.click(screen.getByRole('tab', { name: 'All' }));
    await waitFor(() => expect(searches().at(-1)).toMatchObject({ scheduled: false, cancelled: true }), WAIT);
    expect(localStorage.getItem('radflow.labBillTest.tab')).toBe('All');

    fireEvent.mouseDown(screen.getByLabelText('Report status'));
    fireEvent.click(await screen.findByRole('option', { name: 'SIGNED_OFF' }));
    await waitFor(() => expect(searches().at(-1)).toMatchObject({ statuses: ['SIGNED_OFF'] }), WAIT);
    fireEvent.mouseDown(screen.getByLabelText('Modality'));
    fireEvent.click(await screen.findByRole('option', { name: 'MR' }));
    await waitFor(() => expect(searches().at(-1)).toMatchObject({ modality: 'MR', cancelled: true }), WAIT);
    fireEvent.change(screen.getByLabelText('Start date'), { target: { value: '2026-03-01' } });
    await waitFor(() => expect(searches().at(-1)).toMatchObject({ startTime: '2026-03-01' }), WAIT);
  });

  it('opens on the remembered tab', async () => {
    localStorage.setItem('radflow.labBillTest.tab', 'Scheduled');
    const { searches } = openPage(() => []);
    await screen.findByTestId('lab-bill-test-empty', {}, WAIT);
    expect(searches()[0]).toMatchObject({ scheduled: true, cancelled: false });
    expect(screen.getByRole('tab', { name: 'Scheduled' }).getAttribute('aria-selected')).toBe('true');
  });

  it('prints a signed-off report after asking with or without the header', async () => {
    const { api } = openPage(() => [
      risRow(1, { statusOfReport: 'SIGNED_OFF', reportStatusId: 55, studyInstanceId: '2.25.123' }),
      risRow(2),
    ]);
    const signed = await screen.findByTestId('lab-bill-test-row-1', {}, WAIT);
    expect(
      within(screen.getByTestId('lab-bill-test-row-2')).queryByRole('button', { name: /Print/ }),
    ).toBeNull();
    fireEvent.click(within(signed).getByRole('button', { name: 'Print the report of CT Brain (INV-1)' }));
    const dialog = await screen.findByRole('dialog', { name: SELECT_REPORT_TITLE }, WAIT);
    fireEvent.click(within(dialog).getByRole('button', { name: WITHOUT_HEADER_LABEL }));
    await waitFor(() => expect(api.calls('POST', '/api/pdf/download')).toHaveLength(1), WAIT);
    expect(api.calls('POST', '/api/pdf/download')[0]!.json()).toEqual({
      uid: '2.25.123',
      reportStatusId: 55,
      showTemplate: false,
      print: true,
    });
  });

  it('under enableDirectHeaderReportPrint prints with the header at once', async () => {
    const { api } = openPage(
      () => [risRow(1, { statusOfReport: 'SIGNED_OFF', reportStatusId: 55, studyInstanceId: '2.25.123' })],
      { directHeaderPrint: true },
    );
    const signed = await screen.findByTestId('lab-bill-test-row-1', {}, WAIT);
    fireEvent.click(within(signed).getByRole('button', { name: 'Print the report of CT Brain (INV-1)' }));
    await waitFor(() => expect(api.calls('POST', '/api/pdf/download')).toHaveLength(1), WAIT);
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(api.calls('POST', '/api/pdf/download')[0]!.json()).toMatchObject({
      showTemplate: true,
      print: true,
    });
  });
});
