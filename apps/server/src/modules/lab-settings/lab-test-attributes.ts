import { and, eq } from 'drizzle-orm';
import {
  AppError,
  type TLabTestAttributesStored,
  type TTestAttributeDefinition,
  ZLabTestAttributesData,
} from '@radflow/core';
import type { AppContext } from '../../context.js';
import type { DbOrTx } from '../../db/client.js';
import { labTestAttributeSettings } from '../../db/schema.js';
import type { TAuth } from '../../plugins/auth.js';
import { type TLabOwner, labOwnerOf, labOwnerValues } from './lab-owner.js';
import { recordLabAudit } from './lab-audit.js';

export const ATTRIBUTES_STALE = 'The test attributes were changed by someone else: reload them and try again';

/**
 * LAB_TEST_ATTRIBUTES of a lab: the stored definitions and their version (0 when none is stored).
 * A stored list that no longer parses (an older shape) reads as empty rather than breaking the bill.
 */
export async function loadTestAttributes(db: DbOrTx, owner: TLabOwner): Promise<TLabTestAttributesStored> {
  const [row] = await db
    .select({ data: labTestAttributeSettings.data, version: labTestAttributeSettings.version })
    .from(labTestAttributeSettings)
    .where(
      and(
        eq(labTestAttributeSettings.labScope, owner.scope),
        eq(labTestAttributeSettings.labOwnerId, owner.ownerId),
      ),
    );
  if (!row) return { data: [], version: 0 };
  const parsed = ZLabTestAttributesData.safeParse({ data: row.data });
  return { data: parsed.success ? parsed.data.data : [], version: row.version };
}

/**
 * PUT /api/lab/test-attributes (supervisor): the whole list replaces the stored one when `version`
 * is the stored version (0: none stored yet), else 409; with its audit row, in one transaction.
 */
export async function saveTestAttributes(
  ctx: AppContext,
  auth: TAuth,
  input: { data: TTestAttributeDefinition[]; version: number },
): Promise<TLabTestAttributesStored> {
  const owner = labOwnerOf(auth);
  return ctx.db.transaction(async (tx) => {
    const [current] = await tx
      .select({ id: labTestAttributeSettings.id, version: labTestAttributeSettings.version })
      .from(labTestAttributeSettings)
      .where(
        and(
          eq(labTestAttributeSettings.labScope, owner.scope),
          eq(labTestAttributeSettings.labOwnerId, owner.ownerId),
        ),
      )
      .for('update');
    if ((current?.version ?? 0) !== input.version)
      throw new AppError('CONFLICT', ATTRIBUTES_STALE, 'version');
    let id: number;
    let version: number;
    if (current) {
      version = current.version + 1;
      id = current.id;
      await tx
        .update(labTestAttributeSettings)
        .set({ data: input.data, version, updatedBy: auth.user.email, updatedAt: ctx.now() })
        .where(eq(labTestAttributeSettings.id, current.id));
    } else {
      // Two first saves at once: the unique index keeps one; the other finds nothing inserted.
      const [row] = await tx
        .insert(labTestAttributeSettings)
        .values({
          ...labOwnerValues(auth),
          data: input.data,
          updatedBy: auth.user.email,
          updatedAt: ctx.now(),
        })
        .onConflictDoNothing()
        .returning({ id: labTestAttributeSettings.id, version: labTestAttributeSettings.version });
      if (!row) throw new AppError('CONFLICT', ATTRIBUTES_STALE, 'version');
      ({ id, version } = row);
    }
    await recordLabAudit(tx, auth, {
      entity: 'LAB_TEST_ATTRIBUTES',
      entityId: id,
      action: 'UPDATE',
      detail: { data: input.data },
    });
    return { data: input.data, version };
  });
}
