import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { PRESENCE_STATUSES, type TOnlineStatus } from '@radflow/core';
import type { DbOrTx } from '../../db/client.js';

/** The channel a beat that changes a doctor's dot notifies on (README "Presence"). */
export const PRESENCE_CHANNEL = 'radflow_presence';

/** What travels on the channel: whose dot changed, in which group, and the dot itself. */
const ZPresenceChange = z.object({
  groupId: z.number().int(),
  userId: z.number().int(),
  email: z.string(),
  status: z.enum(PRESENCE_STATUSES),
  updatedAt: z.string(),
});
export type TPresenceChange = z.infer<typeof ZPresenceChange>;

/**
 * Publishes a change of a doctor's dot to every server process's open streams (issue 23 §3): a
 * NOTIFY with the change as its payload, sent in the caller's transaction, so it is delivered at
 * commit (and not at all after a rollback). On PGlite the client's own `listen` hears it; on
 * PostgreSQL each process's LISTEN connection (study-events-wakeup.ts).
 */
export async function publishPresenceChange(db: DbOrTx, change: TPresenceChange): Promise<void> {
  await db.execute(sql`select pg_notify(${PRESENCE_CHANNEL}, ${JSON.stringify(change)})`);
}

/** A payload read back; null for anything else (the channel is ours, but a bad payload drops). */
export function parsePresenceChange(payload: string): TPresenceChange | null {
  try {
    const parsed = ZPresenceChange.safeParse(JSON.parse(payload));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** The dot as the online list shows it (core ZOnlineStatus): nothing of the group or the user id. */
export function dotOf(change: TPresenceChange): TOnlineStatus {
  return { email: change.email, status: change.status, updatedAt: change.updatedAt };
}
