import { randomInt, timingSafeEqual } from 'node:crypto';
import { and, arrayContains, desc, eq, gt, isNull, lt, sql } from 'drizzle-orm';
import {
  AppError,
  OTP_MAX_ATTEMPTS,
  OTP_TTL_SECONDS,
  PRODUCT_NAME,
  SIGN_IN_OTP_MAX_PER_ADDRESS,
} from '@radflow/core';
import type { AppContext } from '../../context.js';
import { type TOtpPurpose, otpCodes, users } from '../../db/schema.js';
import { TooManyRequestsError, describeWait } from '../../errors.js';
import { type TLoginEvent, recordLoginEvent } from './login-events.js';
import { CUSTOMER_LOOKUP_LIMIT, type TRequestLimit, countWithinLimit } from './rate-limit.js';

/** At most this many codes per mobile number within the window (protects the SMS budget and the user). */
export const OTP_MAX_REQUESTS_PER_MOBILE = 5;
export const OTP_REQUEST_WINDOW_SECONDS = 900;

export const MESSAGE_NO_ACCOUNT_FOR_MOBILE = 'No account is registered with this mobile number';

export function otpMessage(code: string): string {
  return `Your ${PRODUCT_NAME} sign-in code is ${code}. It expires in ${OTP_TTL_SECONDS / 60} minutes.`;
}

async function hashCode(ctx: AppContext, mobile: string, code: string): Promise<string> {
  return (await ctx.secrets.hmac('otp', `${mobile}:${code}`)).toString('hex');
}

export interface TRequestContext {
  clientAddress: string;
  deviceId: string | null;
  deviceName: string | null;
}

/**
 * POST /api/user/generate-otp, per client address and per number. Counted before the account is
 * looked up: its 200 or 404 says whether a number has an account, so an address that tries number
 * after number is stopped as the look-up (is-new) stops it.
 */
export const SIGN_IN_OTP_LIMIT: TRequestLimit = {
  eventType: 'SIGN_IN_OTP_REQUEST',
  maxPerAddress: SIGN_IN_OTP_MAX_PER_ADDRESS,
  maxPerNumber: OTP_MAX_REQUESTS_PER_MOBILE,
  locks: { byAddress: 71_005, byNumber: 71_006 },
};

/**
 * POST /api/user/generate-otp: a fresh 6-digit code for the active account of `mobile`; earlier
 * codes die. The code is stored only as a keyed hash and sent through the SMS provider. Limited per
 * address and per number (SIGN_IN_OTP_LIMIT), 429 past that.
 */
export async function generateOtp(
  ctx: AppContext,
  mobile: string,
  req: TRequestContext,
): Promise<{ sent: true; expiresInSeconds: number }> {
  await countWithinLimit(ctx.db, SIGN_IN_OTP_LIMIT, { mobile, ...req, now: ctx.now() }, 'codes requested');
  const [user] = await ctx.db
    .select({ id: users.id, email: users.email })
    .from(users)
    .where(and(eq(users.mobileNumber, mobile), eq(users.active, true)));
  if (!user) throw new AppError('NOT_FOUND', MESSAGE_NO_ACCOUNT_FOR_MOBILE, 'mobile');
  return issueOtp(ctx, {
    mobile,
    purpose: 'SIGN_IN',
    message: otpMessage,
    event: {
      eventType: 'OTP_SENT',
      email: user.email,
      userId: user.id,
      clientAddress: req.clientAddress,
      deviceId: req.deviceId,
      deviceName: req.deviceName,
      detail: `code sent to ${mobile}`,
    },
  });
}

/**
 * A fresh 6-digit code of `purpose` for `mobile`, sent by SMS; the earlier unused codes of that
 * purpose die. At most OTP_MAX_REQUESTS_PER_MOBILE codes of any purpose per number in the window
 * (the SMS budget and the phone's owner do not care what a code is for), else 429. The code is
 * stored only as a keyed hash; `event` is the audit line written with it.
 */
