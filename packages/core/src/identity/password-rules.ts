import { PRODUCT_NAME } from '../common/constants.js';
import { PASSWORD_MIN_LENGTH } from '../common/validation.js';

/**
 * The rules for a password a user sets (NIST 800-63B §3.1.1.2), the parts both the browser and the
 * server check. No composition rules (digits, symbols) and no expiry, as NIST advises; the server
 * also refuses the common-password list (apps/server modules/auth/passwords.ts), which is too big to
 * ship to the browser.
 */

export const MESSAGE_PASSWORD_TOO_SHORT = `newPassword must be at least ${PASSWORD_MIN_LENGTH} characters`;
export const MESSAGE_PASSWORD_PERSONAL = 'The password must not contain your e-mail address or name';
export const MESSAGE_PASSWORD_COMMON = 'This password is too common or too easy to guess; choose another';

/** Context words shorter than this are not looked for inside a password (too many false refusals). */
const MIN_CONTEXT_WORD_LENGTH = 4;

/** Characters as a person counts them (Unicode code points), spaces around the password not counted. */
export function passwordLength(password: string): number {
  return [...password.trim()].length;
}

/** The password as the checks compare it: trimmed, lower-cased, inner spaces and dots ignored. */
function folded(value: string): string {
  return value
    .trim()
    .toLowerCase()
    .replace(/[\s.]+/g, '');
}

/**
 * Why a new password is refused for this user, or null: too short, made of their e-mail address,
 * its local part, their name or the product's name, or fewer than 3 different characters.
 */
export function passwordProblem(
  password: string,
  user: { email: string; identifier?: string | null },
): string | null {
  if (passwordLength(password) < PASSWORD_MIN_LENGTH) return MESSAGE_PASSWORD_TOO_SHORT;
  const candidate = folded(password);
  const email = user.email.trim().toLowerCase();
  const words = [email, email.split('@')[0] ?? '', user.identifier ?? '', PRODUCT_NAME]
    .map(folded)
    .filter((w) => w.length >= MIN_CONTEXT_WORD_LENGTH);
  if (words.some((w) => candidate.includes(w))) return MESSAGE_PASSWORD_PERSONAL;
  if (new Set(candidate).size < 3) return MESSAGE_PASSWORD_COMMON;
  return null;
}
