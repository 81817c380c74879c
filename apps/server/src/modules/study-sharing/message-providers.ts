import fs from 'node:fs/promises';
import { eq } from 'drizzle-orm';
import { AppError } from '@radflow/core';
import type { DbOrTx } from '../../db/client.js';
import { messageOutbox } from '../../db/schema.js';
import type { TSmsMessage } from '../outbox/sms-provider.js';
import { sendSmtpMail } from './smtp-client.js';

/*
 * The WhatsApp and e-mail senders beside the outbox's SMS provider (modules/outbox): each records
 * the message in message_outbox (what tests, the demo and support read) and, when a real transport
 * is configured, sends it. Kept here until the outbox module grows its own; they only depend on the
 * outbox table.
 */

type TOutboxRecord = {
  channel: 'SMS' | 'WHATSAPP' | 'EMAIL';
  recipient: string;
  subject?: string;
  body: string;
};

async function recordInOutbox(db: DbOrTx, mirrorFile: string | undefined, message: TOutboxRecord) {
  const [row] = await db
    .insert(messageOutbox)
    .values({
      channel: message.channel,
      recipient: message.recipient,
      subject: message.subject ?? null,
      body: message.body,
    })
    .returning();
  if (!row) throw new Error('outbox insert returned no row');
  if (mirrorFile) {
    const line = {
      channel: row.channel,
      recipient: row.recipient,
      subject: row.subject,
      body: row.body,
      createdAt: row.createdAt.toISOString(),
    };
    await fs.appendFile(mirrorFile, `${JSON.stringify(line)}\n`);
  }
  return row;
}

/** Sends WhatsApp messages. A real gateway implements this; the default records them in the outbox. */
export interface WhatsappProvider {
  send(message: TSmsMessage): Promise<void>;
}

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
    });
  }
}

export interface TEmailMessage {
  to: string;
  subject: string;
  body: string;
}

/** Sends e-mail (config SMTP_URL); without a server the message is only recorded in the outbox. */
export interface EmailProvider {
  send(message: TEmailMessage): Promise<void>;
}

export class OutboxEmailProvider implements EmailProvider {
  constructor(
    private readonly db: DbOrTx,
    private readonly mirrorFile?: string,
  ) {}

  async send(message: TEmailMessage): Promise<void> {
    await recordInOutbox(this.db, this.mirrorFile, {
      channel: 'EMAIL',
      recipient: message.to,
      subject: message.subject,
      body: message.body,
    });
  }
}

/**
 * E-mail over SMTP (config SMTP_URL): recorded PENDING in the outbox first, then SENT or FAILED by
 * what the server answered; a failure is thrown to the caller as well.
 */
export class SmtpEmailProvider implements EmailProvider {
  constructor(
    private readonly db: DbOrTx,
    private readonly smtpUrl: string,
    private readonly mirrorFile?: string,
  ) {}

  async send(message: TEmailMessage): Promise<void> {
    const row = await recordInOutbox(this.db, this.mirrorFile, {
      channel: 'EMAIL',
      recipient: message.to,
      subject: message.subject,
      body: message.body,
    });
    try {
      await sendSmtpMail(this.smtpUrl, { to: message.to, subject: message.subject, text: message.body });
    } catch (error) {
      await this.db.update(messageOutbox).set({ status: 'FAILED' }).where(eq(messageOutbox.id, row.id));
      throw new AppError(
        'UPSTREAM_FAILED',
        'The e-mail could not be sent',
        (error as Error).message.slice(0, 200),
      );
    }
    await this.db.update(messageOutbox).set({ status: 'SENT' }).where(eq(messageOutbox.id, row.id));
  }
}
