import type { TBillingDocumentSummary, TPlatformInvoice, TRole } from '@radflow/core';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildUser, sessionHandlers } from '../../test/builders';
import { fakeApi } from '../../test/fake-api';
import { renderScreen } from '../../test/render';
import { CenterInvoicesPage } from './CenterInvoicesPage';
import { PlatformInvoicesPage } from './PlatformInvoicesPage';
import { providerPage } from './pay-flow';

const teleInvoice: TBillingDocumentSummary = {
  id: 5,
  kind: 'TELE_INVOICE',
  number: 'TI-2026-0005',
  centerId: 3,
  centerName: 'City Scan',
  periodStart: '2026-03-01',
  periodEnd: '2026-03-31',
  status: 'PARTIALLY_PAID',
  subtotal: 1000,
  adjustment: 0,
  taxPercent: 18,
  tax: 180,
  total: 1180,
  paid: 180,
  credited: 0,
  outstanding: 1000,
  currency: 'INR',
  dueDate: '2026-04-15',
  overdue: true,
  creditedDocumentId: null,
  issuedAt: '2026-04-01T00:00:00.000Z',
  note: '',
  version: 2,
};

const platformInvoice: TPlatformInvoice = {
  id: 11,
  number: 'RFP-000011',
  kind: 'INVOICE',
  groupId: 7,
  groupName: 'Patna Tele',
  period: '2026-10',
  planName: 'Per study',
  studiesCounted: 4,
  studiesCharged: 4,
  fee: 0,
  usage: 60,
  subtotal: 60,
  gstPercent: 18,
  gst: 10.8,
  total: 70.8,
  paid: 0,
  due: 70.8,
  status: 'ISSUED',
  issuedAt: '2026-11-01T00:00:00.000Z',
  dueDate: '2026-11-16',
  overdue: false,
  correctsInvoiceId: null,
};

function openCenter(path = '/center-invoices', url: string | null = 'https://rzp.io/i/abc') {
  const api = fakeApi({
    ...sessionHandlers(buildUser(['ROLE_CENTER' as TRole])),
    'GET /api/center-billing/invoices': { body: { documents: [teleInvoice] } },
    'POST /api/center-billing/invoices/5/pay': { body: { reference: 'rf1', url, amount: 1000 } },
    'POST /api/invoice-payments/confirm': {
      body: { paymentStatus: 'PAID', payable: 'TELE_INVOICE', invoiceId: 5 },
    },
  });
  renderScreen(<CenterInvoicesPage />, { path, route: '/center-invoices' });
  return api;
}

afterEach(() => vi.restoreAllMocks());

describe("the center's invoices", () => {
  it('Pay asks for the link of the outstanding due and goes to the provider', async () => {
    const go = vi.spyOn(providerPage, 'go').mockImplementation(() => undefined);
    const api = openCenter();
    const row = (await screen.findByText('TI-2026-0005')).closest('tr')!;
    expect(within(row).getByText('Overdue')).toBeTruthy();
    fireEvent.click(within(row).getByRole('button', { name: 'Pay ₹1,000.00' }));
    await waitFor(() => expect(go).toHaveBeenCalledWith('https://rzp.io/i/abc'));
    expect(api.calls('POST', '/api/center-billing/invoices/5/pay')).toHaveLength(1);
  });

  it('without online payment it says how to pay instead', async () => {
    const go = vi.spyOn(providerPage, 'go').mockImplementation(() => undefined);
    openCenter('/center-invoices', null);
    fireEvent.click(await screen.findByRole('button', { name: 'Pay ₹1,000.00' }));
    await screen.findByText(/Online payment is not set up here/);
    expect(go).not.toHaveBeenCalled();
  });

  it("back from the provider, the page posts the provider's parameters once and says it is paid", async () => {
    const api = openCenter('/center-invoices?payment-id=rf1&razorpay_signature=sig');
    await screen.findByText('Payment received. Thank you.');
    const calls = api.calls('POST', '/api/invoice-payments/confirm');
    expect(calls).toHaveLength(1);
    expect(calls[0]?.json()).toEqual({ 'payment-id': 'rf1', razorpay_signature: 'sig' });
  });
});

describe("the group's platform invoices", () => {
  it('an administrator pays the due of an issued invoice', async () => {
    const go = vi.spyOn(providerPage, 'go').mockImplementation(() => undefined);
    fakeApi({
      ...sessionHandlers(buildUser(['ROLE_ADMIN' as TRole])),
      'GET /api/group-billing/platform-invoices': {
        body: {
          invoices: [
            platformInvoice,
            { ...platformInvoice, id: 12, number: 'RFP-000012', status: 'PAID', due: 0 },
          ],
        },
      },
      'POST /api/group-billing/platform-invoices/11/pay': {
        body: { reference: 'rf2', url: 'https://rzp.io/i/def', amount: 70.8 },
      },
    });
    renderScreen(<PlatformInvoicesPage />, { path: '/platform-invoices' });
    const paid = (await screen.findByText('RFP-000012')).closest('tr')!;
    expect(within(paid).queryByRole('button', { name: /^Pay/ })).toBeNull();
    const row = screen.getByText('RFP-000011').closest('tr')!;
    fireEvent.click(within(row).getByRole('button', { name: 'Pay ₹70.80' }));
    await waitFor(() => expect(go).toHaveBeenCalledWith('https://rzp.io/i/def'));
  });
});
