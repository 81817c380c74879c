import type { DbOrTx } from '../../db/client.js';
import { recordInOutbox } from './outbox-record.js';

export interface TSmsMessage {
  /** A mobile number as stored (10 digits). */
  to: string;
  body: string;
  /** The study row the message is about, recorded with it. */
  reportStatusId?: number | null;
}

/** Sends text messages. Real gateways implement this; the default records them in the outbox. */
export interface SmsProvider {
  send(message: TSmsMessage): Promise<void>;
}

/** The default provider: records the message in the outbox (`recordInOutbox`), nothing more. */
export class OutboxSmsProvider implements SmsProvider {
  constructor(
    private readonly db: DbOrTx,
    private readonly mirrorFile?: string,
  ) {}

  async send(message: TSmsMessage): Promise<void> {
    await recordInOutbox(this.db, this.mirrorFile, {
      channel: 'SMS',
      recipient: message.to,
      body: message.body,
      reportStatusId: message.reportStatusId ?? null,
    });
  }
}
