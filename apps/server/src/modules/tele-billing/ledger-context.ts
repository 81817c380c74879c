import { type SQL, and, desc, eq, inArray, isNull } from 'drizzle-orm';
import { type TBillingDetailsSetting, ZBillingDetailsSetting, groupFlags } from '@radflow/core';
import type { DbOrTx } from '../../db/client.js';
import { billingAuditEvents, preferences, users } from '../../db/schema.js';
import { loadGroupPreferences } from '../preferences/preferences.js';

/**
 * The group's billing details for its tele invoices: the newest BILLING_DETAILS section saved by an
 * account of the group without a center (the group account, a biller, a tele-radiology user: the
 * same group tier the lab's letterhead falls back to, lab-documents/lab-document-data.ts); blank
 * when none. Snapshot into the document at issue.
 */
export async function loadGroupBillingDetails(db: DbOrTx, groupId: number): Promise<TBillingDetailsSetting> {
  const [row] = await db
    .select({ value: preferences.value })
    .from(preferences)
    .innerJoin(users, and(eq(preferences.scope, 'USER'), eq(users.id, preferences.ownerId)))
    .where(
      and(
        eq(users.groupId, groupId),
        isNull(users.centerId),
        inArray(preferences.section, ['BILLING_DETAILS']),
      ),
    )
    .orderBy(desc(preferences.updatedAt), desc(preferences.id))
    .limit(1);
  const parsed = ZBillingDetailsSetting.safeParse(row?.value ?? {});
  return parsed.success ? parsed.data : ZBillingDetailsSetting.parse({});
}

/** The group's display time zone (sign-off days and due dates are days of this zone) and its switches. */
export async function loadGroupBillingFlags(db: DbOrTx, groupId: number) {
  return groupFlags(await loadGroupPreferences(db, groupId));
}

/** One audit row per ledger write, in the write's transaction. */
export async function auditBilling(
  tx: DbOrTx,
  row: {
    groupId: number;
    entity: 'PRICE' | 'DOCUMENT' | 'PAYMENT';
    entityId: number;
    action: string;
    actorUserId: number | null;
    detail?: Record<string, unknown>;
  },
): Promise<void> {
  await tx.insert(billingAuditEvents).values({ ...row, detail: row.detail ?? {} });
}

/** YYYY-MM-DD plus n days. */
export function addDays(day: string, days: number): string {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/** The rows of a raw statement (both drivers answer `{ rows }`). */
export async function rowsOf<T>(db: DbOrTx, statement: SQL): Promise<T[]> {
  const result = (await db.execute(statement)) as unknown as { rows: T[] };
  return result.rows;
}
