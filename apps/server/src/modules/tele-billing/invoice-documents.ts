import { and, eq } from 'drizzle-orm';
import {
  AppError,
  type TBillingDocumentDetail,
  type ZRecordBillingPaymentBody,
  calendarDayIn,
} from '@radflow/core';
import type { z } from 'zod';
import type { AppContext } from '../../context.js';
import { billingDocuments, centers, groups } from '../../db/schema.js';
import type { TAuth } from '../../plugins/auth.js';
import { onceForKey } from '../idempotency/idempotency.js';
import { renderPdfDefinition } from '../report-documents/pdf-document.js';
import { invoiceDefinition } from './invoice-pdf.js';
import { invoiceEmailSubject, recordInvoicePayment, teleInvoiceDetail } from './invoices.js';
import { loadGroupBillingFlags } from './ledger-context.js';

/** The PDF of a tele invoice or credit note of the caller's group (404 otherwise). */
export async function teleInvoicePdf(
  ctx: AppContext,
  auth: TAuth,
  id: number,
): Promise<{ filename: string; body: Uint8Array; doc: TBillingDocumentDetail; centerEmail: string }> {
  const doc = await teleInvoiceDetail(ctx, auth, id);
  const [row] = await ctx.db
    .select({
      billingDetails: billingDocuments.billingDetails,
      groupName: groups.name,
      centerName: centers.name,
      centerEmail: centers.email,
    })
    .from(billingDocuments)
    .innerJoin(groups, eq(groups.id, billingDocuments.groupId))
    .leftJoin(centers, eq(centers.id, billingDocuments.centerId))
    .where(and(eq(billingDocuments.id, id), eq(billingDocuments.groupId, auth.user.groupId)));
  if (!row) throw new AppError('NOT_FOUND', 'Invoice not found');
  const flags = await loadGroupBillingFlags(ctx.db, auth.user.groupId);
  const body = await renderPdfDefinition(
    invoiceDefinition(
      {
        doc,
        groupName: row.groupName,
        center: { name: row.centerName ?? '', email: row.centerEmail ?? '' },
        billingDetails: row.billingDetails,
        timeZone: flags.displayTimeZone,
      },
      ctx.now(),
    ),
  );
  return { filename: `${doc.number}.pdf`, body, doc, centerEmail: row.centerEmail ?? '' };
}

/** E-mails the PDF to the center's e-mail through the app's e-mail provider (the outbox by default). */
export async function emailTeleInvoice(
  ctx: AppContext,
  auth: TAuth,
  id: number,
): Promise<{ sentTo: string }> {
  const pdf = await teleInvoicePdf(ctx, auth, id);
  if (pdf.centerEmail === '') throw new AppError('BAD_REQUEST', 'The center has no e-mail address');
  const { doc } = pdf;
  await ctx.email.send({
    to: pdf.centerEmail,
    subject: invoiceEmailSubject(doc.number),
    body:
      `Dear ${doc.centerName},\n\nPlease find attached ${doc.kind === 'CREDIT_NOTE' ? 'credit note' : 'invoice'} ` +
      `${doc.number} for ${doc.periodStart} to ${doc.periodEnd}: total ₹${doc.total.toFixed(2)}` +
      (doc.dueDate ? `, due on ${doc.dueDate}` : '') +
      '.\n',
    attachments: [{ filename: pdf.filename, content: pdf.body, contentType: 'application/pdf' }],
    billingDocumentId: doc.id,
  });
  return { sentTo: pdf.centerEmail };
}

/**
 * Records a payment once per (user, Idempotency-Key): a repeat of the key answers the first answer
 * (even though the invoice's version has moved on since); the same key on another call is 409.
 */
export async function payTeleInvoice(
  ctx: AppContext,
  auth: TAuth,
  id: number,
  body: z.output<typeof ZRecordBillingPaymentBody>,
  key: string | null,
): Promise<TBillingDocumentDetail> {
  const today = calendarDayIn(
    ctx.now(),
    (await loadGroupBillingFlags(ctx.db, auth.user.groupId)).displayTimeZone,
  );
  const answer = await ctx.db.transaction((tx) =>
    onceForKey(tx, auth, key, `tele-invoice-payment:${id}`, async () => {
      await recordInvoicePayment(tx, auth, id, body, today);
      return { documentId: id };
    }),
  );
  return teleInvoiceDetail(ctx, auth, answer.documentId);
}
