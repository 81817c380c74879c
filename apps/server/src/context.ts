import type { TSupportContact } from '@radflow/core';
import type { Db } from './db/client.js';
import { AppSecrets } from './modules/secrets/app-secrets.js';
import {
  type EmailProvider,
  OutboxEmailProvider,
  SmtpEmailProvider,
} from './modules/outbox/email-provider.js';
import { OutboxSmsProvider, type SmsProvider } from './modules/outbox/sms-provider.js';
import { OutboxWhatsappProvider, type WhatsappProvider } from './modules/outbox/whatsapp-provider.js';
import { OutboxPaymentProvider, type PaymentProvider } from './modules/payments/payment-provider.js';
import { RazorpayPaymentProvider, type TRazorpayOptions } from './modules/payments/razorpay-provider.js';
import type { BlobStore } from './modules/storage/blob-store.js';
import { requestBaseUrl } from './modules/http.js';

/** The outside world the server talks to, each behind its interface. */
export interface TProviders {
  sms: SmsProvider;
  email: EmailProvider;
  whatsapp: WhatsappProvider;
  payment: PaymentProvider;
}

/**
 * What services need from the running app: the database, secrets, providers and the clock.
 *
 * This is the one place the outside-world providers and the public address are chosen, once, when
 * the app is built (`createAppContext`, from `buildApp`'s options, which main.ts fills from config).
 * Routes and services read them from here; no route builds or defaults one.
 *
 * | Field       | Config               | Unset                                           | Set                                              |
 * |-------------|----------------------|-------------------------------------------------|--------------------------------------------------|
 * | `sms`       | OUTBOX_MIRROR_FILE   | `OutboxSmsProvider`: records in message_outbox  | also appends each message to the file            |
 * | `email`     | SMTP_URL             | `OutboxEmailProvider`: records only             | `SmtpEmailProvider`: records, sends, SENT/FAILED |
 * | `whatsapp`  | OUTBOX_MIRROR_FILE   | `OutboxWhatsappProvider`: records only          | also appends each message to the file            |
 * | `payment`   | PAYMENT_PROVIDER     | outbox: `OutboxPaymentProvider` (below)         | razorpay: `RazorpayPaymentProvider` (RAZORPAY_*) |
 * |             | PAYMENT_TEST_GATEWAY | outbox: no online payment                       | outbox: the simulated gateway's pay link         |
 * | `publicUrl` | PUBLIC_URL           | null: `publicUrlOf` gives the request's address | that address, for every link                     |
 * URLs an answer hands back to its own caller (DICOMweb RetrieveURL, the viewer's DICOMweb root) use
 * the address the request came to instead (`requestBaseUrl`, modules/http.ts).
 * Every message (e-mail too) is recorded in message_outbox, and appended to OUTBOX_MIRROR_FILE when set.
 *
 * Tests replace a provider with `buildApp({ providers: { … } })`; the rest are still chosen here.
 */
export interface AppContext extends TProviders {
  db: Db;
  secrets: AppSecrets;
  /** Files: DICOM instances byte-for-byte, attachments, zips. */
  blobs: BlobStore;
  /** The clock; tests may replace it. */
  now(): Date;
  /** The deployment's support contact (config SUPPORT_PHONE / SUPPORT_EMAIL; null when unset). */
  support: TSupportContact;
  /** config PLATFORM_BILLING_NAME / _ADDRESS: the issuer of the platform's invoices; null when unset. */
  platformIssuer: TPlatformIssuer;
  /** config PUBLIC_URL: where users reach us; null when unset. Links are built from `publicUrlOf`. */
  publicUrl: string | null;
  /**
   * The base of every link we hand out (share links, pay links, set-password links, the report's QR,
   * Weasis): PUBLIC_URL, else the scheme and host the request came to (X-Forwarded-* from a trusted
   * proxy). The one rule for it.
   */
  publicUrlOf(request: { protocol: string; host: string }): string;
}

/** Who issues the platform's invoices, as configured (null: from the operator group's billing details). */
export interface TPlatformIssuer {
  name: string | null;
  address: string | null;
}

/** What the context is built from: `buildApp`'s options (main.ts: config). */
export interface TAppContextOptions {
  db: Db;
  blobs: BlobStore;
  now?: (() => Date) | undefined;
  support?: Partial<TSupportContact> | undefined;
  /** config PLATFORM_BILLING_NAME / PLATFORM_BILLING_ADDRESS. */
  platformIssuer?: Partial<TPlatformIssuer> | undefined;
  /** config PUBLIC_URL. */
  publicUrl?: string | undefined;
  /** config SMTP_URL: e-mail goes over SMTP; unset, it is only recorded in the outbox. */
  smtpUrl?: string | undefined;
  /** config OUTBOX_MIRROR_FILE: the recording providers also append each message to this file. */
  outboxMirrorFile?: string | undefined;
  /** config PAYMENT_TEST_GATEWAY: the default payment provider's simulated gateway. */
  paymentTestGateway?: boolean | undefined;
  /** config PAYMENT_PROVIDER=razorpay and RAZORPAY_*: payments through Razorpay (config.ts checks them). */
  razorpay?: TRazorpayOptions | undefined;
  /** Replacements for the chosen providers (tests: fakes, failing providers). */
  providers?: Partial<TProviders> | undefined;
}

/** Builds the app's context: chooses each provider and the public address (the table above). */
export function createAppContext(opts: TAppContextOptions): AppContext {
  const { db, outboxMirrorFile: mirror } = opts;
  const secrets = new AppSecrets(db);
  const publicUrl = opts.publicUrl ?? null;
  return {
    db,
    secrets,
    blobs: opts.blobs,
    now: opts.now ?? (() => new Date()),
    support: { phone: opts.support?.phone ?? null, email: opts.support?.email ?? null },
    platformIssuer: {
      name: opts.platformIssuer?.name ?? null,
      address: opts.platformIssuer?.address ?? null,
    },
    sms: opts.providers?.sms ?? new OutboxSmsProvider(db, mirror),
    email:
      opts.providers?.email ??
      (opts.smtpUrl ? new SmtpEmailProvider(db, opts.smtpUrl, mirror) : new OutboxEmailProvider(db, mirror)),
    whatsapp: opts.providers?.whatsapp ?? new OutboxWhatsappProvider(db, mirror),
    payment:
      opts.providers?.payment ??
      (opts.razorpay
        ? new RazorpayPaymentProvider(opts.razorpay)
        : new OutboxPaymentProvider(secrets, { simulateGateway: opts.paymentTestGateway ?? false })),
    publicUrl,
    publicUrlOf: (request) => publicUrl ?? requestBaseUrl(request),
  };
}

declare module 'fastify' {
  interface FastifyInstance {
    ctx: AppContext;
  }
}
