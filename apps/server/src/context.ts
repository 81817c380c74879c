import type { TSupportContact } from '@radflow/core';
import type { Db } from './db/client.js';
import type { AppSecrets } from './modules/secrets/app-secrets.js';
import type { SmsProvider } from './modules/outbox/sms-provider.js';
import type { BlobStore } from './modules/storage/blob-store.js';

/** What services need from the running app: the database, secrets, providers and the clock. */
export interface AppContext {
  db: Db;
  secrets: AppSecrets;
  sms: SmsProvider;
  /** Files: DICOM instances byte-for-byte, attachments, zips. */
  blobs: BlobStore;
  /** The clock; tests may replace it. */
  now(): Date;
  /** The deployment's support contact (config SUPPORT_PHONE / SUPPORT_EMAIL; null when unset). */
  support: TSupportContact;
}

declare module 'fastify' {
  interface FastifyInstance {
    ctx: AppContext;
  }
}
