import { eq } from 'drizzle-orm';
import { AppError, MESSAGES, OTP_PATTERN, isMobileNumber } from '@radflow/core';
import type { AppContext } from '../../context.js';
import { type TUserRow, users } from '../../db/schema.js';
import { recordDeviceSignIn, requiresDeviceApproval } from '../device-approval/device-sign-in.js';
import { loadGroupPreferences } from '../preferences/preferences.js';
import { rolesOf } from '../current-user/current-user.js';
import { type TLoginEventType, recordLoginEvent } from './login-events.js';
import { consumeOtp } from './otp.js';
import { verifyAgainstDummy, verifyPassword } from './passwords.js';
import { signInRetryAfterSeconds, tooManyAttempts } from './rate-limit.js';
import { createSession, deleteExpiredSessions, deleteSessionByToken } from '../credentials/sessions.js';

export const MESSAGE_INVALID_CREDENTIALS = 'Invalid credentials';

export interface TSignInInput {
  /** Already trimmed and lower-cased (core ZLoginForm): an e-mail or a mobile number. */
  identifier: string;
  /** The password, or the one-time code for a mobile number. */
  password: string;
  deviceId: string | null;
  deviceName: string | null;
  clientAddress: string;
  /** The session token of a cookie the client sent, ended by the rotation. */
  previousToken: string | null;
}

/**
 * POST /api/do-login (spec-core §2, §4; issue 2 §3). In order: the rate limit, the credentials
 * (argon2id password, or a one-time code for a mobile number), the device approval, then a fresh
 * session. Every outcome is one line of the audit log.
 */
export async function signIn(
  ctx: AppContext,
  input: TSignInInput,
): Promise<{ user: TUserRow; token: string }> {
  const now = ctx.now();
  const isMobile = isMobileNumber(input.identifier);
  const [user] = await ctx.db
    .select()
    .from(users)
    .where(isMobile ? eq(users.mobileNumber, input.identifier) : eq(users.email, input.identifier));
  const event = (eventType: TLoginEventType, detail: string | null, forUser = user) =>
    recordLoginEvent(ctx.db, {
      eventType,
      email: forUser ? forUser.email : input.identifier,
      userId: forUser?.id ?? null,
      deviceId: input.deviceId,
      deviceName: input.deviceName,
      clientAddress: input.clientAddress,
      detail,
      createdAt: now,
    });

  const wait = await signInRetryAfterSeconds(ctx.db, {
    identifier: input.identifier,
    userId: user?.id ?? null,
    clientAddress: input.clientAddress,
    deviceId: input.deviceId,
    now,
  });
  if (wait > 0) {
    await event('LOGIN_RATE_LIMITED', `retry after ${wait}s`);
    throw tooManyAttempts(wait);
  }

  const failure = async (eventType: 'LOGIN_FAILED' | 'OTP_FAILED', detail: string): Promise<never> => {
    // Failures are logged under the identifier as typed, so the per-identifier limit sees them.
    await recordLoginEvent(ctx.db, {
      eventType,
      email: input.identifier,
      userId: user?.id ?? null,
      deviceId: input.deviceId,
      deviceName: input.deviceName,
      clientAddress: input.clientAddress,
      detail,
      createdAt: now,
    });
    throw new AppError('UNAUTHORIZED', MESSAGE_INVALID_CREDENTIALS);
  };

  if (isMobile) {
    if (!OTP_PATTERN.test(input.password)) return failure('OTP_FAILED', 'not a 6-digit code');
    if (!user) return failure('OTP_FAILED', 'unknown mobile number');
    const check = await consumeOtp(ctx, input.identifier, input.password);
    if (check !== 'ok') return failure('OTP_FAILED', check === 'no-code' ? 'no valid code' : 'wrong code');
  } else {
    if (!user) {
      await verifyAgainstDummy(input.password);
      return failure('LOGIN_FAILED', 'unknown account');
    }
    if (!(await verifyPassword(user.passwordHash, input.password)))
      return failure('LOGIN_FAILED', 'wrong password');
  }
  if (!user.active) return failure('LOGIN_FAILED', 'inactive account');

  const roles = rolesOf(user);
  if (requiresDeviceApproval(await loadGroupPreferences(ctx.db, user.groupId), roles)) {
    if (!input.deviceId)
      throw new AppError('BAD_REQUEST', 'The X-Device-Id header is required', 'x-device-id');
    const status = await recordDeviceSignIn(ctx.db, {
      userId: user.id,
      deviceId: input.deviceId,
      deviceName: input.deviceName ?? '',
      now,
    });
    if (status !== 'APPROVED') {
      await event(status === 'REJECTED' ? 'LOGIN_DEVICE_REJECTED' : 'LOGIN_DEVICE_PENDING', null);
      throw new AppError('INVALID_DEVICE_ID', MESSAGES.loginNeedsApproval);
    }
  }

  const token = await ctx.db.transaction(async (tx) => {
    if (input.previousToken) await deleteSessionByToken(tx, input.previousToken);
    await deleteExpiredSessions(tx, user.id, now);
    const session = await createSession(tx, { userId: user.id, deviceId: input.deviceId, now });
    await recordLoginEvent(tx, {
      eventType: 'LOGIN_SUCCESS',
      email: user.email,
      userId: user.id,
      deviceId: input.deviceId,
      deviceName: input.deviceName,
      clientAddress: input.clientAddress,
      detail: isMobile ? 'one-time code' : 'password',
      createdAt: now,
    });
    return session.token;
  });
  return { user, token };
}
