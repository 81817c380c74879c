import type { TRole, TStudyListRow, TStudyPayments } from '@radflow/core';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { ReactNode } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { buildUser, sessionHandlers } from '../../test/builders';
import { type TFakeReply, type TRecordedRequest, fakeApi } from '../../test/fake-api';
import { renderScreen } from '../../test/render';
import { buildStudyRow } from '../../test/study-row';
import { useSession } from '../auth/session';
import { PaymentRowAction } from './PaymentRowAction';

const SLOW = { timeout: 20_000 };
const OWN_CENTER_ID = 1;
type THandler = TFakeReply | ((request: TRecordedRequest) => TFakeReply | Promise<TFakeReply>);

function SignedIn({ children }: { children: ReactNode }) {
  const { data } = useSession();
  return data ? <>{children}</> : null;
}

function renderAction(roles: TRole[], row: Partial<TStudyListRow>, handlers: Record<string, THandler> = {}) {
  const api = fakeApi({ ...sessionHandlers(buildUser(roles, { centerId: OWN_CENTER_ID })), ...handlers });
  const onChanged = vi.fn();
  renderScreen(
    <SignedIn>
      <span>signed in</span>
      <PaymentRowAction
        row={buildStudyRow({ id: 7, centerId: OWN_CENTER_ID, ...row })}
        onChanged={onChanged}
      />
    </SignedIn>,
  );
  return { api, onChanged };
}

const payments = (over: Partial<TStudyPayments> = {}): TStudyPayments => ({
  reportStatusId: 7,
  paymentStatus: 'NOT_REQUIRED',
  paymentMode: null,
  payments: [],
  ...over,
});

const pendingPayments = payments({
  paymentStatus: 'PENDING',
  payments: [
    {
      id: 3,
      status: 'PENDING',
      mode: null,
      amountMinor: 50000,
      currency: 'INR',
      note: 'Report',
      payUrl: 'https://radflow.example/login-page?payment-id=pay_1',
      providerReference: 'pay_1',
      transactionId: '',
      requestedBy: 'center@demo.local',
      paidRecordedBy: null,
      cancelledBy: null,
      createdAt: '2026-11-22T04:00:00.000Z',
      paidAt: null,
      cancelledAt: null,
    },
  ],
});

describe('PaymentRowAction (issue 5 §1, the staff side of Viewer payment)', () => {
  it('is there for the center on its own study', SLOW, async () => {
    renderAction(['ROLE_CENTER'], {});
    expect(await screen.findByRole('button', { name: 'Payment for study 7' })).toBeTruthy();
  });

  it.each([
    ['a doctor', ['ROLE_DOCTOR'] as TRole[], {}],
    ['another center', ['ROLE_CENTER'] as TRole[], { centerId: 99 }],
    ['a deleted study', ['ROLE_ADMIN'] as TRole[], { status: 'DELETED' as const }],
  ])('is hidden for %s', SLOW, async (_name, roles, row) => {
    renderAction(roles, row);
    await screen.findByText('signed in');
    expect(screen.queryByRole('button', { name: /Payment for study/ })).toBeNull();
  });

  it('requests a payment with the amount typed, refusing a bad amount first', SLOW, async () => {
    const { api, onChanged } = renderAction(
      ['ROLE_BILLER'],
      {},
      {
        'GET /api/report-status/payments/7': { body: payments() },
        'POST /api/report-status/payment/request/7': { body: pendingPayments },
      },
    );
    fireEvent.click(await screen.findByRole('button', { name: 'Payment for study 7' }));
    const dialog = await screen.findByRole('dialog', { name: 'Payment — study 7' }, { timeout: 10_000 });
    const request = await within(dialog).findByRole('region', { name: 'Request a payment' });
    fireEvent.change(within(request).getByLabelText('Amount'), { target: { value: '12.345' } });
    fireEvent.click(within(request).getByRole('button', { name: 'Request payment' }));
    expect(await within(request).findByText('Enter an amount like 500 or 499.50')).toBeTruthy();
    expect(api.calls('POST', '/api/report-status/payment/request/7')).toHaveLength(0);

    fireEvent.change(within(request).getByLabelText('Amount'), { target: { value: '500' } });
    fireEvent.change(within(request).getByLabelText('What it is for (shown to the payer)'), {
      target: { value: 'Report' },
    });
    fireEvent.click(within(request).getByRole('button', { name: 'Request payment' }));
    await waitFor(() => expect(onChanged).toHaveBeenCalled());
    expect(api.calls('POST', '/api/report-status/payment/request/7')[0]?.json()).toEqual({
      amount: 500,
      currency: 'INR',
      note: 'Report',
    });
    // Now pending: the request form gives way to the pending request with its link and Cancel.
    const pending = await within(dialog).findByRole('region', { name: 'Pending request' });
    expect(within(pending).getByRole('link', { name: 'Pay link' }).getAttribute('href')).toContain(
      'payment-id=pay_1',
    );
    expect(within(dialog).queryByRole('region', { name: 'Request a payment' })).toBeNull();
    expect(within(dialog).getByTestId('payment-status').textContent).toBe('Status: Pending');
  });

  it('records a cash payment for the pending request', SLOW, async () => {
    const paid = payments({
      paymentStatus: 'PAID',
      paymentMode: 'CASH',
      payments: [
        {
          ...pendingPayments.payments[0]!,
          status: 'PAID',
          mode: 'CASH',
          paidAt: '2026-11-22T04:05:00.000Z',
          transactionId: 'R-9',
        },
      ],
    });
    const { api } = renderAction(
      ['ROLE_CENTER'],
      {},
      {
        'GET /api/report-status/payments/7': { body: pendingPayments },
        'POST /api/report-status/payment/record/7': { body: paid },
      },
    );
    fireEvent.click(await screen.findByRole('button', { name: 'Payment for study 7' }));
    const dialog = await screen.findByRole('dialog', { name: 'Payment — study 7' }, { timeout: 10_000 });
    const desk = await within(dialog).findByRole('region', { name: 'Record a payment taken at the desk' });
    fireEvent.change(within(desk).getByLabelText('Receipt or transaction id'), { target: { value: 'R-9' } });
    fireEvent.click(within(desk).getByRole('button', { name: 'Record payment' }));
    await waitFor(() =>
      expect(within(dialog).getByTestId('payment-status').textContent).toBe('Status: Paid · Cash'),
    );
    expect(api.calls('POST', '/api/report-status/payment/record/7')[0]?.json()).toEqual({
      mode: 'CASH',
      transactionId: 'R-9',
    });
  });
});
