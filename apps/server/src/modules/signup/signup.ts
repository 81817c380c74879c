import { eq, or } from 'drizzle-orm';
import {
  AppError,
  OTP_TTL_SECONDS,
  PRODUCT_NAME,
  SIGNUP_OTP_MAX_PER_ADDRESS,
  type TRole,
  type TSignupResponse,
  type ZSignupRequest,
} from '@radflow/core';
import type { z } from 'zod';
import type { AppContext } from '../../context.js';
import type { DbOrTx } from '../../db/client.js';
import { groups, users } from '../../db/schema.js';
import { recordLoginEvent } from '../auth/login-events.js';
import { OTP_MAX_REQUESTS_PER_MOBILE, type TRequestContext, consumeOtp, issueOtp } from '../auth/otp.js';
import { hashPassword, newPasswordProblem } from '../auth/passwords.js';
import {
  type TRequestLimit,
  countWithinLimit,
  signInRetryAfterSeconds,
  tooManyAttempts,
} from '../auth/rate-limit.js';
import { createSession, deleteSessionByToken } from '../credentials/sessions.js';
import { isUniqueViolation } from '../../db/unique-violation.js';
import { recordPeopleChange } from '../people/people-audit.js';
import { startTrial } from '../platform-billing/subscriptions.js';

/*
 * A new group signs itself up (issue 26 §4 /signup; modules/signup/DECISIONS.md): a sign-up code to
 * the mobile, then the group and its first admin in one transaction, signed in.
 */

export const MESSAGE_MOBILE_ALREADY_REGISTERED =
  'This mobile number is already registered. Please sign in instead.';
export const MESSAGE_EMAIL_ALREADY_REGISTERED =
  'An account with this e-mail already exists. Please sign in, or use another e-mail.';
export const MESSAGE_SIGNUP_CODE_WRONG = 'The code is not correct';
export const MESSAGE_SIGNUP_CODE_NONE = 'The code has expired or was already used. Request a new code.';

/** The roles of a group's owner: ROLE_GROUP runs the group (settings, people, audit), ROLE_ADMIN its studies. */
export const GROUP_OWNER_ROLES: readonly TRole[] = ['ROLE_GROUP', 'ROLE_ADMIN'];
/** Where the new owner lands: the admin study list, whose empty state carries the getting-started card. */
export const SIGNUP_LANDING_PATH = '/';

/** POST /api/signup/otp: per address and per number (the per-number OTP limit holds besides). */
export const SIGNUP_OTP_LIMIT: TRequestLimit = {
  eventType: 'SIGNUP_OTP_REQUEST',
  maxPerAddress: SIGNUP_OTP_MAX_PER_ADDRESS,
  maxPerNumber: OTP_MAX_REQUESTS_PER_MOBILE,
  locks: { byAddress: 71_003, byNumber: 71_004 },
};

export function signupOtpMessage(code: string): string {
  return `Your ${PRODUCT_NAME} sign-up code is ${code}. It expires in ${OTP_TTL_SECONDS / 60} minutes.`;
}

/**
 * POST /api/signup/otp: a sign-up code by SMS to any mobile number, registered or not, with the same
 * answer either way, so the call tells nobody which numbers have an account; a registered number
 * learns "sign in instead" only at POST /api/signup, after its code proved the phone is theirs.
 * Limited per client address (SIGNUP_OTP_LIMIT) and per number (every code counts), else 429.
 */
export async function requestSignupOtp(
  ctx: AppContext,
  mobile: string,
  req: TRequestContext,
): Promise<{ sent: true; expiresInSeconds: number }> {
  await countWithinLimit(ctx.db, SIGNUP_OTP_LIMIT, { mobile, ...req, now: ctx.now() }, 'codes requested');
  return issueOtp(ctx, {
    mobile,
    purpose: 'SIGN_UP',
    message: signupOtpMessage,
    event: {
      eventType: 'OTP_SENT',
      email: mobile,
      clientAddress: req.clientAddress,
      deviceId: req.deviceId,
      deviceName: req.deviceName,
      detail: `sign-up code sent to ${mobile}`,
    },
  });
}

/**
 * The one place a new group's other records start, called inside the sign-up transaction once the
 * group exists: its trial plan (platform-billing startTrial: the TRIAL plan for its trial days).
 */
export async function afterGroupCreated(
  tx: DbOrTx,
  groupId: number,
  now: Date,
  actorEmail: string,
): Promise<void> {
  await startTrial(tx, groupId, now, actorEmail);
}

export type TSignupInput = z.infer<typeof ZSignupRequest>;

