import { BILL_MESSAGES, type TBillListRow } from '@radflow/core';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { buildUser, sessionHandlers } from '../../test/builders';
import { errorBody, fakeApi, type TFakeReply, type TRecordedRequest } from '../../test/fake-api';
import { renderRoutes } from '../../test/render';
import { useSession } from '../auth/session';
import { END_DATE_LABEL, START_DATE_LABEL } from '../worklist/DateRangeFilter';
import { BILLING_COLUMNS, BILLING_TAB_STORAGE_KEY, BillingList, CREATE_BILL_LABEL } from './BillingList';
import { CANCELLATION_REASON_LABEL } from './CancelBillDialog';
import { savedBill } from './test-bills';

const SLOW = { timeout: 45_000 };
const WAIT = { timeout: 15_000 };

function SignedIn({ children }: { children: ReactNode }) {
  const { data } = useSession();
  return data ? children : null;
}

type THandler = TFakeReply | ((request: TRecordedRequest) => TFakeReply);

function row(overrides: Partial<TBillListRow> = {}): TBillListRow {
  return {
    id: 501,
    version: 1,
    status: 'OPEN',
    invoiceNumber: 'INV-0501',
    uhidNumber: 'UH1007',
    patientName: 'Ravi Kumar',
    mobileNumber: '9876543210',
    referringDoctorName: 'Dr Anand Rao',
    tests: ['CT: CT01 CT Head (1500)', 'DX: DX01 Chest X-ray (500)'],
    modalities: ['CT', 'DX'],
    reportStatuses: [
      { testCode: 'CT01', status: 'SIGNED_OFF', studyInstanceUid: '2.25.9', reportStatusId: 41 },
      { testCode: 'DX01', status: 'PENDING', studyInstanceUid: null, reportStatusId: null },
    ],
    categories: ['SENIOR'],
    priorities: ['URGENT'],
    totalPrice: 2000,
    finalAmount: 1800,
    dueAmount: 800,
    billDate: '2026-11-27T05:00:00.000Z',
    createdAt: '2026-11-27T05:00:00.000Z',
    ...overrides,
  };
}

function openList(handlers: Record<string, THandler> = {}) {
  const api = fakeApi({
    ...sessionHandlers(buildUser(['ROLE_LABS_RECEPTIONIST'])),
    'POST /api/lab/bill/search': {
      body: { content: [row()], totalElements: 1, totalRelation: 'eq', page: 0, size: 20 },
    },
    ...handlers,
  });
  const view = renderRoutes(
    [
      {
        path: '/lab/registration',
        element: (
          <SignedIn>
            <BillingList />
          </SignedIn>
        ),
      },
      { path: '/lab/create-bill/:id?', element: <p>Bill screen</p> },
    ],
    '/lab/registration',
  );
  return { api, ...view };
}

const searches = (api: ReturnType<typeof fakeApi>) =>
  api.calls('POST', '/api/lab/bill/search').map((r) => r.json<Record<string, unknown>>());

beforeEach(() => {
  localStorage.clear();
  // The PDFs open as blobs (lab-summary's openBillPrint).
  URL.createObjectURL = vi.fn(() => 'blob:fake');
  URL.revokeObjectURL = vi.fn();
});
afterEach(() => vi.unstubAllGlobals());

