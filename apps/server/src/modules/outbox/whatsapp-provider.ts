import type { DbOrTx } from '../../db/client.js';
import { recordInOutbox } from './outbox-record.js';
import type { TSmsMessage } from './sms-provider.js';

/** Sends WhatsApp messages. A real gateway implements this; the default records them in the outbox. */
export interface WhatsappProvider {
  send(message: TSmsMessage): Promise<void>;
}

/** The default provider: records the message in the outbox (channel WHATSAPP), nothing more. */
export class OutboxWhatsappProvider implements WhatsappProvider {
  constructor(
    private readonly db: DbOrTx,
    private readonly mirrorFile?: string,
  ) {}

  async send(message: TSmsMessage): Promise<void> {
    await recordInOutbox(this.db, this.mirrorFile, {
      channel: 'WHATSAPP',
      recipient: message.to,
      body: message.body,
      reportStatusId: message.reportStatusId ?? null,
    });
  }
}
