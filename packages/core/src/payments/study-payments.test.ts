import { describe, expect, it } from 'vitest';
import { ROLES, type TRole } from '../identity/roles.js';
import { ZPaymentConfirmRequest, ZRecordDeskPaymentBody, ZRequestPaymentBody } from './schemas.js';
import {
  canManageStudyPayment,
  formatPaymentAmount,
  paymentActionsOf,
  paymentColumnText,
  studyPaymentOf,
  toMinorUnits,
} from './study-payments.js';

const ownCenter = 4;
const may = (
  roles: TRole[],
  over: { status?: 'CREATED' | 'DELETED'; centerId?: number; userCenterId?: number | null } = {},
) =>
  canManageStudyPayment({
    roles,
    row: { status: over.status ?? 'CREATED', centerId: over.centerId ?? ownCenter },
    userCenterId: over.userCenterId === undefined ? ownCenter : over.userCenterId,
  });

describe('canManageStudyPayment', () => {
  it('lets the group’s money handlers and the study’s own center act, and no one else', () => {
    const allowed = ROLES.filter((role) => may([role]));
    expect(allowed.sort()).toEqual(
      [
        'ROLE_ADMIN',
        'ROLE_GROUP',
        'ROLE_BILLER',
        'ROLE_ADMIN_BILLER',
        'ROLE_CENTER',
        'ROLE_CENTER_CUSTOMER',
        'ROLE_CENTER_SHARE_ALL',
        'ROLE_OFFLINE_HYBRID',
        'ROLE_LABS_SUPERVISOR',
        'ROLE_LABS_RECEPTIONIST',
      ].sort(),
    );
  });

  it('keeps center staff to their own center, and everyone off deleted studies', () => {
    expect(may(['ROLE_CENTER'], { centerId: 9 })).toBe(false);
    expect(may(['ROLE_LABS_RECEPTIONIST'], { centerId: 9 })).toBe(false);
    expect(may(['ROLE_CENTER_SHARE_ALL'], { centerId: 9 })).toBe(false);
    expect(may(['ROLE_BILLER'], { centerId: 9, userCenterId: null })).toBe(true);
    expect(may(['ROLE_ADMIN'], { status: 'DELETED' })).toBe(false);
    expect(may(['ROLE_CENTER'], { status: 'DELETED' })).toBe(false);
  });
});

describe('studyPaymentOf', () => {
  it('follows the newest request that was not cancelled', () => {
    expect(studyPaymentOf([])).toEqual({ paymentStatus: 'NOT_REQUIRED', paymentMode: null });
    expect(studyPaymentOf([{ status: 'PENDING', mode: null }])).toEqual({
      paymentStatus: 'PENDING',
      paymentMode: null,
    });
    expect(
      studyPaymentOf([
        { status: 'CANCELLED', mode: null },
        { status: 'PAID', mode: 'CASH' },
      ]),
    ).toEqual({ paymentStatus: 'PAID', paymentMode: 'CASH' });
    expect(studyPaymentOf([{ status: 'CANCELLED', mode: null }])).toEqual({
      paymentStatus: 'NOT_REQUIRED',
      paymentMode: null,
    });
  });
});

describe('paymentActionsOf and paymentColumnText', () => {
  it('offers cancel only while pending, and a new request only when none is', () => {
    expect(paymentActionsOf('PENDING')).toEqual({ request: false, recordDesk: true, cancel: true });
    expect(paymentActionsOf('PAID')).toEqual({ request: true, recordDesk: true, cancel: false });
    expect(paymentActionsOf(undefined)).toEqual({ request: true, recordDesk: true, cancel: false });
  });

  it('shows status and mode (spec-core §2 "payment status and mode")', () => {
    expect(paymentColumnText({ paymentStatus: 'PAID', paymentMode: 'CASH' })).toBe('Paid · Cash');
    expect(paymentColumnText({ paymentStatus: 'PAID', paymentMode: 'ONLINE' })).toBe('Paid · Online');
    expect(paymentColumnText({ paymentStatus: 'PENDING', paymentMode: null })).toBe('Pending');
    expect(paymentColumnText({ paymentStatus: 'NOT_REQUIRED' })).toBe('—');
    expect(paymentColumnText({})).toBe('—');
  });
});

describe('amounts', () => {
  it('converts to minor units without float drift and formats for people', () => {
    expect(toMinorUnits(1250.5)).toBe(125050);
    expect(toMinorUnits(0.29)).toBe(29);
    expect(toMinorUnits(19.99)).toBe(1999);
    expect(formatPaymentAmount(125050, 'INR')).toBe('₹1,250.50');
    expect(formatPaymentAmount(100, 'NOPE')).toBe('NOPE 1.00');
  });

  it('accepts positive amounts with at most 2 decimals', () => {
    expect(ZRequestPaymentBody.parse({ amount: 19.99 })).toEqual({
      amount: 19.99,
      currency: 'INR',
      note: '',
    });
    for (const amount of [0, -1, 1.234, Number.NaN, 20_000_000]) {
      expect(ZRequestPaymentBody.safeParse({ amount }).success, String(amount)).toBe(false);
    }
    expect(ZRecordDeskPaymentBody.safeParse({ mode: 'ONLINE' }).success).toBe(false);
    expect(ZRecordDeskPaymentBody.parse({ mode: 'CASH' })).toEqual({
      mode: 'CASH',
      currency: 'INR',
      transactionId: '',
    });
  });
});

describe('ZPaymentConfirmRequest', () => {
  it('takes the login page’s query parameters with password and mobile', () => {
    expect(
      ZPaymentConfirmRequest.parse({
        'payment-id': 'pay_1',
        'test-signature': 's',
        password: '',
        mobile: '',
      }),
    ).toEqual({ 'payment-id': 'pay_1', 'test-signature': 's', password: '', mobile: '' });
    expect(ZPaymentConfirmRequest.safeParse({ password: 'x' }).success).toBe(false);
    expect(ZPaymentConfirmRequest.safeParse({ 'payment-id': 'p', other: 5 }).success).toBe(false);
  });
});
