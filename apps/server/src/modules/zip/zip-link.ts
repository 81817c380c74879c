import { createHmac, timingSafeEqual } from 'node:crypto';
import { ZIP_VARIANTS, type TZipVariant } from '@radflow/core';
import type { AppContext } from '../../context.js';
import { zipLinkKey } from './zip-secrets.js';

/** How long a download link works. */
export const ZIP_LINK_TTL_SECONDS = 15 * 60;

/** What a download link grants: one zip of one report, to one user, until `expiresAt` (epoch s). */
export interface TZipGrant {
  reportStatusId: number;
  variant: TZipVariant;
  userId: number;
  expiresAt: number;
  /** The file name carries the patient's name (withName=true). */
  withName: boolean;
}

const encode = (g: TZipGrant) =>
  [g.reportStatusId, g.variant, g.userId, g.expiresAt, g.withName ? 1 : 0].join('.');

/**
 * `<grant>.<HMAC-SHA256(grant)>`, base64url: the link itself is the credential (a download manager
 * or the proxy wrapper fetches it without the session cookie), so it is short-lived and bound to
 * the report, the variant and the user.
 */
export async function signZipGrant(ctx: AppContext, grant: TZipGrant): Promise<string> {
  const payload = Buffer.from(encode(grant)).toString('base64url');
  const mac = createHmac('sha256', await zipLinkKey(ctx))
    .update(payload)
    .digest('base64url');
  return `${payload}.${mac}`;
}

export type TZipGrantCheck = { ok: true; grant: TZipGrant } | { ok: false; reason: 'INVALID' | 'EXPIRED' };

export async function verifyZipGrant(ctx: AppContext, token: string): Promise<TZipGrantCheck> {
  const [payload, mac, extra] = token.split('.');
  if (!payload || !mac || extra !== undefined) return { ok: false, reason: 'INVALID' };
  const expected = createHmac('sha256', await zipLinkKey(ctx))
    .update(payload)
    .digest();
  const given = Buffer.from(mac, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    return { ok: false, reason: 'INVALID' };
  }
  const [id, variant, userId, expiresAt, withName] = Buffer.from(payload, 'base64url')
    .toString('utf8')
    .split('.');
  if (!ZIP_VARIANTS.includes(variant as TZipVariant)) return { ok: false, reason: 'INVALID' };
  const grant: TZipGrant = {
    reportStatusId: Number(id),
    variant: variant as TZipVariant,
    userId: Number(userId),
    expiresAt: Number(expiresAt),
    withName: withName === '1',
  };
  if (!(grant.expiresAt > ctx.now().getTime() / 1000)) return { ok: false, reason: 'EXPIRED' };
  return { ok: true, grant };
}

/** One `bytes=a-b` range of RFC 9110 §14.1.2 (several ranges: the whole file is sent). */
export function parseRange(
  header: string | undefined,
  size: number,
): { start: number; end: number } | 'UNSATISFIABLE' | null {
  if (!header) return null;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match) return null;
  const [, from = '', to = ''] = match;
  if (from === '' && to === '') return null;
  let start: number;
  let end: number; // exclusive
  if (from === '') {
    const suffix = Number(to);
    if (suffix === 0) return 'UNSATISFIABLE';
    start = Math.max(0, size - suffix);
    end = size;
  } else {
    start = Number(from);
    end = to === '' ? size : Math.min(size, Number(to) + 1);
  }
  if (start >= size || end <= start) return 'UNSATISFIABLE';
  return { start, end };
}

/** `attachment; filename="<id>_<patient>.zip"`, with an RFC 6266 UTF-8 form for non-ASCII names. */
export function contentDisposition(baseName: string): string {
  const ascii = baseName.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  const utf8 = encodeURIComponent(baseName);
  return `attachment; filename="${ascii}.zip"; filename*=UTF-8''${utf8}.zip`;
}
