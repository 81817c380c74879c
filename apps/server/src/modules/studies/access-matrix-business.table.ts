import { type TMatrixRow, only } from './access-matrix.table.js';

/*
 * The EXPECTED access matrix of the business calls of issue 26 (tele-radiology pricing and invoices,
 * the radiologist's payout, the platform's billing, the payers' invoice pages, sign-up's group
 * checklist, the patient's and the center customer's pages), read like access-matrix.table.ts:
 * `allowed` roles get `success`, every other role 403. Written by hand from the menus (spec-core §2)
 * and each module's DECISIONS 'Who'; it does not call the core rules the routes use. None of these
 * calls is about one study (status null). The matrix group is the platform's operator group, so the
 * platform billing roles are allowed there (in any other group they get 403:
 * platform-billing.int.test.ts).
 */

const TELE = only('ROLE_TELE_RADIOLOGY', 'ROLE_BILLER', 'ROLE_GROUP');
const TELE_SOURCE =
  "spec-core §2 menus: 'Manage Tele Pricing' / 'Manage Tele Invoice', and the group's owner (tele-billing DECISIONS 'Who')";
const PLATFORM_READERS = only('ROLE_ADMIN_BILLER', 'ROLE_RADFLOW_SALES');
const PLATFORM_SOURCE =
  "spec-core §2 menus: Admin Billing (platform-billing DECISIONS 'Who sees what': operator group only)";

export const BUSINESS_MATRIX: readonly TMatrixRow[] = [
  {
    title: 'GET /tele-pricing/prices',
    endpoint: 'telePrices',
    status: null,
    allowed: TELE,
    success: 200,
    source: TELE_SOURCE,
  },
  {
    title: 'GET /tele-invoices',
    endpoint: 'teleInvoices',
    status: null,
    allowed: TELE,
    success: 200,
    source: TELE_SOURCE,
  },
  {
    title: 'POST /tele-invoices/month',
    endpoint: 'teleInvoiceMonth',
    status: null,
    allowed: TELE,
    success: 200,
    source: TELE_SOURCE,
  },
  {
    title: 'POST /tele-invoices/dunning/refresh',
    endpoint: 'teleDunningRefresh',
    status: null,
    allowed: TELE,
    success: 200,
    source: TELE_SOURCE,
  },
  {
    title: 'GET /tele-payout/rates',
    endpoint: 'payoutRates',
    status: null,
    allowed: TELE,
    success: 200,
    source: "tele-payouts DECISIONS 'Who': the tele roles and the group's owner run payouts",
  },
  {
    title: 'GET /tele-payout/statements',
    endpoint: 'payoutStatements',
    status: null,
    allowed: only('ROLE_TELE_RADIOLOGY', 'ROLE_BILLER', 'ROLE_GROUP', 'ROLE_DOCTOR'),
    success: 200,
    source:
      "tele-payouts DECISIONS 'Who': the tele roles and the group's owner; a doctor reads their own statements",
  },
  {
    title: 'GET /tele-payout/margin',
    endpoint: 'payoutMargin',
    status: null,
    allowed: TELE,
    success: 200,
    source: "tele-payouts DECISIONS 'Who': the margin is the group's, for the tele roles only",
  },
  {
    title: 'GET /platform-billing/overview',
    endpoint: 'platformOverview',
    status: null,
    allowed: PLATFORM_READERS,
    success: 200,
    source: PLATFORM_SOURCE,
  },
  {
    title: 'GET /platform-billing/invoices',
    endpoint: 'platformInvoices',
    status: null,
    allowed: PLATFORM_READERS,
    success: 200,
    source: PLATFORM_SOURCE,
  },
  {
    title: 'GET /platform-billing/payments',
    endpoint: 'platformPayments',
    status: null,
    allowed: PLATFORM_READERS,
    success: 200,
    source: PLATFORM_SOURCE,
  },
  {
    title: 'POST /platform-billing/invoices/issue',
    endpoint: 'platformIssue',
    status: null,
    allowed: only('ROLE_ADMIN_BILLER'),
    success: 200,
    source: `${PLATFORM_SOURCE}; the money writes are the admin biller's`,
  },
  {
    title: 'POST /platform-billing/plans',
    endpoint: 'platformPlanCreate',
    status: null,
    allowed: only('ROLE_ADMIN_BILLER'),
    success: 200,
    source: `${PLATFORM_SOURCE}; plans are the admin biller's, sales reads them`,
  },
  {
    title: 'GET /center-billing/invoices',
    endpoint: 'centerInvoices',
    status: null,
    allowed: only('ROLE_CENTER'),
    success: 200,
    source: "invoice-payments DECISIONS: the center's own account sees and pays its tele invoices",
  },
  {
    title: 'GET /group-billing/platform-invoices',
    endpoint: 'groupPlatformInvoices',
    status: null,
    allowed: only('ROLE_ADMIN', 'ROLE_GROUP'),
    success: 200,
    source: "invoice-payments DECISIONS: the group's administrators see and pay its platform invoices",
  },
  {
    title: 'POST /invoice-payments/confirm with an unknown payment-id',
    endpoint: 'invoicePayConfirm',
    status: null,
    allowed: only('ROLE_CENTER', 'ROLE_ADMIN', 'ROLE_GROUP'),
    success: 404,
    source: 'invoice-payments DECISIONS: the payers only; an unknown reference is 404',
  },
  {
    title: 'GET /group/getting-started',
    endpoint: 'gettingStarted',
    status: null,
    allowed: only('ROLE_ADMIN', 'ROLE_GROUP'),
    success: 200,
    source: "signup DECISIONS: the new group's checklist is its administrators' (core canManagePeople)",
  },
  {
    title: 'GET /customer-report/reports',
    endpoint: 'customerReports',
    status: null,
    allowed: only('ROLE_CUSTOMER'),
    success: 200,
    source: "spec-core §2 menu of ROLE_CUSTOMER: 'Manage report' /manage-customer-report",
  },
  {
    title: 'GET /manage-patient/patients',
    endpoint: 'centerPatients',
    status: null,
    allowed: only('ROLE_CENTER_CUSTOMER'),
    success: 200,
    source: "spec-core §2 menu of ROLE_CENTER_CUSTOMER: 'Manage patient for center' /manage-patient",
  },
];

/**
 * Calls of issue 26 outside the role matrix, each with why: they are not session calls, so every
 * role (and nobody signed in) gets the same answer — the test checks exactly that.
 */
export const BUSINESS_EXEMPT: ReadonlyArray<{
  title: string;
  call: 'webhook' | 'signupOtp' | 'signup';
  reason: string;
}> = [
  {
    title: 'POST /payments/webhook/razorpay',
    call: 'webhook',
    reason:
      "the payment provider's server calls it; its credential is the signature over the body (payments DECISIONS 'Webhook'), never a session",
  },
  {
    title: 'POST /signup/otp',
    call: 'signupOtp',
    reason:
      'a new group signs itself up before it has any account (signup DECISIONS); limited per mobile and address',
  },
  {
    title: 'POST /signup',
    call: 'signup',
    reason: 'the sign-up code is the credential; it creates the first account (signup DECISIONS)',
  },
];
