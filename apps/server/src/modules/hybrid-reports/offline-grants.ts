import { createHash, randomBytes } from 'node:crypto';
import { and, eq, gt } from 'drizzle-orm';
import {
  AppError,
  OFFLINE_REPORT_GRANT_DAYS,
  OFFLINE_REPORT_MESSAGES,
  type TOfflineReportGrant,
  hasRole,
} from '@radflow/core';
import type { AppContext } from '../../context.js';
import type { TUserRow } from '../../db/schema.js';
import { offlineReportGrants } from '../../db/schema.js';
import type { TAuth } from '../../plugins/auth.js';
import { storedRoles } from '../current-user/current-user.js';

const DAY_MS = 24 * 60 * 60 * 1000;
const hashOf = (grant: string) => createHash('sha256').update(grant).digest('hex');

/** May write reports offline: active, hybrid mode on, and a doctor by their stored roles. */
export const isHybridDoctor = (user: TUserRow): boolean =>
  user.active && user.hybridModeOn && hasRole(storedRoles(user), 'ROLE_DOCTOR');

/**
 * POST /api/router/offline-grant: the router asks it with the doctor's own session during their
 * online sign-in there (apps/router/src/api/cloud-login.ts), so only the doctor's password can mint
 * one. The token is answered once; only its hash is kept.
 */
export async function mintOfflineGrant(ctx: AppContext, auth: TAuth): Promise<TOfflineReportGrant> {
  if (auth.sessionId === null || !isHybridDoctor(auth.user)) {
    throw new AppError('FORBIDDEN', OFFLINE_REPORT_MESSAGES.authorNotHybrid);
  }
  const grant = randomBytes(32).toString('base64url');
  const expiresAt = new Date(ctx.now().getTime() + OFFLINE_REPORT_GRANT_DAYS * DAY_MS);
  await ctx.db
    .insert(offlineReportGrants)
    .values({ tokenHash: hashOf(grant), userId: auth.user.id, expiresAt });
  return { grant, expiresAt: expiresAt.toISOString() };
}

/** Whether `grant` is a live grant of this user: the author's own word, not the center's. */
export async function holdsOfflineGrant(ctx: AppContext, userId: number, grant: string): Promise<boolean> {
  if (!grant) return false;
  const [found] = await ctx.db
    .select({ userId: offlineReportGrants.userId })
    .from(offlineReportGrants)
    .where(
      and(
        eq(offlineReportGrants.tokenHash, hashOf(grant)),
        eq(offlineReportGrants.userId, userId),
        gt(offlineReportGrants.expiresAt, ctx.now()),
      ),
    );
  return found !== undefined;
}
