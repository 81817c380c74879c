import fs from 'node:fs/promises';
import type { DbOrTx } from '../../db/client.js';
import { messageOutbox } from '../../db/schema.js';

export type TOutboxRow = typeof messageOutbox.$inferSelect;

export interface TOutboxMessage {
  channel: TOutboxRow['channel'];
  recipient: string;
  subject?: string;
  body: string;
  /** The study row the message is about (its delivery list in the share dialog). */
  reportStatusId?: number | null;
  /** The billing document the e-mail sends (its detail lists where it went). */
  billingDocumentId?: number | null;
  /** Names of the files sent with it (the files themselves are not kept). */
  attachments?: readonly string[];
}

/**
 * The one way a provider records a message: a message_outbox row (what tests, the demo and support
 * read) and, with a mirror file (config OUTBOX_MIRROR_FILE), the same as one JSON line appended there.
 * Answers the row, so a provider that really sends can mark it SENT or FAILED afterwards.
 */
export async function recordInOutbox(
  db: DbOrTx,
  mirrorFile: string | undefined,
  message: TOutboxMessage,
): Promise<TOutboxRow> {
  const [row] = await db
    .insert(messageOutbox)
    .values({
      channel: message.channel,
      recipient: message.recipient,
      subject: message.subject ?? null,
      body: message.body,
      reportStatusId: message.reportStatusId ?? null,
      billingDocumentId: message.billingDocumentId ?? null,
      attachments: [...(message.attachments ?? [])],
    })
    .returning();
  if (!row) throw new Error('outbox insert returned no row');
  if (mirrorFile) {
    const line = {
      channel: row.channel,
      recipient: row.recipient,
      subject: row.subject,
      body: row.body,
      ...(row.reportStatusId !== null ? { reportStatusId: row.reportStatusId } : {}),
      ...(row.attachments.length > 0 ? { attachments: row.attachments } : {}),
      createdAt: row.createdAt.toISOString(),
    };
    await fs.appendFile(mirrorFile, `${JSON.stringify(line)}\n`);
  }
  return row;
}
