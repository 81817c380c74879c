import { describe, expect, it } from 'vitest';
import { createAppContext } from './context.js';
import type { Db } from './db/client.js';
import { OutboxEmailProvider, SmtpEmailProvider } from './modules/outbox/email-provider.js';
import { OutboxPaymentProvider } from './modules/payments/payment-provider.js';
import { RazorpayPaymentProvider } from './modules/payments/razorpay-provider.js';
import type { BlobStore } from './modules/storage/blob-store.js';

// The providers only keep the database until they send; choosing them touches neither.
const base = { db: {} as Db, blobs: {} as BlobStore };
const request = { protocol: 'http', host: 'lan-host:8080' };

describe('createAppContext: one place the providers and the public address are chosen', () => {
  it('links use PUBLIC_URL when set, else the address the request came to', () => {
    expect(createAppContext(base).publicUrlOf(request)).toBe('http://lan-host:8080');
    const configured = createAppContext({ ...base, publicUrl: 'https://radflow.example' });
    expect(configured.publicUrl).toBe('https://radflow.example');
    expect(configured.publicUrlOf(request)).toBe('https://radflow.example');
  });

  it('e-mail goes over SMTP only with SMTP_URL', () => {
    expect(createAppContext(base).email).toBeInstanceOf(OutboxEmailProvider);
    expect(createAppContext({ ...base, smtpUrl: 'smtp://127.0.0.1:2525' }).email).toBeInstanceOf(
      SmtpEmailProvider,
    );
  });

  it('without PAYMENT_TEST_GATEWAY the payment provider makes no pay link', async () => {
    const link = await createAppContext(base).payment.createPaymentLink({
      payable: 'STUDY_PAYMENT',
      paymentId: 1,
      amountMinor: 50_000,
      currency: 'INR',
      description: 'CT head',
      returnUrl: 'https://radflow.example/login-page',
    });
    expect(link.url).toBeNull();
  });

  it('a provider given by the caller replaces the chosen one, and only that one', async () => {
    const sent: string[] = [];
    const ctx = createAppContext({
      ...base,
      smtpUrl: 'smtp://127.0.0.1:2525',
      providers: { sms: { send: async (m) => void sent.push(m.to) } },
    });
    await ctx.sms.send({ to: '9876543210', body: 'code' });
    expect(sent).toEqual(['9876543210']);
    expect(ctx.email).toBeInstanceOf(SmtpEmailProvider);
  });

  it('payments go through Razorpay only with its settings (PAYMENT_PROVIDER=razorpay)', () => {
    expect(createAppContext(base).payment).toBeInstanceOf(OutboxPaymentProvider);
    const razorpay = { keyId: 'k', keySecret: 's', webhookSecret: 'w', apiUrl: 'https://api.razorpay.com' };
    expect(createAppContext({ ...base, razorpay }).payment).toBeInstanceOf(RazorpayPaymentProvider);
  });
});
