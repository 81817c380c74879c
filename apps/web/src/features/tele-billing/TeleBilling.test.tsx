import type { TBillingDocumentDetail, TInvoicePreview, TTelePriceList } from '@radflow/core';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildUser, sessionHandlers } from '../../test/builders';
import { fakeApi, type TFakeReply, type TRecordedRequest } from '../../test/fake-api';
import { renderScreen } from '../../test/render';
import { useSession } from '../auth/session';
import { TeleInvoicePage } from './TeleInvoicePage';
import { TelePricingPage } from './TelePricingPage';

const WAIT = { timeout: 8_000 };
type THandler = TFakeReply | ((request: TRecordedRequest) => TFakeReply | Promise<TFakeReply>);

function SignedIn({ children }: { children: ReactNode }) {
  const { data } = useSession();
  return data ? children : null;
}

const prices: TTelePriceList = {
  centers: [{ id: 3, name: 'City Scans' }],
  studyParts: ['HEAD'],
  prices: [
    {
      id: 2,
      centerId: null,
      modality: 'CT',
      studyPart: '',
      charge: 'READ',
      amount: 550,
      currency: 'INR',
      effectiveFrom: '2099-01-01',
      createdAt: '',
      inForce: false,
    },
    {
      id: 1,
      centerId: null,
      modality: 'CT',
      studyPart: '',
      charge: 'READ',
      amount: 500.5,
      currency: 'INR',
      effectiveFrom: '2026-01-01',
      createdAt: '',
      inForce: true,
    },
  ],
};

function open(page: ReactNode, path: string, handlers: Record<string, THandler>) {
  const api = fakeApi({
    ...sessionHandlers(buildUser(['ROLE_TELE_RADIOLOGY'])),
    'GET /api/tele-pricing/prices': { body: prices },
    ...handlers,
  });
  renderScreen(<SignedIn>{page}</SignedIn>, { path });
  return api;
}

afterEach(() => vi.unstubAllGlobals());

