import type { LOGIN_EVENT_TYPES, TAuditRow } from '@radflow/core';

export type TLoginEventType = (typeof LOGIN_EVENT_TYPES)[number];

export const EVENT_LABELS: Record<TLoginEventType, string> = {
  LOGIN_SUCCESS: 'Signed in',
  LOGIN_FAILED: 'Failed sign-in',
  LOGIN_RATE_LIMITED: 'Too many attempts',
  LOGIN_DEVICE_PENDING: 'Device awaiting approval',
  LOGIN_DEVICE_REJECTED: 'Rejected device tried to sign in',
  LOGOUT: 'Signed out',
  OTP_SENT: 'One-time code sent',
  OTP_FAILED: 'One-time code failed',
  DEVICE_APPROVED: 'Device approved',
  DEVICE_REJECTED: 'Device rejected',
  PASSWORD_CHANGED: 'Password changed',
  PASSWORD_CHANGE_FAILED: 'Wrong current password on password change',
  CUSTOMER_LOOKUP: 'Mobile number look-up',
  SIGNUP_OTP_REQUEST: 'Sign-up code requested',
  SIGN_IN_OTP_REQUEST: 'Sign-in code requested',
  SIGNED_UP: 'Signed up a new group',
};

export const STATUS_COLORS: Record<TAuditRow['status'], 'warning' | 'success' | 'error'> = {
  PENDING: 'warning',
  APPROVED: 'success',
  REJECTED: 'error',
};

/**
 * spec-core §4 Audit approval: the switch shows whether the device may sign in; turning it on
 * approves, turning it off rejects.
 */
export function nextApprovalStatus(checked: boolean): 'APPROVED' | 'REJECTED' {
  return checked ? 'APPROVED' : 'REJECTED';
}

/**
 * Devices waiting for a decision come first on the page (the server orders by last seen; a stable
 * sort keeps that order within each group), so the group admin sees what needs action at the top.
 */
export function pendingFirst<T extends Pick<TAuditRow, 'status'>>(rows: readonly T[]): T[] {
  return [...rows].sort((a, b) => Number(b.status === 'PENDING') - Number(a.status === 'PENDING'));
}
