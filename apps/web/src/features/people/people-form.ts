import {
  AE_TITLE_MAX_LENGTH,
  EMAIL_PATTERN,
  MOBILE_PATTERN,
  aeTitleKey,
  aeTitleProblem,
  aeTitleRepeatedMessage,
  normalizeAeTitle,
} from '@radflow/core';
import { ApiError } from '../../api/client';

/** The server's words for a refusal (its errorDescription), else the client's message. */
export function refusalText(error: unknown): string {
  if (error instanceof ApiError) {
    const body = error.body as { errorDescription?: unknown } | null;
    if (body && typeof body.errorDescription === 'string') return body.errorDescription;
  }
  return error instanceof Error ? error.message : 'Please try again';
}

/** AE titles as typed in one field: separated by commas or new lines, spaces around dropped. */
export function parseAeTitles(text: string): string[] {
  return text
    .split(/[,\n]/)
    .map(normalizeAeTitle)
    .filter((ae) => ae.length > 0);
}

/** The first problem of the AE titles as typed (core rules; the server also checks other centers). */
export function aeTitlesProblem(titles: readonly string[]): string | null {
  const seen = new Set<string>();
  for (const ae of titles) {
    const problem = aeTitleProblem(ae);
    if (problem) return `${ae.slice(0, AE_TITLE_MAX_LENGTH + 4)}: ${problem}`;
    if (seen.has(aeTitleKey(ae))) return aeTitleRepeatedMessage(ae);
    seen.add(aeTitleKey(ae));
  }
  return null;
}

export const MESSAGE_EMAIL = 'Enter a valid e-mail address';
export const MESSAGE_MOBILE = 'Mobile number should be 10 digit and start with 6,7,8 or 9';

export const isValidEmail = (value: string) => EMAIL_PATTERN.test(value.trim().toLowerCase());
export const isValidOptionalMobile = (value: string) =>
  value.trim() === '' || MOBILE_PATTERN.test(value.trim());

/** 'ROLE_REFERRING_DOCTOR' → 'Referring doctor'. */
export function roleLabel(role: string): string {
  const words = role
    .replace(/^ROLE_/, '')
    .toLowerCase()
    .replaceAll('_', ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** The root of every people query key: a change refetches the lists and the audit together. */
export const PEOPLE_QUERY_ROOT = ['admin'] as const;
