import { timingSafeEqual } from 'node:crypto';
import type { AppSecrets } from '../secrets/app-secrets.js';

/**
 * Per-user API tokens (GET /api/user/token): `rf1.<userId>.<mac>`, the MAC an HMAC of the user id and
 * the user's token_version under a server secret. Derived on demand, never stored; bumping
 * token_version revokes every token of the user.
 */
const TOKEN_PATTERN = /^rf1\.(\d{1,10})\.([A-Za-z0-9_-]{43})$/;

export async function deriveApiToken(
  secrets: AppSecrets,
  userId: number,
  tokenVersion: number,
): Promise<string> {
  const mac = await secrets.hmac('api-token', `${userId}.${tokenVersion}`);
  return `rf1.${userId}.${mac.toString('base64url')}`;
}

/** The user id a well-formed token names (its MAC is checked by `isApiTokenValid`). */
export function parseApiToken(token: string): { userId: number } | null {
  const match = TOKEN_PATTERN.exec(token);
  if (!match?.[1]) return null;
  const userId = Number(match[1]);
  return Number.isSafeInteger(userId) && userId > 0 && userId <= 2_147_483_647 ? { userId } : null;
}

export async function isApiTokenValid(
  secrets: AppSecrets,
  token: string,
  user: { id: number; tokenVersion: number },
): Promise<boolean> {
  const expected = Buffer.from(await deriveApiToken(secrets, user.id, user.tokenVersion));
  const given = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
