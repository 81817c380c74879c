/** spec-core §5 / spec-lab §9: 10 digits starting 6-9. */
export const MOBILE_PATTERN = /^[6-9]\d{9}$/;
/** spec-core §5: the one-time code is a 6-digit numeric code. */
export const OTP_PATTERN = /^\d{6}$/;
/** A standard e-mail pattern (spec-core §5 "E-mail fields must match a standard e-mail pattern"). */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
/**
 * NIST 800-63B §3.1.1.2: at least 8 characters (the spec's 5 is raised; password-rules.ts has the rest).
 */
export const PASSWORD_MIN_LENGTH = 8;
export const OTP_LENGTH = 6;

/** spec-core §2 Login page: the identifier is lower-cased and trimmed. */
export function normalizeLoginIdentifier(value: string): string {
  return value.trim().toLowerCase();
}

export function isMobileNumber(value: string): boolean {
  return MOBILE_PATTERN.test(normalizeLoginIdentifier(value));
}

export function isEmail(value: string): boolean {
  return EMAIL_PATTERN.test(normalizeLoginIdentifier(value));
}
