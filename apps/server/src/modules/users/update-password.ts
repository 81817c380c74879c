import { eq } from 'drizzle-orm';
import { AppError } from '@radflow/core';
import type { AppContext } from '../../context.js';
import { users } from '../../db/schema.js';
import { revokeApiTokensOfUser } from '../auth/api-token.js';
import { recordLoginEvent } from '../auth/login-events.js';
import { hashPassword, verifyPassword } from '../auth/passwords.js';
import type { TAuth } from '../../plugins/auth.js';
import { revokeSessions } from '../auth/sessions.js';

export const MESSAGE_WRONG_CURRENT_PASSWORD = 'Current password is incorrect';

/**
 * POST /api/user-create/update-password: checks the current password, stores the new hash, ends the
 * user's other sessions and revokes their API tokens, in one transaction with
 * the PASSWORD_CHANGED audit line.
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
  if (!(await verifyPassword(auth.user.passwordHash, opts.currentPassword))) {
    throw new AppError('BAD_REQUEST', MESSAGE_WRONG_CURRENT_PASSWORD, 'currentPassword');
  }
  const passwordHash = await hashPassword(opts.newPassword);
  await ctx.db.transaction(async (tx) => {
    await tx.update(users).set({ passwordHash }).where(eq(users.id, auth.user.id));
    await revokeSessions(tx, auth.user.id, auth.sessionId);
    await revokeApiTokensOfUser(tx, auth.user.id);
    await recordLoginEvent(tx, {
      eventType: 'PASSWORD_CHANGED',
      email: auth.user.email,
      userId: auth.user.id,
      actorEmail: auth.user.email,
      clientAddress: opts.clientAddress,
      deviceId: opts.deviceId,
      deviceName: opts.deviceName,
      createdAt: ctx.now(),
    });
  });
}
