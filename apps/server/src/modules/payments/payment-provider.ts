import { randomBytes, timingSafeEqual } from 'node:crypto';
import { PAYMENT_ID_PARAM, type TProviderPaymentStatus } from '@radflow/core';
import type { AppSecrets } from '../secrets/app-secrets.js';

/** What we ask a provider for: a link where the payer pays one request. */
export interface TPaymentLinkRequest {
  /** Our id of the request (study_payments.id), for the provider's records. */
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
 * for a request and says, when asked, whether it was paid. A real gateway is one more implementation;
 * none is reachable from the machine this was built on.
 */
export interface PaymentProvider {
  /** Kept with each request (study_payments.provider): a reference means something to its provider only. */
  readonly name: string;
  createPaymentLink(request: TPaymentLinkRequest): Promise<{ reference: string; url: string }>;
  /**
   * The provider's answer for a reference. `returnParams` are the parameters it added to the return
   * address (a gateway's signed callback); a gateway with a status API asks it instead.
   */
  verifyPayment(
    reference: string,
    returnParams: Readonly<Record<string, string>>,
  ): Promise<TProviderPaymentStatus>;
}

export const OUTBOX_PAYMENT_PROVIDER = 'outbox';
const TEST_SIGNATURE_PARAM = 'test-signature';

/**
 * The default provider: no money moves. The pay link is a simulated gateway's return address —
 * `{returnUrl}?payment-id={reference}&test-signature={HMAC}` — so following it "pays" (the
 * deterministic test confirmation stories and demos use). verifyPayment answers PAID only with that
 * signature, made with a server secret, so a reference alone or a forged signature stays PENDING.
 * The payer learns the link from the e-mail the payments service records in the outbox.
 */
export class OutboxPaymentProvider implements PaymentProvider {
  readonly name = OUTBOX_PAYMENT_PROVIDER;

  constructor(private readonly secrets: AppSecrets) {}

  private async signatureOf(reference: string): Promise<string> {
    // The 'otp' secret, domain-separated, as the share page's access cookie does.
    return (await this.secrets.hmac('otp', `payment-test:${reference}:PAID`)).toString('base64url');
  }

  async createPaymentLink(request: TPaymentLinkRequest): Promise<{ reference: string; url: string }> {
    const reference = `pay_${randomBytes(15).toString('base64url')}`;
    const url = new URL(request.returnUrl);
    url.searchParams.set(PAYMENT_ID_PARAM, reference);
    url.searchParams.set(TEST_SIGNATURE_PARAM, await this.signatureOf(reference));
    return { reference, url: url.toString() };
  }

  async verifyPayment(
    reference: string,
    returnParams: Readonly<Record<string, string>>,
  ): Promise<TProviderPaymentStatus> {
    const given = Buffer.from(returnParams[TEST_SIGNATURE_PARAM] ?? '');
    const expected = Buffer.from(await this.signatureOf(reference));
    return given.length === expected.length && timingSafeEqual(given, expected) ? 'PAID' : 'PENDING';
  }
}
