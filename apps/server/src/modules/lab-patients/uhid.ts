import { and, eq } from 'drizzle-orm';
import { LAB_PREFIX_DEFAULTS } from '@radflow/core';
import type { Tx } from '../../db/client.js';
import { labPatients, labPrefixes } from '../../db/schema.js';
import type { TAuth } from '../../plugins/auth.js';
import { labOwnerOf } from '../lab-settings/lab-owner.js';

/**
 * The next UHID of the caller's lab (spec-lab §3 lab prefix: uhidPrefix + uhidSequence), taken in
 * the caller's transaction: the prefix row is created with the defaults when the lab has none, then
 * locked (FOR UPDATE) until the patient insert commits, so patients registered at the same moment
 * queue here and get consecutive numbers, never the same one; a rolled-back registration gives its
 * number back with the rest of its transaction (no gap).
 */
export async function takeNextUhid(tx: Tx, auth: TAuth): Promise<string> {
  const owner = labOwnerOf(auth);
  const ofOwner = and(eq(labPrefixes.scope, owner.scope), eq(labPrefixes.ownerId, owner.ownerId));
  await tx
    .insert(labPrefixes)
    .values({
      scope: owner.scope,
      ownerId: owner.ownerId,
      ...LAB_PREFIX_DEFAULTS,
      updatedBy: auth.user.email,
    })
    .onConflictDoNothing({ target: [labPrefixes.scope, labPrefixes.ownerId] });
  const [row] = await tx
    .select({
      id: labPrefixes.id,
      uhidPrefix: labPrefixes.uhidPrefix,
      uhidSequence: labPrefixes.uhidSequence,
    })
    .from(labPrefixes)
    .where(ofOwner)
    .for('update');
  if (!row) throw new Error('lab prefix row missing after insert');
  // A supervisor may set the sequence back below numbers already given (add-prefix takes any
  // value): skip the UHIDs the lab already has rather than fail on the unique index.
  let sequence = row.uhidSequence;
  for (;;) {
    const [taken] = await tx
      .select({ id: labPatients.id })
      .from(labPatients)
      .where(
        and(
          eq(labPatients.labScope, owner.scope),
          eq(labPatients.labOwnerId, owner.ownerId),
          eq(labPatients.uhidNumber, `${row.uhidPrefix}${sequence}`),
        ),
      )
      .limit(1);
    if (!taken) break;
    sequence += 1;
  }
  await tx
    .update(labPrefixes)
    .set({ uhidSequence: sequence + 1 })
    .where(eq(labPrefixes.id, row.id));
  return `${row.uhidPrefix}${sequence}`;
}
