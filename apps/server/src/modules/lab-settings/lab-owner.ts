import { type SQL, and, eq } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { LAB_PREFIX_SCOPES } from '../../db/schema.js';
import type { TAuth } from '../../plugins/auth.js';

/**
 * Which lab a lab user works in: their center (every receptionist and supervisor of a center shares
 * one front desk: patients, doctors, tests, bills, numbering), or the group for a lab user without a
 * center. The one home of that rule: every lab query filters by it, so one lab never sees another's rows.
 */
export interface TLabOwner {
  scope: (typeof LAB_PREFIX_SCOPES)[number];
  ownerId: number;
}

export function labOwnerOf(auth: { user: Pick<TAuth['user'], 'centerId' | 'groupId'> }): TLabOwner {
  return auth.user.centerId !== null
    ? { scope: 'CENTER', ownerId: auth.user.centerId }
    : { scope: 'GROUP', ownerId: auth.user.groupId };
}

/** The owner columns a new lab row is written with (schema labOwnerColumns). */
export function labOwnerValues(auth: TAuth): {
  groupId: number;
  labScope: TLabOwner['scope'];
  labOwnerId: number;
} {
  const owner = labOwnerOf(auth);
  return { groupId: auth.user.groupId, labScope: owner.scope, labOwnerId: owner.ownerId };
}

/** `where` for rows of the caller's lab, on a table with the lab owner columns. */
export function inLab(
  table: { groupId: PgColumn; labScope: PgColumn; labOwnerId: PgColumn },
  auth: TAuth,
): SQL {
  const owner = labOwnerOf(auth);
  return and(
    eq(table.groupId, auth.user.groupId),
    eq(table.labScope, owner.scope),
    eq(table.labOwnerId, owner.ownerId),
  ) as SQL;
}
