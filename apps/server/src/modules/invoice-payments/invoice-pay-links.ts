import { and, eq } from 'drizzle-orm';
import {
  AppError,
  calendarDayIn,
  type TInvoicePayLink,
  type TInvoicePayableKind,
  minorToRupees,
  outstandingMinor,
  platformInvoiceDueMinor,
} from '@radflow/core';
import type { AppContext } from '../../context.js';
import type { Tx } from '../../db/client.js';
import { billingDocuments, invoicePayLinks, platformInvoices } from '../../db/schema.js';
import type { TAuth } from '../../plugins/auth.js';
import type { TPaidOutcome, TProviderPaidRecord } from '../payments/payable-kinds.js';
import { listInvoices } from '../platform-billing/invoices.js';
import { recordPlatformPayment } from '../platform-billing/payments.js';
import { recordTeleInvoicePayment } from '../tele-billing/invoices.js';
import { loadGroupBillingFlags } from '../tele-billing/ledger-context.js';

/*
 * Online payment of invoices (DECISIONS.md beside this file): a center pays its tele-radiology
 * invoice, a group its platform invoice, through the payment provider's link. The provider's paid
 * notification (webhook, routed by payables.ts) or the payer's signed return records the payment
 * with the invoice's own recorder — the same function as a manual payment — once.
 */

export const PAY_LINK_MESSAGES = {
  invoiceNotFound: 'Invoice not found',
  notPayable: 'This invoice has nothing left to pay',
  providerFailed: 'The payment provider could not make a pay link',
  unknownReference: 'This payment is not known',
} as const;

/** The label a provider-recorded payment carries where a person's e-mail would be. */
const PROVIDER_ACTOR = 'Payment provider';

/**
 * A tele invoice of the caller's own center (the center user's `center_id`) in the caller's group,
 * or 404 — another center's or group's invoice is not there for them.
 */
export async function centerInvoiceOf(ctx: AppContext, auth: TAuth, invoiceId: number) {
  const centerId = auth.user.centerId;
  if (centerId === null) throw new AppError('NOT_FOUND', PAY_LINK_MESSAGES.invoiceNotFound);
  const [doc] = await ctx.db
    .select()
    .from(billingDocuments)
    .where(
      and(
        eq(billingDocuments.id, invoiceId),
        eq(billingDocuments.groupId, auth.user.groupId),
        eq(billingDocuments.centerId, centerId),
        eq(billingDocuments.kind, 'TELE_INVOICE'),
      ),
    );
  if (!doc) throw new AppError('NOT_FOUND', PAY_LINK_MESSAGES.invoiceNotFound);
  return doc;
}

/** A platform invoice (not a credit note) of the caller's own group, or 404. */
export async function groupPlatformInvoiceOf(ctx: AppContext, auth: TAuth, invoiceId: number) {
  const [inv] = await ctx.db
    .select()
    .from(platformInvoices)
    .where(
      and(
        eq(platformInvoices.id, invoiceId),
        eq(platformInvoices.groupId, auth.user.groupId),
        eq(platformInvoices.kind, 'INVOICE'),
      ),
    );
  if (!inv) throw new AppError('NOT_FOUND', PAY_LINK_MESSAGES.invoiceNotFound);
  return inv;
}

/** Where the provider sends the payer back: the invoice's own page (the payables seam's rule). */
export const PAY_RETURN_PATHS: Record<TInvoicePayableKind, string> = {
  TELE_INVOICE: '/center-invoices',
  PLATFORM_INVOICE: '/platform-invoices',
};

/**
 * Asks the provider for a link of `amountMinor` (the invoice's outstanding due now) and keeps it.
 * The provider is asked outside any transaction (no transaction waits on the network); a refusal is
 * 502 and nothing is kept.
 */
