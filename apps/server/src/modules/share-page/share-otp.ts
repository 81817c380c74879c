import { randomInt, timingSafeEqual } from 'node:crypto';
import { and, desc, eq, gt, isNull, lt, sql } from 'drizzle-orm';
import {
  AppError,
  PRODUCT_NAME,
  SHARE_MESSAGES,
  SHARE_OTP_MAX_ATTEMPTS,
  SHARE_OTP_MAX_REQUESTS,
  SHARE_OTP_REQUEST_WINDOW_SECONDS,
  SHARE_OTP_TTL_SECONDS,
  type TShareCodeSent,
  maskMobile,
} from '@radflow/core';
import type { AppContext } from '../../context.js';
import { shareLinkOtps } from '../../db/schema.js';
import { TooManyRequestsError, describeWait } from '../../errors.js';
import { type TShareAccess, codeRequiredError } from './share-access.js';

/*
 * Codes that open a share link (issue 7 §5 "optionally behind an OTP to the patient's mobile"). The
 * pieces of sign-in codes (auth/otp.ts) applied per link: 6 digits, only a keyed hash kept, 5
 * minutes, single use, 5 wrong tries kill a code, a new code kills the old ones, at most 5 codes per
 * link in 15 minutes. The code goes to the row's mobile_number only: the caller never names a number.
 */

async function hashCode(ctx: AppContext, reportStatusId: number, mobile: string, code: string) {
  // The 'otp' secret, separated from sign-in codes by the prefix.
  return (await ctx.secrets.hmac('otp', `share:${reportStatusId}:${mobile}:${code}`)).toString('hex');
}

export function shareCodeMessage(code: string): string {
  return `Your ${PRODUCT_NAME} code to open the shared report is ${code}. It expires in ${SHARE_OTP_TTL_SECONDS / 60} minutes.`;
}

/** POST /api/share/{link}/code: a fresh code by SMS to the patient's mobile. */
export async function sendShareCode(ctx: AppContext, access: TShareAccess): Promise<TShareCodeSent> {
  const { row } = access;
  if (!access.flags.requireOtpForSharedReport) {
    throw new AppError('CONFLICT', 'This link opens without a code');
  }
  const mobile = row.mobileNumber;
  if (!mobile) throw codeRequiredError(row);
  const now = ctx.now();
  const windowStart = new Date(now.getTime() - SHARE_OTP_REQUEST_WINDOW_SECONDS * 1000);
  const recent = await ctx.db
    .select({ at: shareLinkOtps.createdAt })
    .from(shareLinkOtps)
    .where(and(eq(shareLinkOtps.reportStatusId, row.id), gt(shareLinkOtps.createdAt, windowStart)))
    .orderBy(desc(shareLinkOtps.createdAt))
    .limit(SHARE_OTP_MAX_REQUESTS);
  const oldest = recent[SHARE_OTP_MAX_REQUESTS - 1];
  if (oldest) {
    const wait = Math.max(
      1,
      Math.ceil((oldest.at.getTime() + SHARE_OTP_REQUEST_WINDOW_SECONDS * 1000 - now.getTime()) / 1000),
    );
    throw new TooManyRequestsError(`Too many codes requested. Please try again ${describeWait(wait)}.`, wait);
  }
  const code = randomInt(0, 1_000_000).toString().padStart(6, '0');
  const codeHash = await hashCode(ctx, row.id, mobile, code);
  await ctx.db.transaction(async (tx) => {
    // Codes older than a day serve neither the page nor the request limit.
    await tx
      .delete(shareLinkOtps)
      .where(
        and(
          eq(shareLinkOtps.reportStatusId, row.id),
          lt(shareLinkOtps.createdAt, new Date(now.getTime() - 86_400_000)),
        ),
      );
    await tx
      .update(shareLinkOtps)
      .set({ consumedAt: now })
      .where(and(eq(shareLinkOtps.reportStatusId, row.id), isNull(shareLinkOtps.consumedAt)));
    await tx.insert(shareLinkOtps).values({
      reportStatusId: row.id,
      mobile,
      codeHash,
      createdAt: now,
      expiresAt: new Date(now.getTime() + SHARE_OTP_TTL_SECONDS * 1000),
    });
  });
  await ctx.sms.send({ to: mobile, body: shareCodeMessage(code) });
  return { mobile: maskMobile(mobile), expiresInSeconds: SHARE_OTP_TTL_SECONDS };
}

/**
 * POST /api/share/{link}/verify: the newest live code of the link, checked against the row's mobile
 * as it is now (a changed number kills codes sent to the old one). A wrong code counts a try (401
 * 'The code is not correct'); the right one is consumed by one conditional update, so it works once
 * even under concurrent requests; none left → 401 'The code has expired or was used…'.
 */
export async function verifyShareCode(ctx: AppContext, access: TShareAccess, code: string): Promise<void> {
  const { row } = access;
  if (!row.mobileNumber) throw codeRequiredError(row);
  const now = ctx.now();
  const live = and(
    eq(shareLinkOtps.reportStatusId, row.id),
    eq(shareLinkOtps.mobile, row.mobileNumber),
    isNull(shareLinkOtps.consumedAt),
    gt(shareLinkOtps.expiresAt, now),
    lt(shareLinkOtps.attempts, SHARE_OTP_MAX_ATTEMPTS),
  );
  const [current] = await ctx.db
    .select()
    .from(shareLinkOtps)
    .where(live)
    .orderBy(desc(shareLinkOtps.createdAt))
    .limit(1);
  if (!current) throw new AppError('UNAUTHORIZED', SHARE_MESSAGES.codeGone, 'code');
  const given = Buffer.from(await hashCode(ctx, row.id, row.mobileNumber, code));
  const stored = Buffer.from(current.codeHash);
  if (given.length !== stored.length || !timingSafeEqual(given, stored)) {
    await ctx.db
      .update(shareLinkOtps)
      .set({ attempts: sql`${shareLinkOtps.attempts} + 1` })
      .where(eq(shareLinkOtps.id, current.id));
    throw new AppError('UNAUTHORIZED', SHARE_MESSAGES.codeWrong, 'code');
  }
  const consumed = await ctx.db
    .update(shareLinkOtps)
    .set({ consumedAt: now })
    .where(and(eq(shareLinkOtps.id, current.id), live))
    .returning({ id: shareLinkOtps.id });
  if (consumed.length === 0) throw new AppError('UNAUTHORIZED', SHARE_MESSAGES.codeGone, 'code');
}