describe('the lab billing list (spec-lab §2 Lab billing list)', () => {
  it('shows every column and searches by the tab, remembering the chosen tab', SLOW, async () => {
    const first = openList();
    const bill = await screen.findByTestId('bill-row-501', {}, WAIT);
    expect(screen.getAllByRole('columnheader').map((h) => h.textContent)).toEqual([...BILLING_COLUMNS]);
    expect(within(bill).getByText('INV-0501')).toBeTruthy();
    expect(within(bill).getByText('CT: CT01 CT Head (1500)')).toBeTruthy();
    expect(within(bill).getByText('SENIOR')).toBeTruthy();
    expect(within(bill).getAllByText('2026-11-27 10:30:00')).toHaveLength(2);
    expect(screen.getByTestId('bill-due-501').textContent).toBe('800');
    expect(searches(first.api)[0]).toMatchObject({
      labBillingStatuses: ['SCHEDULED', 'OPEN', 'COMPLETED'],
      page: 0,
      size: 20,
    });

    fireEvent.click(screen.getByRole('tab', { name: 'Scheduled' }));
    await waitFor(() => expect(searches(first.api).at(-1)?.labBillingStatuses).toEqual(['SCHEDULED']), WAIT);
    fireEvent.click(screen.getByRole('tab', { name: 'All' }));
    await waitFor(
      () =>
        expect(searches(first.api).at(-1)?.labBillingStatuses).toEqual([
          'SCHEDULED',
          'OPEN',
          'CANCELLED',
          'COMPLETED',
        ]),
      WAIT,
    );
    expect(localStorage.getItem(BILLING_TAB_STORAGE_KEY)).toBe('All');

    fireEvent.change(screen.getByLabelText(START_DATE_LABEL), { target: { value: '2026-11-01' } });
    fireEvent.change(screen.getByLabelText(END_DATE_LABEL), { target: { value: '2026-11-27' } });
    await waitFor(
      () =>
        expect(searches(first.api).at(-1)).toMatchObject({ startTime: '2026-11-01', endTime: '2026-11-27' }),
      WAIT,
    );
    first.unmount();

    // Opened again, the list starts on the remembered tab.
    const again = openList();
    await screen.findByTestId('bill-row-501', {}, WAIT);
    expect(screen.getByRole('tab', { name: 'All' }).getAttribute('aria-selected')).toBe('true');
    expect(searches(again.api)[0]?.labBillingStatuses).toEqual([
      'SCHEDULED',
      'OPEN',
      'CANCELLED',
      'COMPLETED',
    ]);
  });

  it(
    'shows each test’s report status, the signed-off one opening its report; filters by modality and report status',
    SLOW,
    async () => {
      const { api } = openList();
      const bill = await screen.findByTestId('bill-row-501', {}, WAIT);
      expect(within(bill).getByText('DX01: PENDING')).toBeTruthy();
      const report = within(bill).getByRole('link', { name: 'Open the report of CT01 (INV-0501)' });
      expect(report.getAttribute('href')).toBe('/report-edit/2.25.9/41');
      expect(report.getAttribute('target')).toBe('_blank');
      expect(searches(api)[0]).toMatchObject({ testModality: null, labReportStatuses: [] });

      fireEvent.mouseDown(screen.getByLabelText('Modality'));
      fireEvent.click(await screen.findByRole('option', { name: 'CT' }, WAIT));
      await waitFor(() => expect(searches(api).at(-1)).toMatchObject({ testModality: 'CT', page: 0 }), WAIT);
      fireEvent.mouseDown(screen.getByLabelText('Report status'));
      fireEvent.click(await screen.findByRole('option', { name: 'SIGNED_OFF' }, WAIT));
      await waitFor(
        () =>
          expect(searches(api).at(-1)).toMatchObject({
            testModality: 'CT',
            labReportStatuses: ['SIGNED_OFF'],
          }),
        WAIT,
      );
    },
  );

  it('links Create Bill and Edit to the bill screen', SLOW, async () => {
    const { router } = openList();
    await screen.findByTestId('bill-row-501', {}, WAIT);
    fireEvent.click(screen.getByRole('link', { name: 'Edit bill INV-0501' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/lab/create-bill/501'), WAIT);
    await router.navigate('/lab/registration');
    fireEvent.click(await screen.findByRole('link', { name: CREATE_BILL_LABEL }, WAIT));
    await waitFor(() => expect(router.state.location.pathname).toBe('/lab/create-bill'), WAIT);
  });

  it('cancels with a reason and undoes the cancellation after the confirmation', SLOW, async () => {
    let cancelled = false;
    const { api } = openList({
      'POST /api/lab/bill/search': () => ({
        body: {
          content: [row({ status: cancelled ? 'CANCELLED' : 'OPEN' })],
          totalElements: 1,
          totalRelation: 'eq',
          page: 0,
          size: 20,
        },
      }),
      'PUT /api/lab/cancel-status': () => {
        cancelled = true;
        return { body: savedBill({ status: 'CANCELLED', cancellationRemark: 'Patient left' }) };
      },
      'PUT /api/lab/undo-cancel-status': () => {
        cancelled = false;
        return { body: true };
      },
    });
    await screen.findByTestId('bill-row-501', {}, WAIT);
    fireEvent.click(screen.getByRole('button', { name: 'Cancel bill INV-0501' }));
    const dialog = await screen.findByRole('dialog', {}, WAIT);
    const reason = within(dialog).getByLabelText(CANCELLATION_REASON_LABEL) as HTMLInputElement;
    expect(reason.maxLength).toBe(255);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel Bill' }));
    expect(within(dialog).getByText('Give a reason for the cancellation')).toBeTruthy();
    fireEvent.change(reason, { target: { value: 'Patient left' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel Bill' }));
    await waitFor(() => expect(api.calls('PUT', '/api/lab/cancel-status')).toHaveLength(1), WAIT);
    expect(api.calls('PUT', '/api/lab/cancel-status')[0]!.json()).toEqual({
      id: 501,
      cancellationRemark: 'Patient left',
    });

    const undo = await screen.findByRole('button', { name: 'Undo cancel INV-0501' }, WAIT);
    fireEvent.click(undo);
    let confirm = await screen.findByRole('dialog', {}, WAIT);
    expect(within(confirm).getByText(BILL_MESSAGES.undoCancelConfirm)).toBeTruthy();
    fireEvent.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull(), WAIT);
    expect(api.calls('PUT', '/api/lab/undo-cancel-status')).toHaveLength(0);

    fireEvent.click(screen.getByRole('button', { name: 'Undo cancel INV-0501' }));
    confirm = await screen.findByRole('dialog', {}, WAIT);
    fireEvent.click(within(confirm).getByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(api.calls('PUT', '/api/lab/undo-cancel-status')).toHaveLength(1), WAIT);
    expect(api.calls('PUT', '/api/lab/undo-cancel-status')[0]!.json()).toEqual({ id: 501 });
    expect(await screen.findByRole('button', { name: 'Cancel bill INV-0501' }, WAIT)).toBeTruthy();
  });

  it('shows a refused undo in place (the slot filled meanwhile)', SLOW, async () => {
    openList({
      'POST /api/lab/bill/search': {
        body: {
          content: [row({ status: 'CANCELLED' })],
          totalElements: 1,
          totalRelation: 'eq',
          page: 0,
          size: 20,
        },
      },
      'PUT /api/lab/undo-cancel-status': {
        status: 409,
        body: errorBody(
          409,
          'The slot CT Morning on 2026-11-28 is full: 2 of 2 booked. Choose another slot.',
        ),
      },
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Undo cancel INV-0501' }, WAIT));
    fireEvent.click(
      within(await screen.findByRole('dialog', {}, WAIT)).getByRole('button', { name: 'Confirm' }),
    );
    expect(await screen.findByText(/is full: 2 of 2 booked/, {}, WAIT)).toBeTruthy();
  });

  it(
    'offers Pay only while money is due on an OPEN or SCHEDULED bill; Print offers the chooser',
    SLOW,
    async () => {
      const tab = { location: { href: '' }, close: vi.fn() };
      const open = vi.spyOn(window, 'open').mockReturnValue(tab as unknown as Window);
      const { api } = openList({
        'GET /api/lab/bill/get/502': { body: savedBill({ id: 502, invoiceNumber: 'INV-0502' }) },
        'GET /api/lab/bill/print/502': { text: '%PDF-1.7', headers: { 'Content-Type': 'application/pdf' } },
        'POST /api/lab/bill/search': {
          body: {
            content: [
              row(),
              row({ id: 502, invoiceNumber: 'INV-0502', dueAmount: 0 }),
              row({ id: 503, invoiceNumber: 'INV-0503', status: 'CANCELLED' }),
            ],
            totalElements: 3,
            totalRelation: 'eq',
            page: 0,
            size: 20,
          },
        },
      });
      await screen.findByTestId('bill-row-501', {}, WAIT);
      expect(screen.getByRole('button', { name: 'Add amount to INV-0501' })).toBeTruthy();
      expect(screen.queryByRole('button', { name: 'Add amount to INV-0502' })).toBeNull();
      expect(screen.queryByRole('button', { name: 'Add amount to INV-0503' })).toBeNull();
      fireEvent.click(screen.getByRole('button', { name: 'Print bill INV-0502' }));
      // The bill is read for its appointments; without one the chooser offers the invoice only.
      const dialog = await screen.findByRole('dialog', { name: 'Print' }, WAIT);
      expect(
        within(dialog)
          .getAllByRole('button')
          .map((b) => b.textContent),
      ).toEqual(['Invoice only', 'Cancel']);
      fireEvent.click(within(dialog).getByRole('button', { name: 'Invoice only' }));
      await waitFor(() => expect(api.calls('GET', '/api/lab/bill/print/502')).toHaveLength(1), WAIT);
      await waitFor(() => expect(tab.location.href).toBe('blob:fake'), WAIT);
      expect(open).toHaveBeenCalledTimes(1);
      open.mockRestore();
    },
  );
});
