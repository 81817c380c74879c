import { createHmac, randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { appSecrets } from '../../db/schema.js';

/** The server secrets, each generated once and kept in the database so every process shares it. */
export const SECRET_NAMES = ['api-token', 'chat-uid', 'otp', 'zip-link', 'anonymize'] as const;
export type TSecretName = (typeof SECRET_NAMES)[number];

/**
 * Reads the secrets, creating any that are missing. Two processes racing to create one both end up
 * with the row that won (insert … on conflict do nothing, then read).
 */
export class AppSecrets {
  // A cache of immutable values: every process reads the same rows.
  private readonly cache = new Map<TSecretName, Buffer>();

  constructor(private readonly db: Db) {}

  async get(name: TSecretName): Promise<Buffer> {
    const cached = this.cache.get(name);
    if (cached) return cached;
    await this.db
      .insert(appSecrets)
      .values({ name, value: randomBytes(32).toString('base64url') })
      .onConflictDoNothing();
    const [row] = await this.db.select().from(appSecrets).where(eq(appSecrets.name, name));
    if (!row) throw new Error(`secret ${name} could not be created`);
    const value = Buffer.from(row.value, 'base64url');
    this.cache.set(name, value);
    return value;
  }

  async hmac(name: TSecretName, data: string): Promise<Buffer> {
    return createHmac('sha256', await this.get(name))
      .update(data)
      .digest();
  }
}
