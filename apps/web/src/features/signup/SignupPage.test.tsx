import { MESSAGES, MESSAGE_PASSWORD_PERSONAL } from '@radflow/core';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { buildUser, sessionHandlers } from '../../test/builders';
import { fakeApi } from '../../test/fake-api';
import { renderRoutes } from '../../test/render';
import { LoginPage } from '../auth/LoginPage';
import { SignupPage } from './SignupPage';
import { BRAND_PATH } from '../brand/brand-api';

const WAIT = { timeout: 5_000 };

function renderSignup() {
  return renderRoutes(
    [
      { path: '/signup', element: <SignupPage /> },
      { path: '/', element: <h1>Study list</h1> },
      { path: '/login-page/:user?', element: <h1>Sign in page</h1> },
    ],
    '/signup',
  );
}

const type = (label: string, value: string) =>
  fireEvent.change(screen.getByLabelText(label), { target: { value } });
const refusal = (status: number, errorDescription: string, additionalInfo: string | null) => ({
  status,
  body: { errorStatusCode: status, errorDescription, additionalInfo, txnId: 't' },
});

async function toDetails(api: ReturnType<typeof fakeApi>, mobile = '9876512345') {
  type('Mobile number', ` ${mobile} `);
  fireEvent.click(screen.getByRole('button', { name: 'Request OTP' }));
  expect(await screen.findByLabelText('One-time code', {}, WAIT)).toBeTruthy();
  expect(api.calls('POST', '/api/signup/otp')[0]?.json()).toEqual({ mobile });
}

function fillDetails(over: Partial<Record<string, string>> = {}) {
  const values = {
    'One-time code': '123456',
    'Center or group name': 'Sunrise Imaging',
    'Your name': 'Asha Verma',
    'E-mail': 'asha@sunrise.example',
    Password: 'violet kestrel 42',
    ...over,
  };
  for (const [label, value] of Object.entries(values)) type(label, value);
}

const OTP_SENT = { body: { sent: true, expiresInSeconds: 300 } };

describe('Sign-up page (/signup)', () => {
  it("refuses a value that is not a mobile number with the spec's message, without calling the server", async () => {
    const api = fakeApi({});
    renderSignup();
    type('Mobile number', 'asha@sunrise.example');
    fireEvent.click(screen.getByRole('button', { name: 'Request OTP' }));
    expect(await screen.findByText(MESSAGES.otpOnlyMobile)).toBeTruthy();
    // The page's own brand read (issue 29 §8) is not a sign-in call.
    expect(api.requests.filter((r) => r.path !== BRAND_PATH)).toHaveLength(0);
  });

  it('requests a code, checks the details, creates the group and lands signed in on its home', async () => {
    const owner = buildUser(['ROLE_GROUP', 'ROLE_ADMIN'], { email: 'asha@sunrise.example' });
    const api = fakeApi({
      'POST /api/signup/otp': OTP_SENT,
      'POST /api/signup': { body: { groupId: 7, email: owner.email, redirectTo: '/' } },
      ...sessionHandlers(owner),
    });
    renderSignup();
    await toDetails(api);
    expect(screen.getByText('We sent a 6-digit code by SMS to 9876512345.')).toBeTruthy();

    // The browser checks what it can before calling the server.
    fillDetails({ 'One-time code': '12a4', Password: 'asha verma 99' });
    expect((screen.getByLabelText('One-time code') as HTMLInputElement).value).toBe('124');
    fireEvent.click(screen.getByRole('button', { name: 'Create account' }));
    expect(await screen.findByText('The one-time code is 6 digits')).toBeTruthy();
    expect(screen.getByText(MESSAGE_PASSWORD_PERSONAL)).toBeTruthy();
    fillDetails({ 'E-mail': 'not-an-email', Password: 'short' });
    fireEvent.click(screen.getByRole('button', { name: 'Create account' }));
    expect(await screen.findByText('email must be a valid e-mail address')).toBeTruthy();
    expect(screen.getByText('password must be at least 8 characters')).toBeTruthy();
    expect(api.calls('POST', '/api/signup')).toHaveLength(0);

    fillDetails();
    fireEvent.click(screen.getByRole('button', { name: 'Create account' }));
    expect(await screen.findByRole('heading', { name: 'Study list' }, WAIT)).toBeTruthy();
    expect(api.calls('POST', '/api/signup')[0]?.json()).toEqual({
      mobile: '9876512345',
      otp: '123456',
      groupName: 'Sunrise Imaging',
      adminName: 'Asha Verma',
      email: 'asha@sunrise.example',
      password: 'violet kestrel 42',
    });
    expect(api.calls('GET', '/api/user/')).toHaveLength(1);
  });

  it('shows a wrong code under the code field and stays on the form', async () => {
    const api = fakeApi({
      'POST /api/signup/otp': OTP_SENT,
      'POST /api/signup': refusal(400, 'The code is not correct', 'otp'),
    });
    renderSignup();
    await toDetails(api);
    fillDetails();
    fireEvent.click(screen.getByRole('button', { name: 'Create account' }));
    expect(await screen.findByText('The code is not correct')).toBeTruthy();
    expect(screen.getByLabelText('Center or group name')).toBeTruthy();
  });

  it('tells a registered number to sign in, with a link to the login page for it', async () => {
    const message = 'This mobile number is already registered. Please sign in instead.';
    const api = fakeApi({
      'POST /api/signup/otp': OTP_SENT,
      'POST /api/signup': refusal(409, message, 'mobile'),
    });
    renderSignup();
    await toDetails(api);
    fillDetails();
    fireEvent.click(screen.getByRole('button', { name: 'Create account' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain(message);
    const signIn = screen.getAllByRole('link', { name: 'Sign in' })[0];
    expect(signIn?.getAttribute('href')).toBe('/login-page/9876512345');
  });

  it('shows the 429 of too many codes', async () => {
    fakeApi({
      'POST /api/signup/otp': refusal(429, 'Too many codes requested. Please try again in 15 minutes.', null),
    });
    renderSignup();
    type('Mobile number', '9876512345');
    fireEvent.click(screen.getByRole('button', { name: 'Request OTP' }));
    await waitFor(() => expect(screen.getByRole('alert').textContent).toContain('Too many codes requested'));
    expect(screen.queryByLabelText('One-time code')).toBeNull();
  });

  it('is linked from the login page', () => {
    fakeApi({});
    renderRoutes([{ path: '/login-page/:user?', element: <LoginPage /> }], '/login-page');
    const link = screen.getByRole('link', { name: 'Create an account for your center/group' });
    expect(link.getAttribute('href')).toBe('/signup');
  });
});
