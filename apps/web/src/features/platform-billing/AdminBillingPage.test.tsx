import type { TPlatformDashboard, TPlatformInvoice, TPlatformOverview, TRole } from '@radflow/core';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildUser, sessionHandlers } from '../../test/builders';
import { fakeApi } from '../../test/fake-api';
import { renderScreen } from '../../test/render';
import { AdminBillingPage } from './AdminBillingPage';
import { BillingDashboardPage, SalesDashboardPage } from './PlatformDashboardPage';

const sub = {
  planCode: 'PER_STUDY',
  planName: 'Per study',
  planKind: 'PER_STUDY' as const,
  status: 'EXPIRED' as const,
  startedAt: '2026-09-01T00:00:00.000Z',
  expiresAt: '2026-10-01T00:00:00.000Z',
  version: 3,
};
const overview: TPlatformOverview = {
  plans: [
    {
      id: 1,
      code: 'TRIAL',
      name: 'Trial (14 days)',
      kind: 'SUBSCRIPTION',
      monthlyFee: 0,
      includedStudies: 0,
      perStudyPrice: 0,
      trialDays: 14,
      currency: 'INR',
      active: true,
    },
    {
      id: 2,
      code: 'PER_STUDY',
      name: 'Per study',
      kind: 'PER_STUDY',
      monthlyFee: 0,
      includedStudies: 0,
      perStudyPrice: 15,
      trialDays: 0,
      currency: 'INR',
      active: true,
    },
  ],
  groups: [
    {
      groupId: 7,
      groupName: 'Patna Tele',
      createdAt: '2026-01-01T00:00:00.000Z',
      subscription: sub,
      outstanding: 70.8,
    },
  ],
};
const invoice: TPlatformInvoice = {
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
  overdue: true,
  correctsInvoiceId: null,
};

function open(roles: TRole[]) {
  const api = fakeApi({
    ...sessionHandlers(buildUser(roles)),
    'GET /api/platform-billing/overview': { body: overview },
    'GET /api/platform-billing/invoices': { body: { invoices: [invoice] } },
    'GET /api/platform-billing/usage': {
      body: { rows: [{ groupId: 7, groupName: 'Patna Tele', period: '2026-10', received: 5, signedOff: 4 }] },
    },
    'POST /api/platform-billing/plans/2': (request) => ({
      body: { ...overview.plans[1], ...(request.json() as object) },
    }),
    'POST /api/platform-billing/invoices/11/credit-note': (request) => ({
      body: { ...invoice, status: 'CREDITED', due: 0, echo: request.json() },
    }),
    'POST /api/platform-billing/payments': (request) => ({
      body: {
        id: 1,
        groupId: 7,
        invoiceId: 11,
        amount: 70.8,
        mode: 'UPI',
        reference: 'UTR1',
        provider: 'MANUAL',
        receivedAt: '2026-11-27T00:00:00.000Z',
        recordedBy: 'b@x',
        subscription: { ...sub, status: 'ACTIVE', version: 4 },
        echo: request.json(),
      },
    }),
  });
  renderScreen(<AdminBillingPage />, { path: '/admin-page/billing' });
  return api;
}

afterEach(() => vi.restoreAllMocks());

