import { and, eq, inArray, notInArray, or } from 'drizzle-orm';
import { z } from 'zod';
import {
  AppError,
  GROUP_SECTIONS,
  PREFERENCE_SECTIONS,
  SETTING_UPDATE_SECTIONS,
  type TLabDepartmentsSetting,
  type TLabSlotsSetting,
  newSlotName,
  type TPreferenceSection,
  SETTINGS_MESSAGES,
  removedDepartment,
  type TUserPreferences,
  resolvePreferences,
} from '@radflow/core';
import type { Db, DbOrTx } from '../../db/client.js';
import { preferences } from '../../db/schema.js';

const groupSections = [...GROUP_SECTIONS];

/**
 * GET /api/user/preference: the group sections from the user's group, the rest from the user,
 * completed with the defaults of packages/core.
 */
export async function loadUserPreferences(
  db: DbOrTx,
  user: { id: number; groupId: number },
): Promise<TUserPreferences> {
  const rows = await db
    .select({ section: preferences.section, value: preferences.value })
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
      ),
    );
  return resolvePreferences(Object.fromEntries(rows.map((r) => [r.section, r.value])));
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

/** Stores one section for a group (group sections) or a user (the rest), replacing what was there. */
export async function savePreferenceSection(
  db: DbOrTx,
  opts: { ownerId: number; section: TPreferenceSection; value: unknown; updatedBy: string | null },
): Promise<void> {
  const scope = GROUP_SECTIONS.includes(opts.section) ? 'GROUP' : 'USER';
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
 * POST /api/setting/update/{settingName} and /api/setting/update-group/{settingName}: applies the
 * changed fields to the stored section (or its defaults), checks the result against the section's
 * schema (unknown fields are refused) and stores the whole section. Answers the updated section.
 */
export async function updatePreferenceSection(
  db: Db,
  opts: {
    ownerId: number;
    section: TPreferenceSection;
    changes: Record<string, unknown>;
    updatedBy: string;
    /** The caller's group, whose switches gate some sections (LAB_SLOTS). */
    groupId: number;
  },
): Promise<Record<string, unknown>> {
  const scope = GROUP_SECTIONS.includes(opts.section) ? 'GROUP' : 'USER';
  const schema = PREFERENCE_SECTIONS[opts.section] as unknown as z.ZodObject<z.ZodRawShape>;
  const updateSchema = SETTING_UPDATE_SECTIONS[opts.section];
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select({ value: preferences.value })
      .from(preferences)
      .where(
        and(
          eq(preferences.scope, scope),
          eq(preferences.ownerId, opts.ownerId),
          eq(preferences.section, opts.section),
        ),
      )
      .for('update');
    const stored = schema.safeParse(row?.value ?? {});
    const current = stored.success ? stored.data : schema.parse({});
    // A field sent replaces the stored field whole: a list sent is the new list.
    const next = z.strictObject(updateSchema.shape).safeParse({ ...current, ...opts.changes });
    if (!next.success) {
      const [issue] = next.error.issues;
      const field =
        issue?.path.join('.') || (issue?.code === 'unrecognized_keys' ? issue.keys.join(', ') : null);
      throw new AppError('BAD_REQUEST', issue?.message ?? 'Invalid setting', field);
    }
    if (opts.section === 'LAB_DEPARTMENTS') {
      const removed = removedDepartment(
        current as TLabDepartmentsSetting,
        next.data as TLabDepartmentsSetting,
      );
      if (removed !== null)
        throw new AppError('BAD_REQUEST', SETTINGS_MESSAGES.departmentCannotBeDeleted, removed);
    }
    if (opts.section === 'LAB_SLOTS') {
      const { appointmentSupportRIS } = (await loadGroupPreferences(tx, opts.groupId)).GROUP_SWITCHES;
      const added = newSlotName(current as TLabSlotsSetting, next.data as TLabSlotsSetting);
      if (!appointmentSupportRIS && added !== null) {
        throw new AppError('BAD_REQUEST', SETTINGS_MESSAGES.slotAppointmentsOff, added);
      }
    }
    await savePreferenceSection(tx, {
      ownerId: opts.ownerId,
      section: opts.section,
      value: next.data,
      updatedBy: opts.updatedBy,
    });
    return next.data;
  });
}
