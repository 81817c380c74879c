import { createHmac, timingSafeEqual } from 'node:crypto';
import type { AppContext } from '../../context.js';

/**
 * The study-scoped credential of a Weasis launch (issue 5 §4). Weasis is a desktop program: it has
 * no session cookie, so the manifest URL carries this token and the manifest hands it back to Weasis
 * as an `Authorization: Bearer` header for every WADO request. It grants one user's read access to
 * one archive study, until it expires; the user's own access is still checked on every request.
 *
 * Form: `rfv1.<payload>.<mac>`, payload = base64url of `<reportStatusId>.<userId>.<expiresAt s>`, mac =
 * HMAC-SHA256 of the payload under a key derived from the signed-link secret for this purpose. The
 * study is the report row's (looked up on use): the token travels as a path parameter of the
 * manifest URL, which the router caps at 100 characters, so it carries no UID.
 */
export const WEASIS_TOKEN_PREFIX = 'rfv1.';

/**
 * How long a launch works. Weasis fetches the manifest at once and then downloads the study with
 * the same token (4 instances at a time), so the token must outlive a large download on a slow link,
 * yet it travels in a URL: an hour.
 */
export const WEASIS_TOKEN_TTL_SECONDS = 60 * 60;

export interface TWeasisGrant {
  reportStatusId: number;
  userId: number;
  /** Epoch seconds. */
  expiresAt: number;
}

const keyOf = (ctx: AppContext) => ctx.secrets.hmac('zip-link', 'radflow-weasis-study-token');

const macOf = async (ctx: AppContext, payload: string) =>
  createHmac('sha256', await keyOf(ctx))
    .update(payload)
    .digest();

export async function signWeasisToken(ctx: AppContext, grant: TWeasisGrant): Promise<string> {
  const text = [grant.reportStatusId, grant.userId, grant.expiresAt].join('.');
  const payload = Buffer.from(text).toString('base64url');
  return `${WEASIS_TOKEN_PREFIX}${payload}.${(await macOf(ctx, payload)).toString('base64url')}`;
}

export type TWeasisTokenCheck =
  { ok: true; grant: TWeasisGrant } | { ok: false; reason: 'INVALID' | 'EXPIRED' };

const POSITIVE_INT = /^[1-9]\d{0,9}$/;

export async function verifyWeasisToken(ctx: AppContext, token: string): Promise<TWeasisTokenCheck> {
  if (!token.startsWith(WEASIS_TOKEN_PREFIX) || token.length > 512) return { ok: false, reason: 'INVALID' };
  const [payload, mac, extra] = token.slice(WEASIS_TOKEN_PREFIX.length).split('.');
  if (!payload || !mac || extra !== undefined) return { ok: false, reason: 'INVALID' };
  const expected = await macOf(ctx, payload);
  const given = Buffer.from(mac, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    return { ok: false, reason: 'INVALID' };
  }
  const parts = Buffer.from(payload, 'base64url').toString('utf8').split('.');
  const [id = '', userId = '', expiresAt = ''] = parts;
  if (parts.length !== 3 || ![id, userId, expiresAt].every((p) => POSITIVE_INT.test(p))) {
    return { ok: false, reason: 'INVALID' };
  }
  const grant: TWeasisGrant = {
    reportStatusId: Number(id),
    userId: Number(userId),
    expiresAt: Number(expiresAt),
  };
  if (!(grant.expiresAt > ctx.now().getTime() / 1000)) return { ok: false, reason: 'EXPIRED' };
  return { ok: true, grant };
}