describe('Admin Billing (issue 26 §3)', () => {
  it('lists the groups with plan, status, what they owe; records an invoice payment with an Idempotency-Key', async () => {
    const api = open(['ROLE_ADMIN_BILLER']);
    const row = (
      await within(await screen.findByRole('table', { name: 'Groups' })).findByText('Patna Tele')
    ).closest('tr')!;
    expect(within(row).getByText('EXPIRED')).toBeTruthy();
    expect(within(row).getByText('₹70.80')).toBeTruthy();
    const inv = screen.getByText('RFP-000011').closest('tr')!;
    expect(within(inv).getByText('Overdue')).toBeTruthy();
    fireEvent.click(within(inv).getByRole('button', { name: 'Record payment' }));
    const dialog = await screen.findByRole('dialog', { name: /Record payment — Patna Tele/ });
    expect((within(dialog).getByLabelText('Amount (₹)') as HTMLInputElement).value).toBe('70.8');
    fireEvent.change(within(dialog).getByLabelText('Reference'), { target: { value: 'UTR1' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await screen.findByText('Payment recorded.');
    const [call] = api.calls('POST', '/api/platform-billing/payments');
    expect(call?.json()).toEqual({
      groupId: 7,
      invoiceId: 11,
      amount: 70.8,
      mode: 'BANK_TRANSFER',
      reference: 'UTR1',
    });
    expect(call?.headers.get('Idempotency-Key')).toMatch(/\S{8,}/);
  });

  it('issues a credit note for an unpaid invoice with a reason (required, at most 300 characters)', async () => {
    const api = open(['ROLE_ADMIN_BILLER']);
    const inv = (await screen.findByText('RFP-000011')).closest('tr')!;
    fireEvent.click(within(inv).getByRole('button', { name: 'Credit note' }));
    const dialog = await screen.findByRole('dialog', { name: /Credit note — RFP-000011/ });
    // The whole invoice is credited (the month's next run re-issues it): the amount is shown, not typed.
    expect(within(dialog).getByText(/₹70\.80/)).toBeTruthy();
    const issue = within(dialog).getByRole('button', { name: 'Issue credit note' }) as HTMLButtonElement;
    expect(issue.disabled).toBe(true);
    const reason = within(dialog).getByLabelText('Reason');
    fireEvent.change(reason, { target: { value: '   ' } });
    expect(issue.disabled).toBe(true);
    fireEvent.change(reason, { target: { value: 'x'.repeat(301) } });
    expect(issue.disabled).toBe(true);
    expect(within(dialog).getByText('At most 300 characters')).toBeTruthy();
    fireEvent.change(reason, { target: { value: ' Wrong plan billed ' } });
    fireEvent.click(issue);
    await screen.findByText('Credit note issued for RFP-000011.');
    const [call] = api.calls('POST', '/api/platform-billing/invoices/11/credit-note');
    expect(call?.json()).toEqual({ reason: 'Wrong plan billed' });
  });

  it("the admin biller edits a plan's per-study price, checked as the server does", async () => {
    const api = open(['ROLE_ADMIN_BILLER']);
    const row = (
      await within(await screen.findByRole('table', { name: 'Plans' })).findByText('PER_STUDY')
    ).closest('tr')!;
    fireEvent.click(within(row).getByRole('button', { name: 'Edit' }));
    const dialog = await screen.findByRole('dialog', { name: /Edit plan — PER_STUDY/ });
    const price = within(dialog).getByLabelText('Per study (₹)');
    fireEvent.change(price, { target: { value: '-2' } });
    const save = within(dialog).getByRole('button', { name: 'Save' }) as HTMLButtonElement;
    expect(save.disabled).toBe(true);
    expect(within(dialog).getByText('a price must not be negative')).toBeTruthy();
    fireEvent.change(price, { target: { value: '18.50' } });
    fireEvent.click(save);
    await screen.findByText('Plan PER_STUDY saved. It applies to invoices issued from now on.');
    expect(api.calls('POST', '/api/platform-billing/plans/2')[0]?.json()).toEqual({
      name: 'Per study',
      monthlyFee: 0,
      includedStudies: 0,
      perStudyPrice: 18.5,
      trialDays: 0,
      active: true,
    });
  });

  it('offers the sales role no plan edits', async () => {
    open(['ROLE_RADFLOW_SALES']);
    const plans = await screen.findByRole('table', { name: 'Plans' });
    await within(plans).findByText('PER_STUDY');
    expect(within(plans).queryByRole('button', { name: 'Edit' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'New plan' })).toBeNull();
  });

  it('offers the sales role no credit note', async () => {
    open(['ROLE_RADFLOW_SALES']);
    const inv = (await screen.findByText('RFP-000011')).closest('tr')!;
    expect(within(inv).queryByRole('button', { name: 'Credit note' })).toBeNull();
  });

  it('the sales role sees the lists without the money writes', async () => {
    open(['ROLE_RADFLOW_SALES']);
    const row = (
      await within(await screen.findByRole('table', { name: 'Groups' })).findByText('Patna Tele')
    ).closest('tr')!;
    expect(within(row).queryByRole('button', { name: 'Record payment' })).toBeNull();
    expect(within(row).queryByRole('button', { name: 'Expire' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Issue invoices' })).toBeNull();
  });
});

describe('the platform dashboards', () => {
  const dash: TPlatformDashboard = {
    from: '2025-12',
    to: '2026-11',
    revenueByMonth: [
      { period: '2026-10', invoiced: 70.8, collected: 0 },
      { period: '2026-11', invoiced: 0, collected: 70.8 },
    ],
    groupsByPlan: [{ planCode: 'PER_STUDY', planName: 'Per study', groups: 3 }],
    usageByMonth: [{ period: '2026-10', received: 5, signedOff: 4 }],
    signUpsByMonth: [{ period: '2026-10', groups: 2 }],
    overdue: { count: 1, amount: 70.8, invoices: [invoice] },
    expiredGroups: 1,
  };
  it.each([
    ['ROLE_ADMIN_BILLER' as TRole, BillingDashboardPage, 'Billing Dashboard'],
    ['ROLE_RADFLOW_SALES' as TRole, SalesDashboardPage, 'Admin Sales Dashboard'],
  ])('%s: totals and charts of one dashboard answer', async (role, Page, title) => {
    const api = fakeApi({
      ...sessionHandlers(buildUser([role])),
      'GET /api/platform-billing/dashboard': { body: dash },
    });
    renderScreen(<Page />, { path: '/admin-page/x' });
    expect(await screen.findByRole('heading', { level: 1, name: title })).toBeTruthy();
    await waitFor(() => expect(screen.getByText('1 · ₹70.80')).toBeTruthy());
    for (const chart of [
      'Revenue by month',
      'Groups by plan',
      'Usage trend',
      'New sign-ups',
      'Overdue invoices',
    ]) {
      expect(screen.getByRole('region', { name: chart })).toBeTruthy();
    }
    const query = api.calls('GET', '/api/platform-billing/dashboard')[0]!.query;
    expect(query.get('from')! < query.get('to')!).toBe(true);
  });
  it('says so instead of drawing an empty chart when a card has nothing in the range', async () => {
    fakeApi({
      ...sessionHandlers(buildUser(['ROLE_ADMIN_BILLER' as TRole])),
      'GET /api/platform-billing/dashboard': {
        body: {
          ...dash,
          revenueByMonth: [{ period: '2026-11', invoiced: 0, collected: 0 }],
          groupsByPlan: [],
          usageByMonth: [{ period: '2026-11', received: 0, signedOff: 0 }],
          signUpsByMonth: [],
        },
      },
    });
    renderScreen(<BillingDashboardPage />, { path: '/admin-page/x' });
    const revenue = await screen.findByRole('region', { name: 'Revenue by month' });
    expect(within(revenue).getByText('Nothing invoiced or collected in these months')).toBeTruthy();
    expect(
      within(screen.getByRole('region', { name: 'Groups by plan' })).getByText('No group on a plan yet'),
    ).toBeTruthy();
    expect(
      within(screen.getByRole('region', { name: 'Usage trend' })).getByText(
        'No study received in these months',
      ),
    ).toBeTruthy();
    expect(
      within(screen.getByRole('region', { name: 'New sign-ups' })).getByText(
        'No group signed up in these months',
      ),
    ).toBeTruthy();
  });

  it('draws each card that has numbers, without the empty-range words', async () => {
    fakeApi({
      ...sessionHandlers(buildUser(['ROLE_ADMIN_BILLER' as TRole])),
      'GET /api/platform-billing/dashboard': { body: dash },
    });
    renderScreen(<BillingDashboardPage />, { path: '/admin-page/x' });
    await screen.findByRole('region', { name: 'Revenue by month' });
    expect(
      screen.queryByText(/Nothing invoiced|No group on a plan|No study received|No group signed up/),
    ).toBeNull();
  });
});
