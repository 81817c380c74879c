import { eq } from 'drizzle-orm';
import { type TCurrentUser, type TRole, canAnswerSupport, effectiveRoles, isRole } from '@radflow/core';
import { groups, type TUserRow } from '../../db/schema.js';
import type { AppContext } from '../../context.js';

/** The stored roles that are known roles (a retired role in the database is ignored, not an error). */
export function storedRoles(user: Pick<TUserRow, 'roles'>): TRole[] {
  return user.roles.filter(isRole);
}

/** The roles the user acts with: sorted reverse-alphabetically, or offline-hybrid alone (spec-core §3). */
export function rolesOf(user: Pick<TUserRow, 'roles' | 'hybridModeOn'>): TRole[] {
  return effectiveRoles(storedRoles(user), user.hybridModeOn);
}

/**
 * GET /api/user/ (spec-core §3 Current user). chatUidHash is an HMAC of the e-mail under a server
 * secret; `support` is the deployment's contact (config), the same for every user;
 * `answersSupport` whether the user is the platform's support (core canAnswerSupport).
 */
export async function toCurrentUser(
  ctx: Pick<AppContext, 'secrets' | 'support' | 'db'>,
  user: TUserRow,
): Promise<TCurrentUser> {
  const { secrets } = ctx;
  const roles = rolesOf(user);
  const [group] = await ctx.db
    .select({ operator: groups.platformOperator })
    .from(groups)
    .where(eq(groups.id, user.groupId));
  return {
    email: user.email,
    roles,
    identifier: user.identifier,
    chatUidHash: (await secrets.hmac('chat-uid', user.email)).toString('hex'),
    proxyUrl: user.proxyUrl,
    hybridModeOn: user.hybridModeOn,
    active: user.active,
    centerId: user.centerId,
    support: ctx.support,
    answersSupport: canAnswerSupport(roles, group?.operator ?? false),
  };
}
