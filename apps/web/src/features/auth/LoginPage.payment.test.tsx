import { PAYMENT_CONFIRM_MESSAGES as M } from '@radflow/core';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { errorBody, fakeApi } from '../../test/fake-api';
import { renderRoutes } from '../../test/render';
import { LoginPage } from './LoginPage';
import { AFTER_PAYMENT_PATH, fullPage, paymentConfirmParams } from './payment-confirm';

const renderLogin = (path: string) =>
  renderRoutes([{ path: '/login-page/:user?', element: <LoginPage /> }], path);

afterEach(() => vi.restoreAllMocks());

describe('LoginPage with a payment-id (spec-core §2 payment confirm)', () => {
  it('posts the query parameters plus password and mobile, then goes to /user/get-route on PAID', async () => {
    const go = vi.spyOn(fullPage, 'go').mockImplementation(() => undefined);
    const api = fakeApi({ 'POST /api/customer-report/payment-confirm': { body: { paymentStatus: 'PAID' } } });
    renderLogin('/login-page?payment-id=pay_1&test-signature=abc&password=leak');
    expect(await screen.findByText(M.paid)).toBeTruthy();
    const [call] = api.calls('POST', '/api/customer-report/payment-confirm');
    // The address's own password never travels: the form's (empty) one does.
    expect(call?.json()).toEqual({
      'payment-id': 'pay_1',
      'test-signature': 'abc',
      password: '',
      mobile: '',
    });
    await waitFor(() => expect(go).toHaveBeenCalledWith(AFTER_PAYMENT_PATH));
  });

  it('says a payment is not confirmed yet, and checks again on request', async () => {
    const go = vi.spyOn(fullPage, 'go').mockImplementation(() => undefined);
    const api = fakeApi({
      'POST /api/customer-report/payment-confirm': { body: { paymentStatus: 'PENDING' } },
    });
    renderLogin('/login-page?payment-id=pay_2');
    expect(await screen.findByText(M.pending)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: M.retry }));
    await waitFor(() => expect(api.calls('POST', '/api/customer-report/payment-confirm')).toHaveLength(2));
    expect(go).not.toHaveBeenCalled();
    // The sign-in form is still there.
    expect(screen.getByLabelText('Mobile number or e-mail')).toBeTruthy();
  });

  it("shows the server's refusal in place", async () => {
    fakeApi({
      'POST /api/customer-report/payment-confirm': {
        status: 404,
        body: errorBody(404, 'This payment is not known', 'r1'),
      },
    });
    renderLogin('/login-page?payment-id=pay_3');
    expect((await screen.findByRole('alert')).textContent).toContain('This payment is not known');
  });

  it('calls nothing without a payment-id', () => {
    const api = fakeApi({});
    renderLogin('/login-page?other=1');
    expect(screen.queryByText(M.checking)).toBeNull();
    expect(api.requests).toHaveLength(0);
  });
});

describe('paymentConfirmParams', () => {
  it('keeps the first value of each parameter and leaves password and mobile to the form', () => {
    expect(paymentConfirmParams(new URLSearchParams('payment-id=a&x=1&x=2&mobile=9'))).toEqual({
      'payment-id': 'a',
      x: '1',
    });
    expect(paymentConfirmParams(new URLSearchParams('x=1'))).toBeNull();
  });
});