/**
 * POST /api/signup. In order: the password rules (400), the sign-in throttle on the number and the
 * address (429; wrong codes count as OTP_FAILED), the sign-up code (400, consumed: one code, one
 * attempt at an account), then one transaction: the mobile and e-mail free (409), the group, its
 * owner (GROUP_OWNER_ROLES, the password hashed), the people-audit and sign-in lines, the group's
 * afterGroupCreated records (its trial) and a session. Returns the session token for the cookie.
 */
export async function signUp(
  ctx: AppContext,
  input: TSignupInput,
  req: TRequestContext & { previousToken: string | null },
): Promise<TSignupResponse & { token: string }> {
  const now = ctx.now();
  const problem = await newPasswordProblem(input.password, {
    email: input.email,
    identifier: input.adminName,
  });
  if (problem) throw new AppError('BAD_REQUEST', problem, 'password');

  const wait = await signInRetryAfterSeconds(ctx.db, {
    identifier: input.mobile,
    userId: null,
    clientAddress: req.clientAddress,
    deviceId: req.deviceId,
    now,
  });
  if (wait > 0) throw tooManyAttempts(wait);

  const check = await consumeOtp(ctx, input.mobile, input.otp, 'SIGN_UP');
  if (check !== 'ok') {
    await recordLoginEvent(ctx.db, {
      eventType: 'OTP_FAILED',
      email: input.mobile,
      clientAddress: req.clientAddress,
      deviceId: req.deviceId,
      deviceName: req.deviceName,
      detail: check === 'no-code' ? 'sign-up: no valid code' : 'sign-up: wrong code',
      createdAt: now,
    });
    throw new AppError(
      'BAD_REQUEST',
      check === 'no-code' ? MESSAGE_SIGNUP_CODE_NONE : MESSAGE_SIGNUP_CODE_WRONG,
      'otp',
    );
  }

  const passwordHash = await hashPassword(input.password);
  const conflict = async (db: DbOrTx): Promise<AppError | null> => {
    const taken = await db
      .select({ email: users.email, mobile: users.mobileNumber })
      .from(users)
      .where(or(eq(users.mobileNumber, input.mobile), eq(users.email, input.email)));
    if (taken.some((u) => u.mobile === input.mobile))
      return new AppError('CONFLICT', MESSAGE_MOBILE_ALREADY_REGISTERED, 'mobile');
    if (taken.length > 0) return new AppError('CONFLICT', MESSAGE_EMAIL_ALREADY_REGISTERED, 'email');
    return null;
  };
  try {
    return await ctx.db.transaction(async (tx) => {
      const refused = await conflict(tx);
      if (refused) throw refused;
      const [group] = await tx.insert(groups).values({ name: input.groupName, createdAt: now }).returning();
      if (!group) throw new Error('sign-up: group not created');
      const [owner] = await tx
        .insert(users)
        .values({
          email: input.email,
          mobileNumber: input.mobile,
          passwordHash,
          roles: [...GROUP_OWNER_ROLES],
          groupId: group.id,
          identifier: input.adminName,
          createdAt: now,
        })
        .returning({ id: users.id, email: users.email });
      if (!owner) throw new Error('sign-up: owner not created');
      await recordPeopleChange(tx, {
        groupId: group.id,
        action: 'GROUP_SIGNED_UP',
        actor: owner,
        targetType: 'USER',
        targetId: owner.id,
        detail: {
          groupName: group.name,
          email: owner.email,
          mobileNumber: input.mobile,
          identifier: input.adminName,
          roles: [...GROUP_OWNER_ROLES],
        },
        at: now,
      });
      await afterGroupCreated(tx, group.id, now, owner.email);

      if (req.previousToken) await deleteSessionByToken(tx, req.previousToken);
      const session = await createSession(tx, { userId: owner.id, deviceId: req.deviceId, now });
      const line = {
        email: owner.email,
        userId: owner.id,
        clientAddress: req.clientAddress,
        deviceId: req.deviceId,
        deviceName: req.deviceName,
        createdAt: now,
      };
      await recordLoginEvent(tx, { ...line, eventType: 'SIGNED_UP', detail: `group ${group.id}` });
      await recordLoginEvent(tx, { ...line, eventType: 'LOGIN_SUCCESS', detail: 'sign-up' });
      return {
        groupId: group.id,
        email: owner.email,
        redirectTo: SIGNUP_LANDING_PATH,
        token: session.token,
      };
    });
  } catch (error) {
    // Two sign-ups of one mobile or e-mail at once: the unique index stops the second.
    if (isUniqueViolation(error)) throw (await conflict(ctx.db)) ?? error;
    throw error;
  }
}
