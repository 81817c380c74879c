import fs from 'node:fs/promises';
import type { DbOrTx } from '../../db/client.js';
import { messageOutbox } from '../../db/schema.js';

export interface TSmsMessage {
  /** A mobile number as stored (10 digits). */
  to: string;
  body: string;
}

/** Sends text messages. Real gateways implement this; the default records them in the outbox. */
export interface SmsProvider {
  send(message: TSmsMessage): Promise<void>;
}

/**
 * The default provider: records the message in message_outbox (what tests and the demo read), and
 * when given a mirror file (config OUTBOX_MIRROR_FILE) also appends it there as one JSON line.
 */
export class OutboxSmsProvider implements SmsProvider {
  constructor(
    private readonly db: DbOrTx,
    private readonly mirrorFile?: string,
  ) {}

  async send(message: TSmsMessage): Promise<void> {
    const [row] = await this.db
      .insert(messageOutbox)
      .values({ channel: 'SMS', recipient: message.to, body: message.body })
      .returning();
    if (this.mirrorFile && row) {
      const line = {
        channel: row.channel,
        recipient: row.recipient,
        subject: row.subject,
        body: row.body,
        createdAt: row.createdAt.toISOString(),
      };
      await fs.appendFile(this.mirrorFile, `${JSON.stringify(line)}\n`);
    }
  }
}
