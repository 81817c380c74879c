import { eq } from 'drizzle-orm';
import { AppError } from '@radflow/core';
import type { DbOrTx } from '../../db/client.js';
import { messageOutbox } from '../../db/schema.js';
import { recordInOutbox } from './outbox-record.js';
import { sendSmtpMail } from './smtp-client.js';

export interface TEmailAttachment {
  filename: string;
  content: Uint8Array;
  contentType: string;
}

export interface TEmailMessage {
  to: string;
  subject: string;
  body: string;
  /** Files sent with it (the report PDF); the outbox keeps their names only. */
  attachments?: TEmailAttachment[];
  /** The study row the message is about (its delivery list in the share dialog). */
  reportStatusId?: number | null;
  /** The billing document it sends (the invoice detail lists where it went). */
  billingDocumentId?: number | null;
}

/** Sends e-mail (config SMTP_URL); without a server the message is only recorded in the outbox. */
export interface EmailProvider {
  send(message: TEmailMessage): Promise<void>;
}

const emailRecord = (message: TEmailMessage) => ({
  channel: 'EMAIL' as const,
  recipient: message.to,
  subject: message.subject,
  body: message.body,
  reportStatusId: message.reportStatusId ?? null,
  billingDocumentId: message.billingDocumentId ?? null,
  attachments: (message.attachments ?? []).map((a) => a.filename),
});

/** The default provider: records the message in the outbox (channel EMAIL), nothing more. */
export class OutboxEmailProvider implements EmailProvider {
  constructor(
    private readonly db: DbOrTx,
    private readonly mirrorFile?: string,
  ) {}

  async send(message: TEmailMessage): Promise<void> {
    await recordInOutbox(this.db, this.mirrorFile, emailRecord(message));
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
    const row = await recordInOutbox(this.db, this.mirrorFile, emailRecord(message));
    try {
      await sendSmtpMail(this.smtpUrl, {
        to: message.to,
        subject: message.subject,
        text: message.body,
        attachments: message.attachments ?? [],
      });
    } catch (error) {
      const reason = (error as Error).message.slice(0, 200);
      await this.db
        .update(messageOutbox)
        .set({ status: 'FAILED', failureReason: reason })
        .where(eq(messageOutbox.id, row.id));
      throw new AppError('UPSTREAM_FAILED', 'The e-mail could not be sent', reason);
    }
    await this.db.update(messageOutbox).set({ status: 'SENT' }).where(eq(messageOutbox.id, row.id));
  }
}
