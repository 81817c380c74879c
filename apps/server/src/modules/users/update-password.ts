import { eq } from 'drizzle-orm';
import { AppError } from '@radflow/core';
import type { AppContext } from '../../context.js';
import { users } from '../../db/schema.js';
import { revokeApiTokensOfUser } from '../credentials/api-token.js';
import { recordLoginEvent } from '../auth/login-events.js';
import { hashPassword, newPasswordProblem, verifyPassword } from '../auth/passwords.js';
import { signInRetryAfterSeconds, tooManyAttempts } from '../auth/rate-limit.js';
import type { TAuth } from '../../plugins/auth.js';
import { revokeSessions } from '../credentials/sessions.js';

export const MESSAGE_WRONG_CURRENT_PASSWORD = 'Current password is incorrect';

/**
 * POST /api/user-create/update-password: the sign-in throttle first (a stolen session must not guess
 * the password at full speed; a wrong current password is a PASSWORD_CHANGE_FAILED line that counts
 * towards it), then the current password, the rules for the new one (NIST 800-63B: core
 * passwordProblem and the common list), then the new hash, the user's other sessions ended and their
 * API tokens revoked, in one transaction with the PASSWORD_CHANGED audit line.
 */
export async function updatePassword(
  ctx: AppContext,
  auth: TAuth,
  opts: {
    currentPassword: string;
    newPassword: string;
    clientAddress: string;
    deviceId: string | null;
    deviceName: string | null;
  },
): Promise<void> {
  const now = ctx.now();
  const audit = {
    email: auth.user.email,
    userId: auth.user.id,
    actorEmail: auth.user.email,
    clientAddress: opts.clientAddress,
    deviceId: opts.deviceId,
    deviceName: opts.deviceName,
    createdAt: now,
  };
  const wait = await signInRetryAfterSeconds(ctx.db, {
    identifier: auth.user.email,
    userId: auth.user.id,
    clientAddress: opts.clientAddress,
    deviceId: opts.deviceId,
    now,
  });
  if (wait > 0) throw tooManyAttempts(wait);
  if (!(await verifyPassword(auth.user.passwordHash, opts.currentPassword))) {
    await recordLoginEvent(ctx.db, {
      ...audit,
      eventType: 'PASSWORD_CHANGE_FAILED',
      detail: 'wrong password',
    });
    throw new AppError('BAD_REQUEST', MESSAGE_WRONG_CURRENT_PASSWORD, 'currentPassword');
  }
  const problem = await newPasswordProblem(opts.newPassword, auth.user);
  if (problem) throw new AppError('BAD_REQUEST', problem, 'newPassword');

  const passwordHash = await hashPassword(opts.newPassword);
  await ctx.db.transaction(async (tx) => {
    await tx.update(users).set({ passwordHash }).where(eq(users.id, auth.user.id));
    await revokeSessions(tx, auth.user.id, auth.sessionId);
    await revokeApiTokensOfUser(tx, auth.user.id);
    await recordLoginEvent(tx, { ...audit, eventType: 'PASSWORD_CHANGED' });
  });
}
