import { CUSTOMER_PAGE_MESSAGES as M, MESSAGES, type TCustomerReport } from '@radflow/core';
import { configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { buildUser, sessionHandlers } from '../../test/builders';
import { errorBody, fakeApi } from '../../test/fake-api';
import { renderScreen } from '../../test/render';
import { CustomerReportsPage } from './CustomerReportsPage';

const SLOW = { timeout: 20_000 };
configure({ asyncUtilTimeout: 10_000 });

const report = (over: Partial<TCustomerReport> = {}): TCustomerReport => ({
  reportStatusId: 41,
  studyInstanceUid: '1.2.3.41',
  patientName: 'JANE DOE',
  studyName: 'CT CHEST',
  modality: 'CT',
  studyDate: '2026-03-10',
  center: 'Demo Imaging Center',
  signedOffAt: '2026-03-10T08:00:00.000Z',
  hasImages: true,
  payment: { status: 'NOT_REQUIRED', amount: null, currency: null, note: null, payUrl: null },
  canDownload: true,
  ...over,
});

let clicked: HTMLAnchorElement[];
beforeEach(() => {
  clicked = [];
  URL.createObjectURL = vi.fn(() => 'blob:fake');
  URL.revokeObjectURL = vi.fn();
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    clicked.push(this);
  });
});
afterEach(() => vi.restoreAllMocks());

const open = (reports: TCustomerReport[], extra = {}) => {
  const api = fakeApi({
    ...sessionHandlers(buildUser(['ROLE_CUSTOMER'])),
    'GET /api/customer-report/reports': { body: { reports } },
    'POST /api/pdf/download': {
      text: '%PDF-1.3 fake',
      headers: { 'Content-Disposition': 'attachment; filename="JANE DOE CT CHEST.pdf"' },
    },
    ...extra,
  });
  renderScreen(<CustomerReportsPage />, { path: '/manage-customer-report' });
  return api;
};

describe('/manage-customer-report', () => {
  it('says "No reports yet" when the patient has none', SLOW, async () => {
    open([]);
    expect(await screen.findByText(M.noReports)).toBeTruthy();
  });

  it('lists a report with Open images (the viewer) and downloads its PDF', SLOW, async () => {
    const api = open([report()]);
    const card = await screen.findByRole('listitem', { name: 'CT CHEST · CT' });
    expect(within(card).getByText(/JANE DOE · Demo Imaging Center · Study date 2026-03-10/)).toBeTruthy();
    const images = within(card).getByRole('link', { name: 'Open images of CT CHEST · CT' });
    expect(images.getAttribute('href')).toBe('/viewer/1.2.3.41/41');
    expect(within(card).queryByText(MESSAGES.paymentNeeded)).toBeNull();

    fireEvent.click(within(card).getByRole('button', { name: 'Download PDF of CT CHEST · CT' }));
    await waitFor(() => expect(clicked).toHaveLength(1));
    expect(clicked[0]?.download).toBe('JANE DOE CT CHEST.pdf');
    const [call] = api.calls('POST', '/api/pdf/download');
    expect(call?.json()).toEqual({ uid: '1.2.3.41', reportStatusId: 41 });
  });

  it("shows 'Payment needed' with the pay link on the owed study only, whose PDF waits", SLOW, async () => {
    const payUrl = 'https://radflow.example/login-page?payment-id=pay_1&test-signature=x';
    open([
      report({
        payment: { status: 'PENDING', amount: 1250.5, currency: 'INR', note: 'CT chest', payUrl },
        canDownload: false,
      }),
      report({ reportStatusId: 42, studyInstanceUid: '1.2.3.42', studyName: 'MR BRAIN', modality: 'MR' }),
    ]);
    const owed = await screen.findByRole('listitem', { name: 'CT CHEST · CT' });
    expect(within(owed).getByText(MESSAGES.paymentNeeded)).toBeTruthy();
    expect(within(owed).getByText('₹1,250.50')).toBeTruthy();
    const pay = within(owed).getByRole('link', { name: 'Pay now ₹1,250.50 for CT CHEST · CT' });
    expect(pay.getAttribute('href')).toBe(payUrl);
    const owedDownload = within(owed).getByRole('button', { name: 'Download PDF of CT CHEST · CT' });
    expect((owedDownload as HTMLButtonElement).disabled).toBe(true);
    // Its images wait for the payment too (the server answers them 402): no way to the viewer.
    expect(within(owed).queryByRole('link', { name: 'Open images of CT CHEST · CT' })).toBeNull();
    const owedImages = within(owed).getByRole('button', { name: 'Open images of CT CHEST · CT' });
    expect((owedImages as HTMLButtonElement).disabled).toBe(true);

    const other = screen.getByRole('listitem', { name: 'MR BRAIN · MR' });
    expect(within(other).queryByText(MESSAGES.paymentNeeded)).toBeNull();
    const otherDownload = within(other).getByRole('button', { name: 'Download PDF of MR BRAIN · MR' });
    expect((otherDownload as HTMLButtonElement).disabled).toBe(false);
    expect(within(other).getByRole('link', { name: 'Open images of MR BRAIN · MR' })).toBeTruthy();
  });

  it('says to pay at the center when no online pay link exists', SLOW, async () => {
    open([
      report({
        payment: { status: 'PENDING', amount: 100, currency: 'INR', note: '', payUrl: null },
        canDownload: false,
      }),
    ]);
    const owed = await screen.findByRole('listitem', { name: 'CT CHEST · CT' });
    expect(within(owed).getByText(/Pay at the center/)).toBeTruthy();
    expect(within(owed).queryByRole('link', { name: /Pay now/ })).toBeNull();
  });

  it('shows a refused download and reads the list again (a payment asked meanwhile)', SLOW, async () => {
    let reads = 0;
    const payUrl = 'https://radflow.example/login-page?payment-id=pay_2';
    open([], {
      'GET /api/customer-report/reports': () => {
        reads += 1;
        const owed = { status: 'PENDING', amount: 100, currency: 'INR', note: '', payUrl } as const;
        return {
          body: { reports: [reads === 1 ? report() : report({ payment: owed, canDownload: false })] },
        };
      },
      'POST /api/pdf/download': { status: 402, body: errorBody(402, MESSAGES.paymentNeeded) },
    });
    const card = await screen.findByRole('listitem', { name: 'CT CHEST · CT' });
    fireEvent.click(within(card).getByRole('button', { name: 'Download PDF of CT CHEST · CT' }));
    expect(await screen.findByText(/Payment needed \(code 402/)).toBeTruthy();
    expect(clicked).toHaveLength(0);
    const updated = await screen.findByRole('link', { name: 'Pay now ₹100.00 for CT CHEST · CT' });
    expect(updated.getAttribute('href')).toBe(payUrl);
  });
});
