import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { PAYMENT_ID_PARAM, type TProviderPaymentStatus } from '@radflow/core';
import type {
  PaymentProvider,
  PaymentWebhookReader,
  TPaymentLinkRequest,
  TWebhookReading,
} from './payment-provider.js';

export const RAZORPAY_PAYMENT_PROVIDER = 'razorpay';
export const RAZORPAY_DEFAULT_API_URL = 'https://api.razorpay.com';

/** config RAZORPAY_KEY_ID, RAZORPAY_KEY_SECRET, RAZORPAY_WEBHOOK_SECRET, RAZORPAY_API_URL. */
export interface TRazorpayOptions {
  keyId: string;
  /** Signs the payer's return (and authenticates our API calls). */
  keySecret: string;
  /** Signs the webhook calls (set in Razorpay's dashboard; not the key secret). */
  webhookSecret: string;
  /** https://api.razorpay.com; tests point it at a local fake. */
  apiUrl: string;
  /** How long a link creation may take before the request is withdrawn (502). Default 15 s. */
  timeoutMs?: number;
}

/** The parameters Razorpay appends to a payment link's callback_url after a payment. */
export const RAZORPAY_RETURN_PARAMS = {
  paymentId: 'razorpay_payment_id',
  linkId: 'razorpay_payment_link_id',
  referenceId: 'razorpay_payment_link_reference_id',
  status: 'razorpay_payment_link_status',
  signature: 'razorpay_signature',
} as const;

export const RAZORPAY_SIGNATURE_HEADER = 'x-razorpay-signature';
export const RAZORPAY_EVENT_ID_HEADER = 'x-razorpay-event-id';
export const RAZORPAY_LINK_PAID_EVENT = 'payment_link.paid';

const hmacHex = (secret: string, payload: string | Buffer) =>
  createHmac('sha256', secret).update(payload).digest('hex');

/**
 * The signature Razorpay puts on a payment link's return (`razorpay_signature`): HMAC-SHA256 with
 * the API key secret of `link id|reference id|link status|payment id`, hex.
 */
export function razorpayReturnSignature(
  keySecret: string,
  p: { linkId: string; referenceId: string; status: string; paymentId: string },
): string {
  return hmacHex(keySecret, `${p.linkId}|${p.referenceId}|${p.status}|${p.paymentId}`);
}

/** The signature of a webhook call (`X-Razorpay-Signature`): HMAC-SHA256 of the raw body with the webhook secret, hex. */
export function razorpayWebhookSignature(webhookSecret: string, rawBody: Buffer | string): string {
  return hmacHex(webhookSecret, rawBody);
}

/** Whether `given` is `expected` (hex), in time that does not depend on where they differ. */
export function signatureMatches(expected: string, given: string | undefined): boolean {
  if (!given) return false;
  const a = Buffer.from(expected, 'utf8');
  const b = Buffer.from(given.trim().toLowerCase(), 'utf8');
  return a.length === b.length && timingSafeEqual(a, b);
}

const ZCreatedLink = z.object({ id: z.string().min(1), short_url: z.url() });

/** Razorpay sends an empty notes object as `[]`. */
const ZNotes = z.union([z.record(z.string(), z.unknown()), z.array(z.unknown())]);

const ZEvent = z.object({ event: z.string().min(1) });

const ZLinkPaidEvent = z.object({
  payload: z.object({
    payment_link: z.object({
      entity: z.object({
        id: z.string().min(1),
        reference_id: z.string().min(1),
        status: z.string(),
        amount_paid: z.number().int().nonnegative(),
        currency: z.string().min(1),
        notes: ZNotes.optional(),
      }),
    }),
    payment: z.object({ entity: z.object({ id: z.string().min(1) }) }),
  }),
});

/** The kind of payable we put in the link's notes (payable-kinds.ts). */
const NOTE_PAYABLE = 'payable';
const NOTE_PAYMENT_ID = 'payment_id';
/** Razorpay's limit on a payment link's description. */
const MAX_DESCRIPTION = 2048;

/**
 * Razorpay (the gateway Indian clinics use most) through its Payment Links API (DECISIONS.md
 * "Razorpay"). A link is made with our reference as its `reference_id` and a return address that
 * already carries `payment-id={reference}`, so Razorpay's return lands on the login page's
 * payment-id flow unchanged; Razorpay appends its signed parameters, which `verifyPayment` checks.
 * Paid links are also reported by webhook (`webhook`), which settles a payment whose payer never
 * came back.
 */
export class RazorpayPaymentProvider implements PaymentProvider {
  readonly name = RAZORPAY_PAYMENT_PROVIDER;
  readonly webhook: PaymentWebhookReader;

  constructor(private readonly options: TRazorpayOptions) {
    this.webhook = { read: (rawBody, headers) => this.readWebhook(rawBody, headers) };
  }

