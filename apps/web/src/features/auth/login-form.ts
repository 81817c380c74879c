import { MESSAGES, OTP_PATTERN, isMobileNumber, normalizeLoginIdentifier } from '@radflow/core';

/**
 * The login form's rules (spec-core §2 Login page, §4 Login, §5): one identifier field; a mobile
 * number (10 digits starting 6-9) signs in by one-time code and hides the password; anything else is
 * an e-mail signing in with a password.
 */

export type TLoginStep = 'credentials' | 'otp';

export const OTP_NOTE = 'OTP sign-in works with a 10-digit mobile number; use your password for an e-mail.';

export interface TCredentialsView {
  isMobile: boolean;
  showPassword: boolean;
  showOtpNote: boolean;
  /** The action Enter triggers. */
  primaryAction: 'sign-in' | 'request-otp';
}

export function credentialsView(identifier: string): TCredentialsView {
  const isMobile = isMobileNumber(identifier);
  return {
    isMobile,
    showPassword: !isMobile,
    showOtpNote: !isMobile,
    primaryAction: isMobile ? 'request-otp' : 'sign-in',
  };
}

export type TValidation<T> = { ok: true; value: T } | { ok: false; field: string; message: string };

export function validatePasswordSignIn(
  identifier: string,
  password: string,
): TValidation<{ email: string; password: string }> {
  const email = normalizeLoginIdentifier(identifier);
  if (!email) return { ok: false, field: 'identifier', message: 'Enter your mobile number or e-mail' };
  if (!password) return { ok: false, field: 'password', message: 'Enter your password' };
  return { ok: true, value: { email, password } };
}

export function validateOtpRequest(identifier: string): TValidation<{ mobile: string }> {
  const mobile = normalizeLoginIdentifier(identifier);
  if (!isMobileNumber(mobile)) return { ok: false, field: 'identifier', message: MESSAGES.otpOnlyMobile };
  return { ok: true, value: { mobile } };
}

export function validateOtp(code: string): TValidation<string> {
  if (!OTP_PATTERN.test(code)) return { ok: false, field: 'otp', message: 'Enter the 6-digit code' };
  return { ok: true, value: code };
}

/** Keeps only digits, at most 6: the code field accepts nothing else. */
export function sanitizeOtpInput(raw: string): string {
  return raw.replace(/\D/g, '').slice(0, 6);
}
