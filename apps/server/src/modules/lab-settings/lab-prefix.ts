import { and, eq } from 'drizzle-orm';
import { LAB_PREFIX_DEFAULTS, type TLabPrefix, type TLabPrefixResponse } from '@radflow/core';
import type { AppContext } from '../../context.js';
import type { DbOrTx } from '../../db/client.js';
import { type LAB_PREFIX_SCOPES, labPrefixes } from '../../db/schema.js';
import type { TAuth } from '../../plugins/auth.js';

export interface TLabPrefixOwner {
  scope: (typeof LAB_PREFIX_SCOPES)[number];
  ownerId: number;
}

/**
 * Whose numbering the caller reads and sets: the lab user's center (every receptionist and
 * supervisor of a center numbers bills from one series), or the group for a user without a center.
 */
export function labPrefixOwnerOf(auth: TAuth): TLabPrefixOwner {
  return auth.user.centerId !== null
    ? { scope: 'CENTER', ownerId: auth.user.centerId }
    : { scope: 'GROUP', ownerId: auth.user.groupId };
}

/** GET /lab/get-prefix: the stored four, or empty prefixes and sequences 1. */
export async function loadLabPrefix(db: DbOrTx, owner: TLabPrefixOwner): Promise<TLabPrefixResponse> {
  const [row] = await db
    .select({
      prefix: labPrefixes.prefix,
      sequence: labPrefixes.sequence,
      uhidPrefix: labPrefixes.uhidPrefix,
      uhidSequence: labPrefixes.uhidSequence,
    })
    .from(labPrefixes)
    .where(and(eq(labPrefixes.scope, owner.scope), eq(labPrefixes.ownerId, owner.ownerId)));
  return row ?? { ...LAB_PREFIX_DEFAULTS };
}

/** POST /lab/add-prefix: the four fields (already checked by core ZLabPrefix) replace the stored ones. */
export async function saveLabPrefix(
  ctx: AppContext,
  auth: TAuth,
  input: TLabPrefix,
): Promise<TLabPrefixResponse> {
  const owner = labPrefixOwnerOf(auth);
  const values = { ...input, updatedBy: auth.user.email, updatedAt: ctx.now() };
  await ctx.db
    .insert(labPrefixes)
    .values({ ...owner, ...values })
    .onConflictDoUpdate({ target: [labPrefixes.scope, labPrefixes.ownerId], set: values });
  return loadLabPrefix(ctx.db, owner);
}
