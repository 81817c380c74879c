import { z } from 'zod';
import {
  AppError,
  GROUP_SECTIONS,
  PREFERENCE_SECTIONS,
  SETTING_UPDATE_SECTIONS,
  SETTINGS_MESSAGES,
  type TLabDepartmentsSetting,
  type TLabSlotsSetting,
  type TPreferenceSection,
  newSlotName,
  preferenceOwnerOf,
  removedDepartment,
} from '@radflow/core';
import type { Db, Tx } from '../../db/client.js';
import { recordGroupChanges } from './group-changes.js';
import {
  type TPreferenceUser,
  deleteStoredSection,
  loadGroupPreferences,
  readStoredSection,
  savePreferenceSection,
} from './preferences.js';
import { sanitizeReportHtml } from './sanitize-report-html.js';

type TSection = Record<string, unknown>;

/** Who saves: their sections' owners follow from them (core preferenceOwnerOf). */
export interface TSettingActor extends TPreferenceUser {
  email: string;
}

const schemaOf = (section: TPreferenceSection) =>
  PREFERENCE_SECTIONS[section] as unknown as z.ZodObject<z.ZodRawShape>;

/** The stored section (locked), completed with defaults; a stored value that no longer parses counts as the defaults. */
async function lockCurrent(tx: Tx, actor: TSettingActor, section: TPreferenceSection): Promise<TSection> {
  const schema = schemaOf(section);
  const stored = schema.safeParse((await readStoredSection(tx, actor, section, { lock: true })) ?? {});
  return stored.success ? stored.data : schema.parse({});
}

/**
 * POST /api/setting/update/{settingName} and /api/setting/update-group/{settingName}: applies the
 * changed fields to the stored section (or its defaults), checks the result against the section's
 * schema (unknown fields are refused) and stores the whole section where it belongs (group, center or
 * user). A group section's changed fields are written to setting_changes in the same transaction.
 * Answers the updated section.
 */
export async function updatePreferenceSection(
  db: Db,
  opts: { actor: TSettingActor; section: TPreferenceSection; changes: Record<string, unknown> },
): Promise<TSection> {
  const { actor, section } = opts;
  return db.transaction(async (tx) => {
    const current = await lockCurrent(tx, actor, section);
    // A field sent replaces the stored field whole: a list sent is the new list.
    const next = z
      .strictObject(SETTING_UPDATE_SECTIONS[section].shape)
      .safeParse({ ...current, ...opts.changes });
    if (!next.success) {
      const [issue] = next.error.issues;
      const field =
        issue?.path.join('.') || (issue?.code === 'unrecognized_keys' ? issue.keys.join(', ') : null);
      throw new AppError('BAD_REQUEST', issue?.message ?? 'Invalid setting', field);
    }
    const value = section === 'REPORT_TEXT' ? sanitizeReportText(next.data) : next.data;
    await refuseBrokenRules(tx, actor, section, current, value);
    const owner = preferenceOwnerOf(section, actor);
    await savePreferenceSection(tx, { ...owner, section, value, updatedBy: actor.email });
    if (GROUP_SECTIONS.includes(section)) {
      await recordGroupChanges(tx, { actor, section, before: current, after: value });
    }
    return value;
  });
}

/**
 * POST /api/setting/reset/{settingName} and /api/setting/reset-group/{settingName}: deletes the
 * stored section (the center's for a center section) and answers the section's defaults. A group
 * reset is audited like a group update.
 */
export async function resetPreferenceSection(
  db: Db,
  opts: { actor: TSettingActor; section: TPreferenceSection },
): Promise<TSection> {
  const { actor, section } = opts;
  const defaults = schemaOf(section).parse({});
  return db.transaction(async (tx) => {
    const current = await lockCurrent(tx, actor, section);
    await refuseBrokenRules(tx, actor, section, current, defaults);
    await deleteStoredSection(tx, actor, section);
    if (GROUP_SECTIONS.includes(section)) {
      await recordGroupChanges(tx, { actor, section, before: current, after: defaults });
    }
    return defaults;
  });
}

/** Rules that compare the new value with the stored one (a reset is a save of the defaults). */
async function refuseBrokenRules(
  tx: Tx,
  actor: TSettingActor,
  section: TPreferenceSection,
  current: TSection,
  next: TSection,
): Promise<void> {
  if (section === 'LAB_DEPARTMENTS') {
    // spec-lab §5: departments cannot be deleted, by a save or a reset.
    const removed = removedDepartment(current as TLabDepartmentsSetting, next as TLabDepartmentsSetting);
    if (removed !== null)
      throw new AppError('BAD_REQUEST', SETTINGS_MESSAGES.departmentCannotBeDeleted, removed);
  }
  if (section === 'LAB_SLOTS') {
    const { appointmentSupportRIS } = (await loadGroupPreferences(tx, actor.groupId)).GROUP_SWITCHES;
    const added = newSlotName(current as TLabSlotsSetting, next as TLabSlotsSetting);
    if (!appointmentSupportRIS && added !== null) {
      throw new AppError('BAD_REQUEST', SETTINGS_MESSAGES.slotAppointmentsOff, added);
    }
  }
}

/** REPORT_TEXT is HTML that lands in printed reports: stored only after cleaning. */
function sanitizeReportText(value: TSection): TSection {
  return Object.fromEntries(
    Object.entries(value).map(([field, html]) => [
      field,
      typeof html === 'string' ? sanitizeReportHtml(html) : html,
    ]),
  );
}
