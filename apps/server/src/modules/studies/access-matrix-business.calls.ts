import { randomBytes } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import type { TestClient } from '../../../test/test-app.js';
import type { TBusinessEndpoint } from './access-matrix-business.endpoints.js';
import type { BUSINESS_EXEMPT } from './access-matrix-business.table.js';

type TCall = (browser: TestClient) => Promise<LightMyRequestResponse>;

/** One request per business endpoint, with what an allowed role would send. */
export const BUSINESS_CALLS: Record<TBusinessEndpoint, TCall> = {
  telePrices: (b) => b.get('/api/tele-pricing/prices'),
  teleInvoices: (b) => b.get('/api/tele-invoices'),
  teleInvoiceMonth: (b) => b.post('/api/tele-invoices/month', { month: '2026-01' }),
  teleDunningRefresh: (b) => b.post('/api/tele-invoices/dunning/refresh'),
  payoutRates: (b) => b.get('/api/tele-payout/rates'),
  payoutStatements: (b) => b.get('/api/tele-payout/statements'),
  payoutMargin: (b) => b.get('/api/tele-payout/margin?from=2026-01-01&to=2026-01-31'),
  platformOverview: (b) => b.get('/api/platform-billing/overview'),
  platformInvoices: (b) => b.get('/api/platform-billing/invoices'),
  platformPayments: (b) => b.get('/api/platform-billing/payments'),
  platformIssue: (b) => b.post('/api/platform-billing/invoices/issue', { period: '2026-01' }),
  platformPlanCreate: (b) =>
    b.post('/api/platform-billing/plans', {
      code: `M_${randomBytes(4).toString('hex').toUpperCase()}`,
      name: 'Matrix plan',
      kind: 'PER_STUDY',
      monthlyFee: 0,
      includedStudies: 0,
      perStudyPrice: 10,
      trialDays: 0,
    }),
  centerInvoices: (b) => b.get('/api/center-billing/invoices'),
  groupPlatformInvoices: (b) => b.get('/api/group-billing/platform-invoices'),
  invoicePayConfirm: (b) => b.post('/api/invoice-payments/confirm', { 'payment-id': 'rf-not-ours' }),
  gettingStarted: (b) => b.get('/api/group/getting-started'),
  customerReports: (b) => b.get('/api/customer-report/reports'),
  centerPatients: (b) => b.get('/api/manage-patient/patients'),
};

/**
 * The exempt calls, each with a body that is refused for what it is (not who sends it): an unsigned
 * webhook, a sign-up without a valid mobile or code.
 */
export const EXEMPT_CALLS: Record<(typeof BUSINESS_EXEMPT)[number]['call'], TCall> = {
  webhook: (b) => b.post('/api/payments/webhook/razorpay', { event: 'payment_link.paid' }),
  signupOtp: (b) => b.post('/api/signup/otp', { mobile: 'not-a-mobile' }),
  signup: (b) => b.post('/api/signup', { mobile: 'not-a-mobile' }),
};
