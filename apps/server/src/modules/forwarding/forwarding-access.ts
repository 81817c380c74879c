import { and, eq } from 'drizzle-orm';
import { AppError, FORWARDING_MESSAGES, type TStudyScope, canManageForwardingPacs } from '@radflow/core';
import type { DbOrTx } from '../../db/client.js';
import { centers } from '../../db/schema.js';
import type { TAuth } from '../../plugins/auth.js';
import { scopeOfAuth } from '../studies/study-access.js';
import { loadGroupPreferences } from '../preferences/preferences.js';

/** The study scope of the caller (the rule is core's `studyScopeOf`). */
export function scopeOf(auth: TAuth): TStudyScope {
  return scopeOfAuth(auth);
}

/** spec-core §3 group switch addForwardingPacsFeature: off → 403 with a message that says so. */
export async function assertForwardingEnabled(db: DbOrTx, groupId: number): Promise<void> {
  const prefs = await loadGroupPreferences(db, groupId);
  if (!prefs.GROUP_SWITCHES.addForwardingPacsFeature) {
    throw new AppError('FORBIDDEN', FORWARDING_MESSAGES.featureDisabled);
  }
}

/**
 * The center whose PACS list a request is about: a center user's own center (whatever is asked),
 * otherwise the named center, which must be in the caller's group (else 404, so other groups'
 * centers do not show). Group staff must name one.
 */
export async function resolveCenterId(
  db: DbOrTx,
  auth: TAuth,
  requested: number | undefined,
): Promise<number> {
  if (auth.user.centerId !== null) return auth.user.centerId;
  if (requested === undefined) throw new AppError('BAD_REQUEST', 'Please select a center', 'centerId');
  const [center] = await db
    .select({ id: centers.id })
    .from(centers)
    .where(and(eq(centers.id, requested), eq(centers.groupId, auth.user.groupId)));
  if (!center) throw new AppError('NOT_FOUND', 'Center not found');
  return center.id;
}

/** Changing a list: center users for their center, the group's admins for its centers. */
export function assertMayManagePacs(auth: TAuth): void {
  if (!canManageForwardingPacs(auth.roles)) throw new AppError('FORBIDDEN', 'You are not allowed to do this');
}