describe('Manage Tele Pricing', () => {
  it('lists the prices in force, and adds a change from its effective date', async () => {
    const api = open(<TelePricingPage />, '/manage-tele-pricing', {
      'POST /api/tele-pricing/prices': { body: { ...prices.prices[1], id: 9 } },
    });
    const table = await screen.findByRole('table', { name: 'Prices' }, WAIT);
    await waitFor(() => expect(table.textContent).toContain('₹500.50'), WAIT);
    expect(table.textContent).not.toContain('₹550.00'); // not yet in force: history only
    fireEvent.click(within(table).getByRole('button', { name: 'Change' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add price' });
    fireEvent.change(within(dialog).getByLabelText(/Amount/), { target: { value: '525' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(api.requests.some((r) => r.method === 'POST')).toBe(true), WAIT);
    const sent = api.requests.find((r) => r.method === 'POST')!.json();
    expect(sent).toMatchObject({
      centerId: null,
      modality: 'CT',
      studyPart: '',
      charge: 'READ',
      amount: 525,
    });
  });

  it("dates a change made just after midnight in the group's zone from that day, not the UTC one", async () => {
    // 00:30 on 28 November in Asia/Kolkata (the group's zone) is still the 27th in UTC.
    vi.useFakeTimers({ toFake: ['Date'], now: new Date('2026-11-27T19:00:00Z') });
    try {
      const api = open(<TelePricingPage />, '/manage-tele-pricing', {
        'POST /api/tele-pricing/prices': { body: { ...prices.prices[1], id: 9 } },
      });
      const table = await screen.findByRole('table', { name: 'Prices' }, WAIT);
      await waitFor(() => expect(table.textContent).toContain('₹500.50'), WAIT);
      fireEvent.click(within(table).getByRole('button', { name: 'Change' }));
      const dialog = await screen.findByRole('dialog', { name: 'Add price' });
      fireEvent.change(within(dialog).getByLabelText(/Amount/), { target: { value: '525' } });
      fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
      await waitFor(() => expect(api.requests.some((r) => r.method === 'POST')).toBe(true), WAIT);
      expect(api.requests.find((r) => r.method === 'POST')!.json()).toMatchObject({
        effectiveFrom: '2026-11-28',
      });
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('Manage Tele Invoice', () => {
  const figures = { subtotal: 1000, adjustment: 0, taxPercent: 18, tax: 180, total: 1180 };
  const preview: TInvoicePreview = {
    centerId: 3,
    centerName: 'City Scans',
    periodStart: '2026-03-01',
    periodEnd: '2026-03-31',
    studyCount: 2,
    unpricedCount: 0,
    lines: [
      {
        charge: 'READ',
        modality: 'CT',
        studyPart: '',
        description: 'CT · Read',
        quantity: 2,
        unit: 500,
        amount: 1000,
      },
    ],
    ...figures,
    currency: 'INR',
  };
  const issued: TBillingDocumentDetail = {
    id: 41,
    kind: 'TELE_INVOICE',
    number: 'TI-2026-0001',
    centerId: 3,
    centerName: 'City Scans',
    periodStart: '2026-03-01',
    periodEnd: '2026-03-31',
    status: 'ISSUED',
    ...figures,
    paid: 0,
    credited: 0,
    outstanding: 1180,
    currency: 'INR',
    dueDate: '2026-04-15',
    overdue: false,
    creditedDocumentId: null,
    issuedAt: '2026-04-01T00:00:00.000Z',
    note: '',
    version: 1,
    lines: preview.lines,
    payments: [],
    creditNotes: [],
    emailedTo: [],
  };

  it('previews, issues, and records a payment with an Idempotency-Key and the version', async () => {
    let current = issued;
    const api = open(<TeleInvoicePage />, '/manage-tele-invoice', {
      'GET /api/tele-invoices': { body: { documents: [] } },
      'POST /api/tele-invoices/preview': { body: preview },
      'POST /api/tele-invoices': { body: issued },
      'GET /api/tele-invoices/41': () => ({ body: current }),
      'POST /api/tele-invoices/41/payments': () => {
        current = { ...issued, status: 'PAID', paid: 1180, outstanding: 0, version: 2 };
        return { body: current };
      },
    });
    fireEvent.mouseDown((await screen.findAllByRole('combobox', { name: 'Center' }, WAIT))[0]!);
    fireEvent.click(await screen.findByRole('option', { name: 'City Scans' }));
    fireEvent.click(screen.getByRole('button', { name: 'Preview' }));
    const shown = await screen.findByTestId('invoice-preview', {}, WAIT);
    expect(within(shown).getByTestId('invoice-total').textContent).toBe('₹1,180.00');
    fireEvent.click(screen.getByRole('button', { name: 'Issue invoice' }));
    const dialog = await screen.findByRole('dialog', { name: 'Invoice TI-2026-0001' }, WAIT);
    expect(within(dialog).getByRole('link', { name: 'Download PDF' }).getAttribute('href')).toBe(
      '/api/tele-invoices/41/pdf',
    );
    fireEvent.change(within(dialog).getByLabelText('Amount (₹)'), { target: { value: '1180' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Record payment' }));
    await waitFor(
      () =>
        expect(api.requests.map((r) => `${r.method} ${r.path}`)).toContain(
          'POST /api/tele-invoices/41/payments',
        ),
      WAIT,
    );
    await waitFor(
      () => expect(within(dialog).getByTestId('invoice-outstanding').textContent).toBe('₹0.00'),
      WAIT,
    );
    const payment = api.requests.find((r) => r.path === '/api/tele-invoices/41/payments')!;
    expect(payment.headers.get('Idempotency-Key')).toMatch(/.{8,}/);
    expect(payment.json()).toMatchObject({ amount: 1180, mode: 'BANK_TRANSFER', version: 1 });
  });
});
