import { ACCOUNT_PAYMENT_MESSAGES as M, SHARE_MESSAGES, type TAccountPayment } from '@radflow/core';
import { configure, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { NO_SUPPORT_CONTACT_TEXT } from '../../components/SupportContact';
import { buildUser, sessionHandlers, signedOutHandlers } from '../../test/builders';
import { fakeApi } from '../../test/fake-api';
import { renderScreen } from '../../test/render';
import { SharePage } from './SharePage';

const SLOW = { timeout: 20_000 };
configure({ asyncUtilTimeout: 10_000 });

const VIEWER = 'viewer@demo.local';
const openPaymentPage = (email = VIEWER) =>
  renderScreen(<SharePage />, { path: `/share?link=${encodeURIComponent(email)}`, route: '/share' });

const payment = (over: Partial<TAccountPayment> = {}): TAccountPayment => ({
  paymentNotDone: true,
  dues: [],
  support: { phone: '+91 80 4000 1234', email: null },
  groupAdmins: [{ name: 'Group Admin', email: 'admin@demo.local' }],
  ...over,
});

describe('SharePage with /share?link={email} (spec-core §4 Viewer payment)', () => {
  it("shows the signed-in viewer 'Payment needed', what it means and who to contact", SLOW, async () => {
    const api = fakeApi({
      ...sessionHandlers(buildUser(['ROLE_VIEWER'], { email: VIEWER })),
      'GET /api/customer-report/payment-info': { body: payment() },
    });
    openPaymentPage();
    const page = await screen.findByRole('region', { name: M.title });
    expect(within(page).getByText(M.due)).toBeTruthy();
    const admins = within(page).getByRole('region', { name: M.groupAdmins });
    expect(within(admins).getByRole('link', { name: 'admin@demo.local' }).getAttribute('href')).toBe(
      'mailto:admin@demo.local',
    );
    expect(within(page).getByRole('link', { name: '+91 80 4000 1234' })).toBeTruthy();
    expect(screen.queryByText(SHARE_MESSAGES.linkNotFound)).toBeNull();
    // No share link is looked up: an e-mail is not a share token.
    expect(api.requests.some((r) => r.path.startsWith('/api/share/'))).toBe(false);
  });

  it("lists what is due with the provider's pay link", SLOW, async () => {
    const payUrl = 'https://pay.example/login-page?payment-id=pay_1';
    fakeApi({
      ...sessionHandlers(buildUser(['ROLE_VIEWER'], { email: VIEWER })),
      'GET /api/customer-report/payment-info': {
        body: payment({
          dues: [
            {
              reportStatusId: 41,
              patientName: 'DOE^JANE',
              studyName: 'CT CHEST',
              amountMinor: 125050,
              currency: 'INR',
              note: 'Report and images',
              payUrl,
              requestedAt: '2026-11-22T04:00:00.000Z',
            },
            {
              reportStatusId: 42,
              patientName: '',
              studyName: '',
              amountMinor: 5000,
              currency: 'INR',
              note: '',
              payUrl: null,
              requestedAt: '2026-11-22T04:01:00.000Z',
            },
          ],
        }),
      },
    });
    openPaymentPage();
    const dues = await screen.findByRole('region', { name: M.duesTitle });
    expect(within(dues).getByText('JANE DOE, CT CHEST')).toBeTruthy();
    expect(within(dues).getByText('Report and images')).toBeTruthy();
    const pay = within(dues).getByRole('link', { name: `${M.payNow} ₹1,250.50 for JANE DOE, CT CHEST` });
    expect(pay.getAttribute('href')).toBe(payUrl);
    // A due with no pay link: the desk or the contacts below.
    expect(within(dues).getByText('Study 42')).toBeTruthy();
    expect(within(dues).getByText(M.noPayLink)).toBeTruthy();
    expect(within(dues).getAllByRole('link')).toHaveLength(1);
  });

  it('names the group administrator when neither admins nor a support contact are known', SLOW, async () => {
    fakeApi({
      ...sessionHandlers(buildUser(['ROLE_VIEWER'], { email: VIEWER })),
      'GET /api/customer-report/payment-info': {
        body: payment({ support: { phone: null, email: null }, groupAdmins: [] }),
      },
    });
    openPaymentPage();
    const page = await screen.findByRole('region', { name: M.title });
    expect(within(page).getByText(NO_SUPPORT_CONTACT_TEXT)).toBeTruthy();
  });

  it('says so when no payment is due', SLOW, async () => {
    fakeApi({
      ...sessionHandlers(buildUser(['ROLE_VIEWER'], { email: VIEWER })),
      'GET /api/customer-report/payment-info': { body: payment({ paymentNotDone: false }) },
    });
    openPaymentPage();
    const page = await screen.findByRole('region', { name: M.notDueTitle });
    expect(within(page).getByText(M.notDue)).toBeTruthy();
    expect(screen.queryByText(M.title)).toBeNull();
  });

  it("is not valid for another account's address or a user who is not a viewer", SLOW, async () => {
    const api = fakeApi(sessionHandlers(buildUser(['ROLE_DOCTOR'], { email: 'doctor@demo.local' })));
    openPaymentPage('doctor@demo.local');
    expect(await screen.findByText(SHARE_MESSAGES.linkNotFound)).toBeTruthy();
    expect(api.calls('GET', '/api/customer-report/payment-info')).toHaveLength(0);
  });

  it('asks a signed-out visitor to sign in', SLOW, async () => {
    fakeApi(signedOutHandlers);
    openPaymentPage();
    expect(await screen.findByText(M.signInFirst, { exact: false })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Sign in' }).getAttribute('href')).toBe('/login-page');
  });
});