async function makePayLink(
  ctx: AppContext,
  auth: TAuth,
  input: {
    kind: TInvoicePayableKind;
    invoiceId: number;
    groupId: number;
    amountMinor: number;
    currency: string;
    description: string;
    publicUrl: string;
  },
): Promise<TInvoicePayLink> {
  let link: { reference: string; url: string | null };
  try {
    link = await ctx.payment.createPaymentLink({
      payable: input.kind,
      paymentId: input.invoiceId,
      amountMinor: input.amountMinor,
      currency: input.currency,
      description: input.description,
      returnUrl: `${input.publicUrl}${PAY_RETURN_PATHS[input.kind]}`,
    });
  } catch (error) {
    throw new AppError('UPSTREAM_FAILED', PAY_LINK_MESSAGES.providerFailed, String(error));
  }
  await ctx.db.insert(invoicePayLinks).values({
    payableKind: input.kind,
    billingDocumentId: input.kind === 'TELE_INVOICE' ? input.invoiceId : null,
    platformInvoiceId: input.kind === 'PLATFORM_INVOICE' ? input.invoiceId : null,
    groupId: input.groupId,
    provider: ctx.payment.name,
    reference: link.reference,
    amountMinor: input.amountMinor,
    currency: input.currency,
    payUrl: link.url,
    requestedByUserId: auth.user.id,
  });
  return { reference: link.reference, url: link.url, amount: minorToRupees(input.amountMinor) };
}

/** POST /center-billing/invoices/{id}/pay: a link for what the center's invoice has outstanding. */
export async function payLinkForTeleInvoice(
  ctx: AppContext,
  auth: TAuth,
  invoiceId: number,
  publicUrl: string,
): Promise<TInvoicePayLink> {
  const doc = await centerInvoiceOf(ctx, auth, invoiceId);
  const due = outstandingMinor(doc);
  if (!['ISSUED', 'PARTIALLY_PAID'].includes(doc.status) || due <= 0) {
    throw new AppError('CONFLICT', PAY_LINK_MESSAGES.notPayable);
  }
  return makePayLink(ctx, auth, {
    kind: 'TELE_INVOICE',
    invoiceId: doc.id,
    groupId: doc.groupId,
    amountMinor: due,
    currency: doc.currency,
    description: `Invoice ${doc.number}`,
    publicUrl,
  });
}

/** POST /group-billing/platform-invoices/{id}/pay: a link for the platform invoice's due. */
export async function payLinkForPlatformInvoice(
  ctx: AppContext,
  auth: TAuth,
  invoiceId: number,
  publicUrl: string,
): Promise<TInvoicePayLink> {
  const inv = await groupPlatformInvoiceOf(ctx, auth, invoiceId);
  const due = platformInvoiceDueMinor(inv.totalMinor, inv.paidMinor);
  if (inv.status !== 'ISSUED' || due <= 0) throw new AppError('CONFLICT', PAY_LINK_MESSAGES.notPayable);
  return makePayLink(ctx, auth, {
    kind: 'PLATFORM_INVOICE',
    invoiceId: inv.id,
    groupId: inv.groupId,
    amountMinor: due,
    currency: 'INR',
    description: `Radflow invoice ${inv.number}`,
    publicUrl,
  });
}

/** The link of this kind for provider + reference, locked (two confirmations record once). */
async function lockedLink(tx: Tx, kind: TInvoicePayableKind, paid: TProviderPaidRecord) {
  const [link] = await tx
    .select()
    .from(invoicePayLinks)
    .where(
      and(
        eq(invoicePayLinks.provider, paid.provider),
        eq(invoicePayLinks.reference, paid.reference),
        eq(invoicePayLinks.payableKind, kind),
      ),
    )
    .for('update');
  return link ?? null;
}

const amountDiffers = (paid: TProviderPaidRecord, link: { amountMinor: number; currency: string }) =>
  paid.amount !== null && (paid.amount.minor !== link.amountMinor || paid.amount.currency !== link.currency);

async function markLinkPaid(tx: Tx, linkId: number, paid: TProviderPaidRecord) {
  await tx
    .update(invoicePayLinks)
    .set({ paidAt: paid.at, providerPaymentId: paid.providerPaymentId })
    .where(eq(invoicePayLinks.id, linkId));
}

/**
 * The TELE_INVOICE ledger of the payables seam: records a paid link with the tele invoice's own
 * recorder (recordTeleInvoicePayment, mode ONLINE, the provider's name with our reference, so the
 * payment is unique per provider), its status, audit row and dunning labels following. The paid
 * amount must be the link's, and not more than the invoice still has outstanding (a payment made
 * meanwhile at the desk): else AMOUNT_MISMATCH, nothing recorded, for staff to refund.
 */
