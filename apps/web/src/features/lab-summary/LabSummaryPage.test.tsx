import {
  LAB_DOCUMENT_MESSAGES as M,
  toPageResponse,
  type TLabSummaryPage,
  type TLabSummaryRow,
  type TRole,
  type TUserPreferences,
} from '@radflow/core';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { useState, type ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { buildPreferences, buildUser, sessionHandlers } from '../../test/builders';
import { errorBody, fakeApi, type TFakeReply } from '../../test/fake-api';
import { renderScreen } from '../../test/render';
import { useSession } from '../auth/session';
import { END_DATE_LABEL, START_DATE_LABEL } from '../worklist/DateRangeFilter';
import { LAB_SUMMARY_LABELS as L, LabSummaryPage } from './LabSummaryPage';
import { PrintOptionDialog } from './PrintOptionDialog';
import { openBillPrint } from './open-bill-print';

const SLOW = { timeout: 20_000 };
const WAIT = { timeout: 8_000 };

function SignedIn({ children }: { children: ReactNode }) {
  const { data } = useSession();
  return data ? children : null;
}

const ROW: TLabSummaryRow = {
  id: 31,
  invoiceNumber: 'INV-0031',
  status: 'OPEN',
  billDate: '2026-10-05T03:30:00.000Z',
  createdAt: '2026-10-05T03:30:00.000Z',
  patientName: 'Asha Rao',
  uhidNumber: 'UH-77',
  receptionistEmail: 'asha@lab.local',
  receptionistName: 'Asha Desk',
  tests: ['CT: CT01 CT Head (2000)'],
  totalAmount: 2000,
  discountAmount: 0,
  finalAmount: 2000,
  advancePaid: 1500,
  dueAmount: 500,
  labTransactions: [
    {
      paymentMethod: 'UPI',
      transactionId: 'U-1',
      amount: 1500,
      recordedBy: 'asha@lab.local',
      recordedByName: 'Asha Desk',
      recordedAt: '2026-10-05T03:31:00.000Z',
    },
  ],
};
const PAGE: TLabSummaryPage = {
  ...toPageResponse([ROW], 1, 0, 20),
  totals: {
    bills: 1,
    totalAmount: 2000,
    discountAmount: 0,
    finalAmount: 2000,
    advancePaid: 1500,
    dueAmount: 500,
  },
};
const USERS = [
  { id: 1, name: 'Asha Desk', email: 'asha@lab.local' },
  { id: 2, name: 'Bala Desk', email: 'bala@lab.local' },
];
const FILE = (name: string): TFakeReply => ({
  text: 'file',
  headers: { 'Content-Disposition': `attachment; filename="${name}"` },
});

function openLabSummary(
  roles: TRole[],
  preferences?: TUserPreferences,
  handlers: Record<string, TFakeReply> = {},
) {
  const api = fakeApi({
    ...sessionHandlers(buildUser(roles), preferences),
    'POST /api/lab/summary/search': { body: PAGE },
    'GET /api/lab/get-lab-users': { body: USERS },
    'POST /api/lab/summary/csv': FILE('lab-summary.csv'),
    'POST /api/lab/summary/tests/csv': FILE('lab-tests.xlsx'),
    'POST /api/lab/summary/pdf': FILE('lab-summary.pdf'),
    'POST /api/lab/summary/amu-summary-pdf': FILE('lab-amu.pdf'),
    ...handlers,
  });
  renderScreen(
    <SignedIn>
      <LabSummaryPage />
    </SignedIn>,
    { path: '/lab/summary' },
  );
  const bodies = (path: string) => api.calls('POST', path).map((r) => r.json<Record<string, unknown>>());
  return { api, bodies };
}

const setDate = (label: string, value: string) =>
  fireEvent.change(screen.getByLabelText(label), { target: { value } });
const flagsOn = (...names: Array<'enableSummaryPdfRIS' | 'amuSpecialCustomization'>) =>
  buildPreferences((p) => {
    for (const name of names) {
      (p.USER_ADMIN_VISIBLE_PREFERENCES as Record<string, unknown>)[name] = true;
      (p.GROUP_SWITCHES as Record<string, unknown>)[name] = true;
    }
  });

beforeEach(() => {
  URL.createObjectURL = vi.fn(() => 'blob:fake');
  URL.revokeObjectURL = vi.fn();
});
afterEach(() => vi.unstubAllGlobals());

describe('the lab summary screen (spec-lab §2 /lab/summary)', () => {
  it(
    "a supervisor: 'Please select date' until both dates, then the bills; picks a receptionist and a sort; downloads",
    SLOW,
    async () => {
      const { bodies, api } = openLabSummary(['ROLE_LABS_SUPERVISOR']);
      expect(await screen.findByText(M.selectDate, {}, WAIT)).toBeTruthy();
      // Downloads without dates: the message, no call.
      fireEvent.click(screen.getByRole('button', { name: L.csv }));
      expect((await screen.findAllByText(M.selectDate)).length).toBeGreaterThan(1);
      expect(bodies('/api/lab/summary/csv')).toHaveLength(0);
      expect(bodies('/api/lab/summary/search')).toHaveLength(0);

      setDate(START_DATE_LABEL, '2026-10-01');
      setDate(END_DATE_LABEL, '2026-10-05');
      const row = await screen.findByTestId('lab-summary-row-31', {}, WAIT);
      expect(within(row).getByText('Asha Rao')).toBeTruthy();
      expect(within(row).getByText('2026-10-05 09:00:00')).toBeTruthy();
      expect(within(row).getByText('CT: CT01 CT Head (2000)')).toBeTruthy();
      expect(within(row).getByText(/UPI ₹1500.00 \(U-1\)/)).toBeTruthy();
      expect(screen.getByText('Due: ₹500.00')).toBeTruthy();
      expect(bodies('/api/lab/summary/search').at(-1)).toEqual({
        startTime: '2026-10-01',
        endTime: '2026-10-05',
        sortType: 'DATE_CREATED_AT',
        receptionistName: '',
        scheduled: false,
        page: 0,
        size: 20,
      });

      // The receptionist picker begins with 'All Receptionists', then the lab's users.
      fireEvent.mouseDown(screen.getByLabelText(L.receptionist));
      const options = (await screen.findAllByRole('option')).map((o) => o.textContent);
      expect(options).toEqual([M.allReceptionists, 'Asha Desk', 'Bala Desk']);
      fireEvent.click(screen.getByRole('option', { name: 'Bala Desk' }));
      await waitFor(() =>
        expect(bodies('/api/lab/summary/search').at(-1)?.receptionistName).toBe('bala@lab.local'),
      );
      fireEvent.mouseDown(screen.getByLabelText(L.sort));
      fireEvent.click(await screen.findByRole('option', { name: 'Payment recorded by' }));
      await waitFor(() =>
        expect(bodies('/api/lab/summary/search').at(-1)?.sortType).toBe('PAYMENT_RECORDED_BY'),
      );
      fireEvent.click(screen.getByLabelText(L.scheduled));
      await waitFor(() => expect(bodies('/api/lab/summary/search').at(-1)?.scheduled).toBe(true));

      fireEvent.click(screen.getByRole('button', { name: L.csv }));
      await waitFor(() => expect(bodies('/api/lab/summary/csv')).toHaveLength(1));
      expect(bodies('/api/lab/summary/csv')[0]).toMatchObject({
        startTime: '2026-10-01',
        endTime: '2026-10-05',
        receptionistName: 'bala@lab.local',
        sortType: 'PAYMENT_RECORDED_BY',
        scheduled: true,
      });
      fireEvent.click(screen.getByRole('button', { name: L.testsExcel }));
      await waitFor(() => expect(bodies('/api/lab/summary/tests/csv')).toHaveLength(1));
      await waitFor(() => expect(URL.createObjectURL).toHaveBeenCalledTimes(2));
      // Neither switch is on: no summary PDF, no AMU PDF.
      expect(screen.queryByRole('button', { name: L.pdf })).toBeNull();
      expect(screen.queryByRole('button', { name: L.amuPdf })).toBeNull();
      expect(api.calls('GET', '/api/lab/get-lab-users')).toHaveLength(1);
    },
  );

  it(
    'a receptionist: no picker, no tests excel, no AMU PDF even under the switch; the summary PDF under its switch',
    SLOW,
    async () => {
      const { api, bodies } = openLabSummary(
        ['ROLE_LABS_RECEPTIONIST'],
        flagsOn('enableSummaryPdfRIS', 'amuSpecialCustomization'),
      );
      await screen.findByLabelText(START_DATE_LABEL, {}, WAIT);
      expect(screen.queryByLabelText(L.receptionist)).toBeNull();
      expect(screen.queryByRole('button', { name: L.testsExcel })).toBeNull();
      expect(screen.queryByRole('button', { name: L.amuPdf })).toBeNull();
      expect(api.calls('GET', '/api/lab/get-lab-users')).toHaveLength(0);
      setDate(START_DATE_LABEL, '2026-10-01');
      setDate(END_DATE_LABEL, '2026-10-01');
      fireEvent.click(screen.getByRole('button', { name: L.pdf }));
      await waitFor(() => expect(bodies('/api/lab/summary/pdf')).toHaveLength(1));
    },
  );

  it(
    'a supervisor under amuSpecialCustomization downloads the AMU PDF with the dates only',
    SLOW,
    async () => {
      const { bodies } = openLabSummary(['ROLE_LABS_SUPERVISOR'], flagsOn('amuSpecialCustomization'));
      await screen.findByLabelText(START_DATE_LABEL, {}, WAIT);
      expect(screen.queryByRole('button', { name: L.pdf })).toBeNull();
      fireEvent.click(screen.getByRole('button', { name: L.amuPdf }));
      expect((await screen.findAllByText(M.selectDate)).length).toBeGreaterThan(1);
      expect(bodies('/api/lab/summary/amu-summary-pdf')).toHaveLength(0);
      setDate(START_DATE_LABEL, '2026-10-01');
      setDate(END_DATE_LABEL, '2026-10-02');
      fireEvent.click(screen.getByRole('button', { name: L.amuPdf }));
      await waitFor(() =>
        expect(bodies('/api/lab/summary/amu-summary-pdf')).toEqual([
          { startTime: '2026-10-01', endTime: '2026-10-02' },
        ]),
      );
    },
  );
});

describe('the print-option chooser and openBillPrint (spec-lab §2 dialogs, §8)', () => {
  function Chooser() {
    const [open, setOpen] = useState(true);
    return <PrintOptionDialog billId={31} open={open} onClose={() => setOpen(false)} />;
  }
  const pdf: TFakeReply = { text: '%PDF-1.7', headers: { 'Content-Type': 'application/pdf' } };

  function stubTabs() {
    const tabs: Array<{ location: { href: string }; close: ReturnType<typeof vi.fn> }> = [];
    vi.stubGlobal(
      'open',
      vi.fn(() => {
        const tab = { location: { href: '' }, close: vi.fn() };
        tabs.push(tab);
        return tab;
      }),
    );
    return tabs;
  }

  it(
    'offers invoice only, slip only, both and cancel; Both opens the invoice and the slip in two tabs',
    SLOW,
    async () => {
      const tabs = stubTabs();
      const api = fakeApi({
        ...sessionHandlers(buildUser(['ROLE_LABS_RECEPTIONIST'])),
        'GET /api/lab/bill/print/31': pdf,
        'GET /api/lab/appointment-slip/print/31': pdf,
      });
      renderScreen(
        <SignedIn>
          <Chooser />
        </SignedIn>,
        { path: '/lab/create-bill' },
      );
      const dialog = await screen.findByRole('dialog', {}, WAIT);
      expect(
        within(dialog)
          .getAllByRole('button')
          .map((b) => b.textContent),
      ).toEqual(['Invoice only', 'Appointment slip only', 'Both', 'Cancel']);
      fireEvent.click(within(dialog).getByRole('button', { name: 'Both' }));
      await waitFor(() => expect(tabs.map((t) => t.location.href)).toEqual(['blob:fake', 'blob:fake']));
      expect(api.calls('GET', '/api/lab/bill/print/31')).toHaveLength(1);
      expect(api.calls('GET', '/api/lab/appointment-slip/print/31')).toHaveLength(1);
      await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    },
  );

  it("a failed PDF closes its tab and says 'Error downloading PDF'", SLOW, async () => {
    const tabs = stubTabs();
    fakeApi({
      ...sessionHandlers(buildUser(['ROLE_LABS_RECEPTIONIST'])),
      'GET /api/lab/appointment-slip/print/31': {
        status: 409,
        body: errorBody(409, 'This bill has no appointment'),
      },
    });
    renderScreen(
      <SignedIn>
        <Chooser />
      </SignedIn>,
      { path: '/lab/create-bill' },
    );
    fireEvent.click(
      within(await screen.findByRole('dialog', {}, WAIT)).getByRole('button', {
        name: 'Appointment slip only',
      }),
    );
    expect(await screen.findByText(M.errorDownloadingPdf, {}, WAIT)).toBeTruthy();
    expect(tabs[0]?.close).toHaveBeenCalled();

    const errors: string[] = [];
    expect(await openBillPrint(99, (m) => errors.push(m))).toBe(false);
    expect(errors).toEqual([M.errorDownloadingPdf]);
  });
});
