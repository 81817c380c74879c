import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  RazorpayPaymentProvider,
  razorpayReturnSignature,
  razorpayWebhookSignature,
  signatureMatches,
} from './razorpay-provider.js';

/**
 * Razorpay's two signatures (the payer's return and the webhook), checked against a local signer:
 * node:crypto's HMAC over the documented formats, written out here, not the code under test.
 */
const keySecret = 'key-secret';
const webhookSecret = 'webhook-secret';
const provider = new RazorpayPaymentProvider({
  keyId: 'rzp_test',
  keySecret,
  webhookSecret,
  apiUrl: 'http://127.0.0.1:9',
});
const sign = (secret: string, payload: string) => createHmac('sha256', secret).update(payload).digest('hex');

describe('the HMAC-SHA256 hex the signatures are made of', () => {
  it('is the RFC 4231 test vector', () => {
    expect(razorpayWebhookSignature('Jefe', 'what do ya want for nothing?')).toBe(
      '5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843',
    );
  });

  it('compares whole signatures only', () => {
    const good = sign(webhookSecret, 'body');
    expect(signatureMatches(good, good)).toBe(true);
    expect(signatureMatches(good, good.toUpperCase())).toBe(true);
    expect(signatureMatches(good, good.slice(0, -1))).toBe(false);
    expect(signatureMatches(good, `${good}0`)).toBe(false);
    expect(signatureMatches(good, undefined)).toBe(false);
    expect(signatureMatches(good, '')).toBe(false);
  });
});

describe("the payer's return (payment link callback)", () => {
  const reference = 'rf0123456789abcdef';
  const signed = (secret = keySecret, status = 'paid') => ({
    'payment-id': reference,
    razorpay_payment_id: 'pay_1',
    razorpay_payment_link_id: 'plink_1',
    razorpay_payment_link_reference_id: reference,
    razorpay_payment_link_status: status,
    razorpay_signature: sign(secret, `plink_1|${reference}|${status}|pay_1`),
  });

  it('signs link id | reference id | status | payment id with the key secret', () => {
    expect(
      razorpayReturnSignature(keySecret, {
        linkId: 'plink_1',
        referenceId: reference,
        status: 'paid',
        paymentId: 'pay_1',
      }),
    ).toBe(signed().razorpay_signature);
  });

  it('is PAID only with a good signature of status paid for this reference', async () => {
    expect(await provider.verifyPayment(reference, signed())).toBe('PAID');
    expect(await provider.verifyPayment(reference, signed('another-secret'))).toBe('PENDING');
    expect(await provider.verifyPayment(reference, signed(keySecret, 'partially_paid'))).toBe('PENDING');
    expect(
      await provider.verifyPayment(reference, { ...signed(), razorpay_payment_link_status: 'paid ' }),
    ).toBe('PENDING');
    expect(await provider.verifyPayment(reference, { ...signed(), razorpay_payment_id: 'pay_2' })).toBe(
      'PENDING',
    );
    expect(await provider.verifyPayment('rf_other', signed())).toBe('PENDING');
    expect(await provider.verifyPayment(reference, { 'payment-id': reference })).toBe('PENDING');
  });
});

describe('the webhook (X-Razorpay-Signature over the raw body)', () => {
  const body = Buffer.from(
    JSON.stringify({
      event: 'payment_link.paid',
      payload: {
        payment_link: {
          entity: {
            id: 'plink_1',
            reference_id: 'rf1',
            status: 'paid',
            amount_paid: 30000,
            currency: 'INR',
            notes: { payable: 'STUDY_PAYMENT' },
          },
        },
        payment: { entity: { id: 'pay_9' } },
      },
    }),
  );
  const headers = (signature: string, eventId = 'evt_1') => ({
    'x-razorpay-signature': signature,
    'x-razorpay-event-id': eventId,
  });

  it('reads a well-signed payment_link.paid', () => {
    expect(provider.webhook.read(body, headers(sign(webhookSecret, body.toString())))).toEqual({
      ok: true,
      event: {
        eventId: 'evt_1',
        type: 'payment_link.paid',
        paid: {
          payable: 'STUDY_PAYMENT',
          reference: 'rf1',
          providerPaymentId: 'pay_9',
          amountMinor: 30000,
          currency: 'INR',
        },
      },
    });
  });

  it('refuses a bad, missing or wrong-secret signature and a tampered body', () => {
    const refused = { ok: false, problem: 'SIGNATURE' };
    expect(provider.webhook.read(body, headers('00'.repeat(32)))).toMatchObject(refused);
    expect(provider.webhook.read(body, { 'x-razorpay-event-id': 'evt_1' })).toMatchObject(refused);
    expect(provider.webhook.read(body, headers(sign(keySecret, body.toString())))).toMatchObject(refused);
    const tampered = Buffer.from(body.toString().replace('30000', '30001'));
    expect(provider.webhook.read(tampered, headers(sign(webhookSecret, body.toString())))).toMatchObject(
      refused,
    );
    // Re-serialised JSON (other spacing) is not the body Razorpay signed.
    const reformatted = Buffer.from(JSON.stringify(JSON.parse(body.toString()), null, 1));
    expect(provider.webhook.read(reformatted, headers(sign(webhookSecret, body.toString())))).toMatchObject(
      refused,
    );
  });

  it('reads the same event id from a replay (the store dedupes by it) and needs one', () => {
    const good = sign(webhookSecret, body.toString());
    const first = provider.webhook.read(body, headers(good, 'evt_same'));
    const replay = provider.webhook.read(body, headers(good, 'evt_same'));
    expect(first).toEqual(replay);
    expect(first).toMatchObject({ ok: true, event: { eventId: 'evt_same' } });
    expect(provider.webhook.read(body, { 'x-razorpay-signature': good })).toMatchObject({
      ok: false,
      problem: 'INPUT',
    });
  });

  it('acknowledges other events without a payment, and takes empty notes ([]) as no payable', () => {
    const other = Buffer.from(JSON.stringify({ event: 'payment_link.expired', payload: {} }));
    expect(provider.webhook.read(other, headers(sign(webhookSecret, other.toString())))).toEqual({
      ok: true,
      event: { eventId: 'evt_1', type: 'payment_link.expired', paid: null },
    });
    const noNotes = Buffer.from(body.toString().replace('{"payable":"STUDY_PAYMENT"}', '[]'));
    expect(provider.webhook.read(noNotes, headers(sign(webhookSecret, noNotes.toString())))).toMatchObject({
      ok: true,
      event: { paid: { payable: '' } },
    });
  });
});
