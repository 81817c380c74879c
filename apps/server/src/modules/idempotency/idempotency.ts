import { and, eq, sql } from 'drizzle-orm';
import { AppError } from '@radflow/core';
import type { DbOrTx } from '../../db/client.js';
import { idempotentWrites } from '../../db/schema.js';
import type { TAuth } from '../../plugins/auth.js';

/*
 * The one store of Idempotency-Key answers (`idempotent_writes`): the lab bill and its payments,
 * the tele invoice payment and the platform billing payment all call it. A module of its own, so that
 * none of them imports another's module for it.
 */

/** pg_advisory_xact_lock class of idempotency keys (other classes: rate-limit.ts, slot-bookings.ts). */
const IDEMPOTENCY_LOCK = 72_001;

const KEY_PATTERN = /^[\x21-\x7e]{1,200}$/;

/** The Idempotency-Key header as sent (trimmed), or null; a malformed key is a 400. */
export function idempotencyKeyOf(headers: Record<string, string | string[] | undefined>): string | null {
  const raw = headers['idempotency-key'];
  const key = (Array.isArray(raw) ? raw[0] : raw)?.trim();
  if (!key) return null;
  if (!KEY_PATTERN.test(key)) {
    throw new AppError(
      'BAD_REQUEST',
      'Idempotency-Key must be 1 to 200 visible characters',
      'Idempotency-Key',
    );
  }
  return key;
}

/**
 * Runs a write once per (user, key), inside the write's own transaction: the key is locked first, so
 * a double-click's second request waits for the first to commit and then answers the stored first
 * answer; a first attempt that failed stored nothing, so its repeat runs afresh. The same key on
 * another call is refused.
 */
export async function onceForKey<T>(
  tx: DbOrTx,
  auth: TAuth,
  key: string | null,
  operation: string,
  write: () => Promise<T>,
): Promise<T> {
  if (key === null) return write();
  await tx.execute(
    sql`SELECT pg_advisory_xact_lock(${IDEMPOTENCY_LOCK}::int, hashtext(${`${auth.user.id}:${key}`}))`,
  );
  const [stored] = await tx
    .select({ operation: idempotentWrites.operation, response: idempotentWrites.response })
    .from(idempotentWrites)
    .where(and(eq(idempotentWrites.userId, auth.user.id), eq(idempotentWrites.key, key)));
  if (stored) {
    if (stored.operation !== operation) {
      throw new AppError('CONFLICT', 'This Idempotency-Key was used for another request', 'Idempotency-Key');
    }
    return stored.response as T;
  }
  const response = await write();
  await tx.insert(idempotentWrites).values({ userId: auth.user.id, key, operation, response });
  return response;
}
