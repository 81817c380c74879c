import type { Db } from './db/client.js';
import type { AppSecrets } from './modules/secrets/app-secrets.js';
import type { SmsProvider } from './modules/outbox/sms-provider.js';

/** What services need from the running app: the database, secrets, providers and the clock. */
export interface AppContext {
  db: Db;
  secrets: AppSecrets;
  sms: SmsProvider;
  /** The clock; tests may replace it. */
  now(): Date;
}

declare module 'fastify' {
  interface FastifyInstance {
    ctx: AppContext;
  }
}