  async createPaymentLink(request: TPaymentLinkRequest): Promise<{ reference: string; url: string }> {
    // Razorpay keeps reference_id unique per account (at most 40 characters): 120 random bits.
    const reference = `rf${randomBytes(15).toString('hex')}`;
    const callback = new URL(request.returnUrl);
    callback.searchParams.set(PAYMENT_ID_PARAM, reference);
    const auth = Buffer.from(`${this.options.keyId}:${this.options.keySecret}`).toString('base64');
    const response = await fetch(new URL('/v1/payment_links', this.options.apiUrl), {
      method: 'POST',
      headers: { authorization: `Basic ${auth}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        amount: request.amountMinor,
        currency: request.currency,
        accept_partial: false,
        description: request.description.slice(0, MAX_DESCRIPTION),
        reference_id: reference,
        callback_url: callback.toString(),
        callback_method: 'get',
        // We send the link ourselves (the payers' e-mail, the payment page).
        notify: { sms: false, email: false },
        reminder_enable: false,
        notes: { [NOTE_PAYABLE]: request.payable, [NOTE_PAYMENT_ID]: String(request.paymentId) },
      }),
      signal: AbortSignal.timeout(this.options.timeoutMs ?? 15_000),
    });
    const text = await response.text();
    if (!response.ok) {
      // Razorpay's error body names the problem (`error.description`); never our credentials.
      let description = text.slice(0, 300);
      try {
        const parsed = JSON.parse(text) as { error?: { description?: unknown } };
        if (typeof parsed.error?.description === 'string') description = parsed.error.description;
      } catch {
        // Not JSON: the text as it came.
      }
      throw new Error(`Razorpay answered ${response.status}: ${description}`);
    }
    const link = ZCreatedLink.safeParse(JSON.parse(text));
    if (!link.success) throw new Error('Razorpay answered a payment link without id or short_url');
    return { reference, url: link.data.short_url };
  }

  /**
   * PAID only with Razorpay's signed return for this reference with status `paid`; anything else
   * (no parameters, another link's, a forged or tampered signature, partially paid) is PENDING, and
   * the webhook settles it if it was paid.
   */
  async verifyPayment(
    reference: string,
    returnParams: Readonly<Record<string, string>>,
  ): Promise<TProviderPaymentStatus> {
    const p = RAZORPAY_RETURN_PARAMS;
    const linkId = returnParams[p.linkId];
    const referenceId = returnParams[p.referenceId];
    const status = returnParams[p.status];
    const paymentId = returnParams[p.paymentId];
    if (!linkId || !status || !paymentId || referenceId !== reference) return 'PENDING';
    const expected = razorpayReturnSignature(this.options.keySecret, {
      linkId,
      referenceId,
      status,
      paymentId,
    });
    if (!signatureMatches(expected, returnParams[p.signature])) return 'PENDING';
    return status === 'paid' ? 'PAID' : 'PENDING';
  }

  private readWebhook(
    rawBody: Buffer,
    headers: Readonly<Record<string, string | undefined>>,
  ): TWebhookReading {
    const expected = razorpayWebhookSignature(this.options.webhookSecret, rawBody);
    if (!signatureMatches(expected, headers[RAZORPAY_SIGNATURE_HEADER])) {
      return { ok: false, problem: 'SIGNATURE', message: 'The webhook signature is missing or wrong' };
    }
    const eventId = headers[RAZORPAY_EVENT_ID_HEADER]?.trim();
    if (!eventId) {
      return { ok: false, problem: 'INPUT', message: `${RAZORPAY_EVENT_ID_HEADER} is required` };
    }
    let json: unknown;
    try {
      json = JSON.parse(rawBody.toString('utf8'));
    } catch {
      return { ok: false, problem: 'INPUT', message: 'The webhook body is not JSON' };
    }
    const event = ZEvent.safeParse(json);
    if (!event.success) return { ok: false, problem: 'INPUT', message: 'The webhook body names no event' };
    const type = event.data.event;
    if (type !== RAZORPAY_LINK_PAID_EVENT) return { ok: true, event: { eventId, type, paid: null } };
    const paid = ZLinkPaidEvent.safeParse(json);
    if (!paid.success) {
      return { ok: false, problem: 'INPUT', message: `A ${type} event without its payment link and payment` };
    }
    const link = paid.data.payload.payment_link.entity;
    const notes = link.notes && !Array.isArray(link.notes) ? link.notes : {};
    const payable = notes[NOTE_PAYABLE];
    return {
      ok: true,
      event: {
        eventId,
        type,
        paid:
          link.status === 'paid'
            ? {
                payable: typeof payable === 'string' ? payable : '',
                reference: link.reference_id,
                providerPaymentId: paid.data.payload.payment.entity.id,
                amountMinor: link.amount_paid,
                currency: link.currency,
              }
            : null,
      },
    };
  }
}
