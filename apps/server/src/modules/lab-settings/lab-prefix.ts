import { and, eq } from 'drizzle-orm';
import { LAB_PREFIX_DEFAULTS, type TLabPrefix, type TLabPrefixResponse } from '@radflow/core';
import type { AppContext } from '../../context.js';
import type { DbOrTx } from '../../db/client.js';
import { labPrefixes } from '../../db/schema.js';
import type { TAuth } from '../../plugins/auth.js';
import { type TLabOwner, labOwnerOf } from './lab-owner.js';

export type TLabPrefixOwner = TLabOwner;

/** Whose numbering the caller reads and sets: the caller's lab (lab-owner.ts). */
export const labPrefixOwnerOf = labOwnerOf;

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