export async function issueOtp(
  ctx: AppContext,
  opts: { mobile: string; purpose: TOtpPurpose; message: (code: string) => string; event: TLoginEvent },
): Promise<{ sent: true; expiresInSeconds: number }> {
  const { mobile, purpose } = opts;
  const now = ctx.now();
  const windowStart = new Date(now.getTime() - OTP_REQUEST_WINDOW_SECONDS * 1000);
  const recent = await ctx.db
    .select({ at: otpCodes.createdAt })
    .from(otpCodes)
    .where(and(eq(otpCodes.mobile, mobile), gt(otpCodes.createdAt, windowStart)))
    .orderBy(desc(otpCodes.createdAt))
    .limit(OTP_MAX_REQUESTS_PER_MOBILE);
  const oldest = recent[OTP_MAX_REQUESTS_PER_MOBILE - 1];
  if (oldest) {
    const wait = Math.max(
      1,
      Math.ceil((oldest.at.getTime() + OTP_REQUEST_WINDOW_SECONDS * 1000 - now.getTime()) / 1000),
    );
    throw new TooManyRequestsError(`Too many codes requested. Please try again ${describeWait(wait)}.`, wait);
  }

  const code = randomInt(0, 1_000_000).toString().padStart(6, '0');
  const codeHash = await hashCode(ctx, mobile, code);
  await ctx.db.transaction(async (tx) => {
    // Housekeeping: codes older than a day serve neither sign-in nor the request limit.
    await tx
      .delete(otpCodes)
      .where(and(eq(otpCodes.mobile, mobile), lt(otpCodes.createdAt, new Date(now.getTime() - 86_400_000))));
    await tx
      .update(otpCodes)
      .set({ consumedAt: now })
      .where(and(eq(otpCodes.mobile, mobile), eq(otpCodes.purpose, purpose), isNull(otpCodes.consumedAt)));
    await tx.insert(otpCodes).values({
      mobile,
      purpose,
      codeHash,
      createdAt: now,
      expiresAt: new Date(now.getTime() + OTP_TTL_SECONDS * 1000),
    });
    await recordLoginEvent(tx, { ...opts.event, createdAt: now });
  });
  await ctx.sms.send({ to: mobile, body: opts.message(code) });
  return { sent: true, expiresInSeconds: OTP_TTL_SECONDS };
}

export type TOtpCheck = 'ok' | 'no-code' | 'wrong-code';

/**
 * Checks and consumes a code: the newest unconsumed, unexpired code of the mobile for `purpose` with fewer than
 * OTP_MAX_ATTEMPTS wrong tries. A wrong code counts a try; the right one is consumed atomically, so
 * it works once even under concurrent requests.
 */
export async function consumeOtp(
  ctx: AppContext,
  mobile: string,
  code: string,
  purpose: TOtpPurpose = 'SIGN_IN',
): Promise<TOtpCheck> {
  const now = ctx.now();
  const [current] = await ctx.db
    .select()
    .from(otpCodes)
    .where(
      and(
        eq(otpCodes.mobile, mobile),
        eq(otpCodes.purpose, purpose),
        isNull(otpCodes.consumedAt),
        gt(otpCodes.expiresAt, now),
        lt(otpCodes.attempts, OTP_MAX_ATTEMPTS),
      ),
    )
    .orderBy(desc(otpCodes.createdAt))
    .limit(1);
  if (!current) return 'no-code';

  const given = Buffer.from(await hashCode(ctx, mobile, code));
  const stored = Buffer.from(current.codeHash);
  if (given.length !== stored.length || !timingSafeEqual(given, stored)) {
    await ctx.db
      .update(otpCodes)
      .set({ attempts: sql`${otpCodes.attempts} + 1` })
      .where(eq(otpCodes.id, current.id));
    return 'wrong-code';
  }
  const consumed = await ctx.db
    .update(otpCodes)
    .set({ consumedAt: now })
    .where(
      and(
        eq(otpCodes.id, current.id),
        isNull(otpCodes.consumedAt),
        lt(otpCodes.attempts, OTP_MAX_ATTEMPTS),
        gt(otpCodes.expiresAt, now),
      ),
    )
    .returning({ id: otpCodes.id });
  return consumed.length > 0 ? 'ok' : 'no-code';
}

/**
 * POST /api/user/customer/is-new: whether no customer account has this mobile number. Only customer
 * accounts count: a staff member's number answers as an unregistered one ({ isNew: true }), so the
 * call reveals no staff number; staff sign in by e-mail or the OTP they already know to ask for.
 * Limited per address and per number (rate-limit.ts CUSTOMER_LOOKUP_LIMIT), 429 past that.
 */
export async function isNewCustomer(ctx: AppContext, mobile: string, req: TRequestContext): Promise<boolean> {
  await countWithinLimit(ctx.db, CUSTOMER_LOOKUP_LIMIT, { mobile, ...req, now: ctx.now() }, 'look-ups');
  const [customer] = await ctx.db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.mobileNumber, mobile), arrayContains(users.roles, ['ROLE_CUSTOMER'])))
    .limit(1);
  return !customer;
}
