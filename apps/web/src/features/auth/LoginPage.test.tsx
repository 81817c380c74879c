import { MESSAGES } from '@radflow/core';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { buildUser, sessionHandlers } from '../../test/builders';
import { errorBody, fakeApi } from '../../test/fake-api';
import { renderRoutes } from '../../test/render';
import { OTP_NOTE } from './login-form';
import { LoginPage } from './LoginPage';
import { BRAND_PATH } from '../brand/brand-api';

function renderLogin(path = '/login-page') {
  return renderRoutes(
    [
      { path: '/login-page/:user?', element: <LoginPage /> },
      { path: '/', element: <h1>Study list</h1> },
      { path: '/status', element: <h1>Manage report</h1> },
    ],
    path,
  );
}

const identifierField = () => screen.getByLabelText('Mobile number or e-mail');
const type = (element: HTMLElement, value: string) => fireEvent.change(element, { target: { value } });

describe('LoginPage', () => {
  it('asks for a password and shows the OTP note for an e-mail', () => {
    fakeApi({});
    renderLogin();
    type(identifierField(), 'doctor@demo.local');
    expect(screen.getByLabelText('Password')).toBeTruthy();
    expect(screen.getByText(OTP_NOTE)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Sign in' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Request OTP' })).toBeTruthy();
  });

  it('hides the password, the note and Sign in for a mobile number', () => {
    fakeApi({});
    renderLogin();
    type(identifierField(), ' 9876543210 ');
    expect(screen.queryByLabelText('Password')).toBeNull();
    expect(screen.queryByText(OTP_NOTE)).toBeNull();
    expect(screen.queryByRole('button', { name: 'Sign in' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Request OTP' })).toBeTruthy();
    // A number that does not start with 6-9 is not a mobile number.
    type(identifierField(), '5876543210');
    expect(screen.getByLabelText('Password')).toBeTruthy();
  });

  it('refuses OTP for a value that is not a mobile number, without calling the server', async () => {
    const api = fakeApi({});
    renderLogin();
    type(identifierField(), 'doctor@demo.local');
    fireEvent.click(screen.getByRole('button', { name: 'Request OTP' }));
    expect((await screen.findByRole('alert')).textContent).toContain(MESSAGES.otpOnlyMobile);
    // The page's own brand read (issue 29 §8) is not a sign-in call.
    expect(api.requests.filter((r) => r.path !== BRAND_PATH)).toHaveLength(0);
  });

  it('signs in by one-time code: request, switch to OTP entry, post it as password', async () => {
    const user = buildUser(['ROLE_CENTER_CUSTOMER'], { email: '9876543210' });
    const api = fakeApi({
      'POST /api/user/generate-otp': { body: { sent: true, expiresInSeconds: 300 } },
      'POST /api/do-login': { body: user },
      ...sessionHandlers(user),
    });
    renderLogin();
    type(identifierField(), '9876543210');
    fireEvent.click(screen.getByRole('button', { name: 'Request OTP' }));

    const code = (await screen.findByLabelText('One-time code')) as HTMLInputElement;
    expect(api.calls('POST', '/api/user/generate-otp')[0]?.json()).toEqual({ mobile: '9876543210' });
    expect(code.name).toBe('password');
    expect(code.inputMode).toBe('numeric');
    expect(code.maxLength).toBe(6);
    expect(screen.queryByLabelText('Mobile number or e-mail')).toBeNull();

    type(code, '12a34');
    expect(code.value).toBe('1234');
    fireEvent.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(await screen.findByText('Enter the 6-digit code')).toBeTruthy();
    expect(api.calls('POST', '/api/do-login')).toHaveLength(0);

    type(code, '123456');
    fireEvent.click(screen.getByRole('button', { name: 'Sign In' }));
    // The center customer's first allowed path is the center report list.
    expect(await screen.findByRole('heading', { name: 'Manage report' })).toBeTruthy();
    expect(api.calls('POST', '/api/do-login')[0]?.form()).toEqual({
      email: '9876543210',
      password: '123456',
    });
  });

  it('prefills the user parameter and sends the identifier lower-cased and trimmed', async () => {
    const user = buildUser(['ROLE_DOCTOR'], { email: 'doctor@demo.local' });
    const api = fakeApi({ 'POST /api/do-login': { body: user }, ...sessionHandlers(user) });
    renderLogin('/login-page/doctor@demo.local');
    expect((identifierField() as HTMLInputElement).value).toBe('doctor@demo.local');
    type(identifierField(), '  Doctor@Demo.LOCAL ');
    type(screen.getByLabelText('Password'), 'demo12345');
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByRole('heading', { name: 'Study list' })).toBeTruthy();
    expect(api.calls('POST', '/api/do-login')[0]?.form()).toEqual({
      email: 'doctor@demo.local',
      password: 'demo12345',
    });
  });

  it('shows a wrong password in the error snackbar and stays on the page', async () => {
    fakeApi({ 'POST /api/do-login': { status: 401, body: errorBody(401, 'Invalid credentials', 'r1') } });
    renderLogin();
    type(identifierField(), 'doctor@demo.local');
    type(screen.getByLabelText('Password'), 'wrong');
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect((await screen.findByRole('alert')).textContent).toContain(
      'Invalid credentials (code 401, ref r1)',
    );
    expect(screen.getByLabelText('Password')).toBeTruthy();
  });

  it('tells a device waiting for approval exactly that', async () => {
    fakeApi({ 'POST /api/do-login': { status: 403, body: errorBody(5002, 'Device not approved') } });
    renderLogin();
    type(identifierField(), 'admin@demo.local');
    type(screen.getByLabelText('Password'), 'demo12345');
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe(MESSAGES.loginNeedsApproval);
    await waitFor(() => expect(screen.getByText(/This device is waiting for approval/)).toBeTruthy());
    expect(window.location.pathname).toBe('/login-page');
  });

  it('asks for the missing password before calling the server', async () => {
    const api = fakeApi({});
    renderLogin();
    type(identifierField(), 'doctor@demo.local');
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByText('Enter your password')).toBeTruthy();
    // The page's own brand read (issue 29 §8) is not a sign-in call.
    expect(api.requests.filter((r) => r.path !== BRAND_PATH)).toHaveLength(0);
  });
});
