import { randomBytes, timingSafeEqual } from 'node:crypto';
import { PAYMENT_ID_PARAM, type TProviderPaymentStatus } from '@radflow/core';
import type { AppSecrets } from '../secrets/app-secrets.js';
import type { TPayableKind } from './payable-kinds.js';

/** What we ask a provider for: a link where the payer pays one request. */
export interface TPaymentLinkRequest {
  /**
   * What is paid for: the ledger its paid notification is routed to (payables.ts). The provider
   * keeps it with the link and gives it back in its webhook.
   */
  payable: TPayableKind;
  /** Our id of the row in that ledger (study_payments.id for a study payment), for the provider's records. */
  paymentId: number;
  amountMinor: number;
  currency: string;
  /** Shown to the payer: what the payment is for. */
  description: string;
  /**
   * Where the provider sends the payer back after paying: our login page (spec-core §2), to which the
   * provider adds `payment-id` and its own parameters.
   */
  returnUrl: string;
}

/**
 * A payment gateway, like the SMS and e-mail providers (DECISIONS.md "Providers"): makes a pay link
 * for a request and says, when asked, whether it was paid; a gateway that notifies us also reads its
 * webhook. Implementations: the outbox default (below) and Razorpay (razorpay-provider.ts).
 */
export interface PaymentProvider {
  /** Kept with each request (study_payments.provider): a reference means something to its provider only. */
  readonly name: string;
  /** `url` null: the provider takes no payment online (the payer pays at the center, staff record it). */
  createPaymentLink(request: TPaymentLinkRequest): Promise<{ reference: string; url: string | null }>;
  /**
   * The provider's answer for a reference. `returnParams` are the parameters it added to the return
   * address (a gateway's signed callback); a gateway with a status API asks it instead.
   */
  verifyPayment(
    reference: string,
    returnParams: Readonly<Record<string, string>>,
  ): Promise<TProviderPaymentStatus>;
  /**
   * A provider that notifies us by webhook (POST /api/payments/webhook/{name}): reads one call.
   * Absent: the provider sends none (the webhook answers 404).
   */
  readonly webhook?: PaymentWebhookReader;
}

/** A payment link paid in full, as the provider's signed notification says. */
export interface TProviderPaid {
  /** The kind the link was made for, as the provider gave it back (not yet checked against ours). */
  payable: string;
  /** Our reference of the link (what createPaymentLink answered). */
  reference: string;
  /** The provider's id of the payment (kept as the payment's transaction id). */
  providerPaymentId: string;
  /** What was paid, in minor units, and its currency: checked against the payable's amount. */
  amountMinor: number;
  currency: string;
}

/** One webhook call, its signature checked. */
export interface TProviderWebhookEvent {
  /** The provider's id of the event: a replay carries the same one. */
  eventId: string;
  type: string;
  /** Set when the event says a link was paid in full; every other event is only acknowledged. */
  paid: TProviderPaid | null;
}

export type TWebhookReading =
  | { ok: true; event: TProviderWebhookEvent }
  /** SIGNATURE: missing or wrong (401, nothing recorded); INPUT: signed but unreadable (400). */
  | { ok: false; problem: 'SIGNATURE' | 'INPUT'; message: string };

export interface PaymentWebhookReader {
  /** Checks the signature over the raw body (never a re-serialised one) before reading anything. */
  read(rawBody: Buffer, headers: Readonly<Record<string, string | undefined>>): TWebhookReading;
}

export const OUTBOX_PAYMENT_PROVIDER = 'outbox';
const TEST_SIGNATURE_PARAM = 'test-signature';

/**
 * The default provider: no money moves, and the request is recorded in the outbox (as the e-mail to
 * each payer). Without a gateway there is no online payment: no pay link, the payer pays at the
 * center and staff record it (cash, UPI, card). With `simulateGateway` (PAYMENT_TEST_GATEWAY, for the
 * browser stories and demos only) the pay link is a simulated gateway's return address —
 * `{returnUrl}?payment-id={reference}&test-signature={HMAC}` — so following it "pays". verifyPayment
 * answers PAID only with that signature, made with a server secret, so a reference alone or a forged
 * signature stays PENDING, and a server without the simulation never issues one.
 */
export class OutboxPaymentProvider implements PaymentProvider {
  readonly name = OUTBOX_PAYMENT_PROVIDER;

  constructor(
    private readonly secrets: AppSecrets,
    private readonly options: { simulateGateway: boolean } = { simulateGateway: false },
  ) {}

  private async signatureOf(reference: string): Promise<string> {
    // The 'otp' secret, domain-separated, as the share page's access cookie does.
    return (await this.secrets.hmac('otp', `payment-test:${reference}:PAID`)).toString('base64url');
  }

  async createPaymentLink(request: TPaymentLinkRequest): Promise<{ reference: string; url: string | null }> {
    const reference = `pay_${randomBytes(15).toString('base64url')}`;
    if (!this.options.simulateGateway) return { reference, url: null };
    const url = new URL(request.returnUrl);
    url.searchParams.set(PAYMENT_ID_PARAM, reference);
    url.searchParams.set(TEST_SIGNATURE_PARAM, await this.signatureOf(reference));
    return { reference, url: url.toString() };
  }

  async verifyPayment(
    reference: string,
    returnParams: Readonly<Record<string, string>>,
  ): Promise<TProviderPaymentStatus> {
    if (!this.options.simulateGateway) return 'PENDING';
    const given = Buffer.from(returnParams[TEST_SIGNATURE_PARAM] ?? '');
    const expected = Buffer.from(await this.signatureOf(reference));
    return given.length === expected.length && timingSafeEqual(given, expected) ? 'PAID' : 'PENDING';
  }
}
