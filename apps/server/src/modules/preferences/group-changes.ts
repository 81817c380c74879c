import { count, desc, eq } from 'drizzle-orm';
import type { TGroupChangesPage, TPreferenceSection } from '@radflow/core';
import type { DbOrTx } from '../../db/client.js';
import { settingChanges } from '../../db/schema.js';

/** JSON with object keys sorted, so two equal values compare equal whatever their key order. */
function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v !== null && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}

/**
 * The group audit (issue 6 contract): one setting_changes row per field of a group section whose
 * value changed, written by the caller's transaction together with the save.
 */
export async function recordGroupChanges(
  tx: DbOrTx,
  opts: {
    actor: { id: number; email: string; groupId: number };
    section: TPreferenceSection;
    before: Record<string, unknown>;
    after: Record<string, unknown>;
  },
): Promise<void> {
  const fields = [...new Set([...Object.keys(opts.before), ...Object.keys(opts.after)])];
  const rows = fields
    .filter((field) => canonicalJson(opts.before[field]) !== canonicalJson(opts.after[field]))
    .map((field) => ({
      groupId: opts.actor.groupId,
      section: opts.section,
      field,
      // jsonb null for a value that was or became null/absent.
      oldValue: opts.before[field] ?? null,
      newValue: opts.after[field] ?? null,
      changedByUserId: opts.actor.id,
      changedBy: opts.actor.email,
    }));
  if (rows.length > 0) await tx.insert(settingChanges).values(rows);
}

/** GET /api/setting/group-changes: a page of the group's changes, newest first. */
export async function listGroupChanges(
  db: DbOrTx,
  groupId: number,
  page: { page: number; size: number },
): Promise<TGroupChangesPage> {
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(settingChanges)
      .where(eq(settingChanges.groupId, groupId))
      .orderBy(desc(settingChanges.changedAt), desc(settingChanges.id))
      .limit(page.size)
      .offset(page.page * page.size),
    db.select({ n: count() }).from(settingChanges).where(eq(settingChanges.groupId, groupId)),
  ]);
  return {
    content: rows.map((r) => ({
      id: r.id,
      section: r.section,
      field: r.field,
      oldValue: r.oldValue,
      newValue: r.newValue,
      changedBy: r.changedBy,
      changedAt: r.changedAt.toISOString(),
    })),
    totalElements: total?.n ?? 0,
  };
}
