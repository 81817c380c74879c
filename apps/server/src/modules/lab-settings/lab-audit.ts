import type { DbOrTx } from '../../db/client.js';
import { labAuditEvents } from '../../db/schema.js';
import type { TAuth } from '../../plugins/auth.js';
import { labOwnerValues } from './lab-owner.js';

/** One row of the lab's audit trail, written inside the transaction of the change it records. */
export async function recordLabAudit(
  tx: DbOrTx,
  auth: TAuth,
  event: { entity: string; entityId: number; action: string; detail: object },
): Promise<void> {
  await tx.insert(labAuditEvents).values({
    ...labOwnerValues(auth),
    entity: event.entity,
    entityId: event.entityId,
    action: event.action,
    actorEmail: auth.user.email,
    detail: event.detail as Record<string, unknown>,
  });
}
