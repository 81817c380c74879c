import { desc, eq } from 'drizzle-orm';
import type { TPeopleAuditAction, TPeopleAuditRow } from '@radflow/core';
import type { DbOrTx } from '../../db/client.js';
import { peopleAudit } from '../../db/schema.js';

export interface TPeopleChange {
  groupId: number;
  action: TPeopleAuditAction;
  actor: { id: number; email: string };
  targetType: 'CENTER' | 'USER';
  targetId: number;
  /** What changed: `{ before, after }` for edits, the new values for creations. */
  detail?: Record<string, unknown>;
  at: Date;
}

/** Writes one line of the people audit; call it in the transaction that makes the change. */
export async function recordPeopleChange(tx: DbOrTx, change: TPeopleChange): Promise<void> {
  await tx.insert(peopleAudit).values({
    groupId: change.groupId,
    action: change.action,
    actorUserId: change.actor.id,
    actorEmail: change.actor.email,
    targetType: change.targetType,
    targetId: change.targetId,
    detail: change.detail ?? {},
    createdAt: change.at,
  });
}

/** How many audit lines GET /api/admin/audit answers (the newest). */
export const PEOPLE_AUDIT_PAGE = 200;

/** The group's newest people-audit lines, newest first. */
export async function listPeopleAudit(db: DbOrTx, groupId: number): Promise<TPeopleAuditRow[]> {
  const rows = await db
    .select()
    .from(peopleAudit)
    .where(eq(peopleAudit.groupId, groupId))
    .orderBy(desc(peopleAudit.id))
    .limit(PEOPLE_AUDIT_PAGE);
  return rows.map((r) => ({
    id: r.id,
    action: r.action as TPeopleAuditAction,
    actorEmail: r.actorEmail,
    targetType: r.targetType,
    targetId: r.targetId,
    detail: (r.detail ?? {}) as Record<string, unknown>,
    createdAt: r.createdAt.toISOString(),
  }));
}
