import { type TCurrentUser, type TRole, effectiveRoles, isRole } from '@radflow/core';
import type { TUserRow } from '../../db/schema.js';
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
 * secret; `support` is the deployment's contact (config), the same for every user.
 */
export async function toCurrentUser(
  ctx: Pick<AppContext, 'secrets' | 'support'>,
  user: TUserRow,
): Promise<TCurrentUser> {
  const { secrets } = ctx;
  return {
    email: user.email,
    roles: rolesOf(user),
    identifier: user.identifier,
    chatUidHash: (await secrets.hmac('chat-uid', user.email)).toString('hex'),
    proxyUrl: user.proxyUrl,
    hybridModeOn: user.hybridModeOn,
    active: user.active,
    centerId: user.centerId,
    support: ctx.support,
  };
}
