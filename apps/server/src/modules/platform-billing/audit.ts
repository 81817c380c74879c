import type { DbOrTx } from '../../db/client.js';
import { platformBillingAudit } from '../../db/schema.js';

/** The one writer of the platform billing's audit row; called inside the change's transaction. */
export async function auditPlatformBilling(
  tx: DbOrTx,
  row: {
    groupId: number | null;
    entity: 'SUBSCRIPTION' | 'INVOICE' | 'PAYMENT' | 'INVOICE_RUN' | 'PLAN';
    entityId: number | null;
    action: string;
    actorEmail: string;
    detail?: Record<string, unknown>;
  },
): Promise<void> {
  await tx.insert(platformBillingAudit).values({ ...row, detail: row.detail ?? {} });
}
