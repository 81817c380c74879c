import { and, desc, eq, inArray, notInArray, or } from 'drizzle-orm';
import {
  CENTER_SECTIONS,
  GROUP_SECTIONS,
  type TPreferenceScope,
  type TPreferenceSection,
  type TUserPreferences,
  preferenceOwnerOf,
  resolvePreferences,
} from '@radflow/core';
import type { DbOrTx } from '../../db/client.js';
import { preferences, users } from '../../db/schema.js';

const groupSections = [...GROUP_SECTIONS];
const centerSections = [...CENTER_SECTIONS];

/** Whose preferences: the user and where they belong. */
export interface TPreferenceUser {
  id: number;
  groupId: number;
  centerId: number | null;
}

/** The ids of the users of a center, as a subquery. */
const usersOfCenter = (db: DbOrTx, centerId: number) =>
  db.select({ id: users.id }).from(users).where(eq(users.centerId, centerId));

/**
 * A center section saved before center sections existed sits under one of the center's users
 * (scope USER). Until the center saves it again, the newest such row is the center's value.
 */
function legacyCenterRows(db: DbOrTx, centerId: number) {
  return and(
    eq(preferences.scope, 'USER'),
    inArray(preferences.section, centerSections),
    inArray(preferences.ownerId, usersOfCenter(db, centerId)),
  );
}

/**
 * GET /api/user/preference: the group sections from the user's group, the center sections from the
 * user's center (core CENTER_SECTIONS; the user's own when they have no center), the rest from the
 * user, completed with the defaults of packages/core.
 */
export async function loadUserPreferences(db: DbOrTx, user: TPreferenceUser): Promise<TUserPreferences> {
  const rows = await db
    .select({ scope: preferences.scope, section: preferences.section, value: preferences.value })
    .from(preferences)
    .where(
      or(
        and(
          eq(preferences.scope, 'GROUP'),
          eq(preferences.ownerId, user.groupId),
          inArray(preferences.section, groupSections),
        ),
        and(
          eq(preferences.scope, 'USER'),
          eq(preferences.ownerId, user.id),
          notInArray(preferences.section, groupSections),
        ),
        ...(user.centerId === null
          ? []
          : [
              and(
                eq(preferences.scope, 'CENTER'),
                eq(preferences.ownerId, user.centerId),
                inArray(preferences.section, centerSections),
              ),
              legacyCenterRows(db, user.centerId),
            ]),
      ),
    )
    // Newest first, so the first row of a section kept below is the newest of its kind.
    .orderBy(desc(preferences.updatedAt), desc(preferences.id));
  const stored: Partial<Record<TPreferenceSection, unknown>> = {};
  const rank: Partial<Record<TPreferenceSection, number>> = {};
  for (const row of rows) {
    const section = row.section as TPreferenceSection;
    const place = rankOf(section, row.scope, user);
    if (place > (rank[section] ?? -1)) {
      stored[section] = row.value;
      rank[section] = place;
    }
  }
  return resolvePreferences(stored);
}

/** Which stored row of a section wins: the owner's (2) over a legacy row of the center's users (1). */
function rankOf(section: TPreferenceSection, scope: TPreferenceScope, user: TPreferenceUser): number {
  const owner = preferenceOwnerOf(section, user);
  return owner.scope === scope ? 2 : 1;
}

/** The group's own sections only (e.g. whether it audits logins). */
export async function loadGroupPreferences(db: DbOrTx, groupId: number): Promise<TUserPreferences> {
  const rows = await db
    .select({ section: preferences.section, value: preferences.value })
    .from(preferences)
    .where(
      and(
        eq(preferences.scope, 'GROUP'),
        eq(preferences.ownerId, groupId),
        inArray(preferences.section, groupSections),
      ),
    );
  return resolvePreferences(Object.fromEntries(rows.map((r) => [r.section, r.value])));
}

/**
 * The stored value of one section of this user (see loadUserPreferences for where it lives), or
 * undefined when none is stored. `lock` takes the owner's row for update.
 */
export async function readStoredSection(
  db: DbOrTx,
  user: TPreferenceUser,
  section: TPreferenceSection,
  opts: { lock?: boolean } = {},
): Promise<unknown> {
  const owner = preferenceOwnerOf(section, user);
  const query = db
    .select({ value: preferences.value })
    .from(preferences)
    .where(
      and(
        eq(preferences.scope, owner.scope),
        eq(preferences.ownerId, owner.ownerId),
        eq(preferences.section, section),
      ),
    );
  const [row] = await (opts.lock ? query.for('update') : query);
  if (row) return row.value;
  if (owner.scope !== 'CENTER') return undefined;
  const [legacy] = await db
    .select({ value: preferences.value })
    .from(preferences)
    .where(and(legacyCenterRows(db, owner.ownerId), eq(preferences.section, section)))
    .orderBy(desc(preferences.updatedAt), desc(preferences.id))
    .limit(1);
  return legacy?.value;
}

/**
 * Stores one section, replacing what was there. Without a scope: a group section under the group,
 * the rest under the owner id as a user section (the test builders' use).
 */
export async function savePreferenceSection(
  db: DbOrTx,
  opts: {
    ownerId: number;
    section: TPreferenceSection;
    value: unknown;
    updatedBy: string | null;
    scope?: TPreferenceScope;
  },
): Promise<void> {
  const scope = opts.scope ?? (GROUP_SECTIONS.includes(opts.section) ? 'GROUP' : 'USER');
  await db
    .insert(preferences)
    .values({
      scope,
      ownerId: opts.ownerId,
      section: opts.section,
      value: opts.value,
      updatedBy: opts.updatedBy,
    })
    .onConflictDoUpdate({
      target: [preferences.scope, preferences.ownerId, preferences.section],
      set: { value: opts.value, updatedBy: opts.updatedBy, updatedAt: new Date() },
    });
}

/**
 * Deletes this user's stored section; for a center section also the rows the center's users saved
 * before center sections existed, which would otherwise show through again.
 */
export async function deleteStoredSection(
  db: DbOrTx,
  user: TPreferenceUser,
  section: TPreferenceSection,
): Promise<void> {
  const owner = preferenceOwnerOf(section, user);
  const own = and(
    eq(preferences.scope, owner.scope),
    eq(preferences.ownerId, owner.ownerId),
    eq(preferences.section, section),
  );
  await db
    .delete(preferences)
    .where(
      owner.scope === 'CENTER'
        ? or(own, and(legacyCenterRows(db, owner.ownerId), eq(preferences.section, section)))
        : own,
    );
}
