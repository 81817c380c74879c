import { and, eq, gt, isNull } from 'drizzle-orm';
import { AppError, MESSAGE_PASSWORD_LINK_INVALID, type TPasswordLinkInfo } from '@radflow/core';
import type { AppContext } from '../../context.js';
import { passwordLinks, users } from '../../db/schema.js';
import { revokeApiTokensOfUser } from '../credentials/api-token.js';
import { recordLoginEvent } from '../auth/login-events.js';
import { hashPassword, newPasswordProblem } from '../auth/passwords.js';
import { revokeSessions } from '../credentials/sessions.js';
import { recordPeopleChange } from './people-audit.js';
import { dropUnusedLinks, findLiveLink, linkTokenHash } from './password-links.js';

const invalidLink = () => new AppError('BAD_REQUEST', MESSAGE_PASSWORD_LINK_INVALID, 'token');

/** The active user of a live link, or 400 (unknown, used, expired, replaced, or the user deactivated). */
async function liveLinkUser(ctx: AppContext, token: string) {
  const link = await findLiveLink(ctx.db, token, ctx.now());
  if (!link) throw invalidLink();
  const [user] = await ctx.db
    .select()
    .from(users)
    .where(and(eq(users.id, link.userId), eq(users.active, true)));
  if (!user) throw invalidLink();
  return { link, user };
}

/** POST /api/user-create/password-link: whom the link is for (the page greets them; nothing is used up). */
export async function passwordLinkInfo(ctx: AppContext, token: string): Promise<TPasswordLinkInfo> {
  const { link, user } = await liveLinkUser(ctx, token);
  return { email: user.email, identifier: user.identifier, purpose: link.purpose };
}

/**
 * POST /api/user-create/set-password: the password rules of a password change (core password-rules
 * and the common list), then in one transaction: the link used (once: the update only takes an
 * unused link, so two submits at once cannot both pass), the new hash, the user's sessions and API
 * tokens ended (as a password change does), their other links dropped, and the audit lines.
 */
export async function setPasswordByLink(
  ctx: AppContext,
  opts: {
    token: string;
    newPassword: string;
    clientAddress: string;
    deviceId: string | null;
    deviceName: string | null;
  },
): Promise<void> {
  const { link, user } = await liveLinkUser(ctx, opts.token);
  const problem = await newPasswordProblem(opts.newPassword, user);
  if (problem) throw new AppError('BAD_REQUEST', problem, 'newPassword');
  const passwordHash = await hashPassword(opts.newPassword);
  const now = ctx.now();
  await ctx.db.transaction(async (tx) => {
    const [used] = await tx
      .update(passwordLinks)
      .set({ usedAt: now })
      .where(
        and(
          eq(passwordLinks.tokenHash, linkTokenHash(opts.token)),
          isNull(passwordLinks.usedAt),
          gt(passwordLinks.expiresAt, now),
        ),
      )
      .returning({ id: passwordLinks.id });
    if (!used) throw invalidLink();
    await tx.update(users).set({ passwordHash }).where(eq(users.id, user.id));
    await revokeSessions(tx, user.id, null);
    await revokeApiTokensOfUser(tx, user.id);
    await dropUnusedLinks(tx, user.id);
    await recordPeopleChange(tx, {
      groupId: user.groupId,
      action: 'PASSWORD_SET_BY_LINK',
      actor: user,
      targetType: 'USER',
      targetId: user.id,
      detail: { purpose: link.purpose },
      at: now,
    });
    await recordLoginEvent(tx, {
      eventType: 'PASSWORD_CHANGED',
      email: user.email,
      userId: user.id,
      actorEmail: user.email,
      clientAddress: opts.clientAddress,
      deviceId: opts.deviceId,
      deviceName: opts.deviceName,
      detail: link.purpose === 'INVITE' ? 'set through the invitation link' : 'set through a reset link',
      createdAt: now,
    });
  });
}
