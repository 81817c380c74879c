import { CENTER_USERS, type TMatrixRow, only } from './access-matrix.table.js';

/*
 * The EXPECTED access matrix of the study payment calls (issue 5 §1 Viewer payment; payments
 * DECISIONS 'Who'), read like access-matrix.table.ts: `allowed` roles get `success`, every other role
 * 403 (403 or 404 for roles that see no study). The spec does not show the staff side; the decision is
 * the module's: the group's admins, group administrators and billers, and the study's own center
 * (center users and the lab desk) — the people who take money.
 */

const PAYMENT_STAFF = [
  ...only('ROLE_ADMIN', 'ROLE_GROUP', 'ROLE_BILLER', 'ROLE_ADMIN_BILLER', 'ROLE_LABS_SUPERVISOR'),
  ...only('ROLE_LABS_RECEPTIONIST'),
  ...CENTER_USERS,
];
const SOURCE =
  "payments DECISIONS 'Who': admins, group administrators, billers and the study's own center " +
  '(center users, lab desk); center backup is read-only (core actingRoles)';

export const PAYMENTS_MATRIX: readonly TMatrixRow[] = [
  {
    title: 'GET /report-status/payments/{id} on CREATED',
    endpoint: 'paymentList',
    status: 'CREATED',
    allowed: PAYMENT_STAFF,
    success: 200,
    source: SOURCE,
  },
  {
    title: 'POST /report-status/payment/request/{id} on SIGNED_OFF',
    endpoint: 'paymentRequest',
    status: 'SIGNED_OFF',
    allowed: PAYMENT_STAFF,
    success: 200,
    source: `${SOURCE}; a payment is asked for the report and images, at any workflow status`,
  },
  {
    title: 'POST /report-status/payment/record/{id} on CREATED',
    endpoint: 'paymentRecord',
    status: 'CREATED',
    allowed: PAYMENT_STAFF,
    success: 200,
    source: SOURCE,
  },
  {
    title: 'POST /report-status/payment/cancel/{id} on CREATED with a pending request',
    endpoint: 'paymentCancel',
    status: 'CREATED',
    allowed: PAYMENT_STAFF,
    success: 200,
    source: SOURCE,
  },
  {
    title: 'POST /report-status/payment/request/{id} on DELETED',
    endpoint: 'paymentRequest',
    status: 'DELETED',
    allowed: [],
    success: 200,
    source: "spec §4 'Deleted studies disable all row actions'",
  },
];