export async function recordTeleInvoicePaid(tx: Tx, paid: TProviderPaidRecord): Promise<TPaidOutcome> {
  const link = await lockedLink(tx, 'TELE_INVOICE', paid);
  if (!link?.billingDocumentId) return 'UNKNOWN_REFERENCE';
  if (link.paidAt) return 'ALREADY_PAID';
  if (amountDiffers(paid, link)) return 'AMOUNT_MISMATCH';
  const [doc] = await tx
    .select()
    .from(billingDocuments)
    .where(eq(billingDocuments.id, link.billingDocumentId))
    .for('update');
  if (!doc) return 'UNKNOWN_REFERENCE';
  if (!['ISSUED', 'PARTIALLY_PAID'].includes(doc.status) || link.amountMinor > outstandingMinor(doc)) {
    return 'AMOUNT_MISMATCH';
  }
  const zone = (await loadGroupBillingFlags(tx, doc.groupId)).displayTimeZone;
  const today = calendarDayIn(paid.at, zone);
  await recordTeleInvoicePayment(
    tx,
    { groupId: doc.groupId, userId: null, provider: paid.provider },
    doc.id,
    {
      amount: minorToRupees(link.amountMinor),
      mode: 'ONLINE',
      reference: link.reference,
      receivedOn: today,
      version: null,
    },
    today,
  );
  await markLinkPaid(tx, link.id, paid);
  return 'RECORDED';
}

/**
 * The PLATFORM_INVOICE ledger of the payables seam: records a paid link with the platform's own
 * recorder (recordPlatformPayment, mode ONLINE): the invoice's due falls by it, PAID when it was the
 * whole due, and then the subscription is extended (the banner goes). Amount rules as for the tele
 * invoice above.
 */
export async function recordPlatformInvoicePaid(tx: Tx, paid: TProviderPaidRecord): Promise<TPaidOutcome> {
  const link = await lockedLink(tx, 'PLATFORM_INVOICE', paid);
  if (!link?.platformInvoiceId) return 'UNKNOWN_REFERENCE';
  if (link.paidAt) return 'ALREADY_PAID';
  if (amountDiffers(paid, link)) return 'AMOUNT_MISMATCH';
  const [inv] = await tx
    .select()
    .from(platformInvoices)
    .where(eq(platformInvoices.id, link.platformInvoiceId))
    .for('update');
  if (!inv) return 'UNKNOWN_REFERENCE';
  if (inv.status !== 'ISSUED' || link.amountMinor > platformInvoiceDueMinor(inv.totalMinor, inv.paidMinor)) {
    return 'AMOUNT_MISMATCH';
  }
  await recordPlatformPayment(tx, {
    body: {
      groupId: inv.groupId,
      invoiceId: inv.id,
      amount: minorToRupees(link.amountMinor),
      mode: 'ONLINE',
      reference: link.reference,
      provider: paid.provider,
    },
    actorEmail: PROVIDER_ACTOR,
    now: paid.at,
  });
  await markLinkPaid(tx, link.id, paid);
  return 'RECORDED';
}

/** A pay link by provider and our reference, or null. */
export async function payLinkOf(ctx: AppContext, provider: string, reference: string) {
  const [link] = await ctx.db
    .select()
    .from(invoicePayLinks)
    .where(and(eq(invoicePayLinks.provider, provider), eq(invoicePayLinks.reference, reference)));
  return link ?? null;
}

/**
 * Whether the caller is the payer of a link: a center user of the tele invoice's center, or an
 * administrator of the platform invoice's group. Anyone else is answered 404 (not theirs to know).
 */
export async function isPayerOf(
  ctx: AppContext,
  auth: TAuth,
  link: NonNullable<Awaited<ReturnType<typeof payLinkOf>>>,
): Promise<boolean> {
  if (link.payableKind === 'PLATFORM_INVOICE') return link.groupId === auth.user.groupId;
  if (!link.billingDocumentId || auth.user.centerId === null) return false;
  const [doc] = await ctx.db
    .select({ id: billingDocuments.id })
    .from(billingDocuments)
    .where(
      and(
        eq(billingDocuments.id, link.billingDocumentId),
        eq(billingDocuments.groupId, auth.user.groupId),
        eq(billingDocuments.centerId, auth.user.centerId),
      ),
    );
  return doc !== undefined;
}

/** The platform invoices of the caller's own group, newest first (the group admin's page). */
export async function listGroupPlatformInvoices(ctx: AppContext, auth: TAuth) {
  return { invoices: await listInvoices(ctx.db, { groupId: auth.user.groupId }, ctx.now()) };
}
