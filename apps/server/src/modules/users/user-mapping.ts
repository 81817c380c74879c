import { eq } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { type TRole, getsUserDirectory, isInCenterDirectory, isListedRole } from '@radflow/core';
import type { DbOrTx } from '../../db/client.js';
import { type TUserRow, userMappings, users } from '../../db/schema.js';
import { storedRoles } from '../current-user/current-user.js';

type TMappedUser = { email: string; active: boolean };

/**
 * GET /api/user/mapping (spec-core §3 User mapping): per role, the users of the caller's group the
 * caller may pick (core user-directory.ts, security issue §3). Patients, viewer accounts, referring
 * doctors and auditors pick nobody: an empty mapping. Nobody gets the patients' and viewer
 * accounts' lists. A caller who belongs to a center sees only that center's users plus the group's
 * doctors and referring doctors. Explicit mappings of the caller for a role (e.g. a typist's
 * doctors) replace the default list for that role.
 */
export async function loadUserMapping(
  db: DbOrTx,
  caller: TUserRow,
  callerRoles: readonly TRole[],
): Promise<Record<string, TMappedUser[]>> {
  if (!getsUserDirectory(callerRoles)) return {};
  const groupUsers = await db
    .select({ email: users.email, active: users.active, roles: users.roles, centerId: users.centerId })
    .from(users)
    .where(eq(users.groupId, caller.groupId));
  const callerCenterId = caller.centerId;
  const visible =
    callerCenterId === null
      ? groupUsers
      : groupUsers.filter((u) =>
          isInCenterDirectory({ centerId: u.centerId, roles: storedRoles(u) }, callerCenterId),
        );

  const byRole = new Map<string, TMappedUser[]>();
  const add = (role: string, user: TMappedUser) => {
    const list = byRole.get(role) ?? [];
    list.push(user);
    byRole.set(role, list);
  };
  for (const user of visible)
    for (const role of storedRoles(user)) add(role, { email: user.email, active: user.active });

  const mapped = alias(users, 'mapped');
  const explicit = await db
    .select({ role: userMappings.role, email: mapped.email, active: mapped.active })
    .from(userMappings)
    .innerJoin(mapped, eq(mapped.id, userMappings.mappedUserId))
    .where(eq(userMappings.userId, caller.id));
  const explicitRoles = new Set(explicit.map((e) => e.role));
  for (const role of explicitRoles) byRole.delete(role);
  for (const e of explicit) add(e.role, { email: e.email, active: e.active });

  return Object.fromEntries(
    [...byRole.entries()]
      .filter(([role]) => isListedRole(role))
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([role, list]) => [role, list.sort((a, b) => a.email.localeCompare(b.email))]),
  );
}
