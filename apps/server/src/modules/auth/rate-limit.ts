import { and, desc, eq, gt, inArray, max, or } from 'drizzle-orm';
import {
  LOGIN_MAX_FAILURES_PER_ADDRESS,
  LOGIN_MAX_FAILURES_PER_IDENTIFIER,
  LOGIN_RATE_WINDOW_SECONDS,
} from '@radflow/core';
import type { DbOrTx } from '../../db/client.js';
import { loginEvents } from '../../db/schema.js';

/** Events that count as a failed sign-in. */
const FAILURE_EVENTS = ['LOGIN_FAILED', 'OTP_FAILED'];

export interface TRateLimitInput {
  identifier: string;
  userId: number | null;
  clientAddress: string;
  now: Date;
}

/**
 * The sign-in rate limit, read from the audit log so it holds across server processes: at most
 * LOGIN_MAX_FAILURES_PER_IDENTIFIER failures for an identifier (or its account; a successful sign-in
 * starts the count afresh) and LOGIN_MAX_FAILURES_PER_ADDRESS for a client address within the
 * sliding window of LOGIN_RATE_WINDOW_SECONDS. Returns the seconds until the next attempt is allowed,
 * or 0 when one is allowed now.
 */
export async function signInRetryAfterSeconds(db: DbOrTx, input: TRateLimitInput): Promise<number> {
  const windowMs = LOGIN_RATE_WINDOW_SECONDS * 1000;
  const windowStart = new Date(input.now.getTime() - windowMs);

  let identifierSince = windowStart;
  if (input.userId !== null) {
    const [last] = await db
      .select({ at: max(loginEvents.createdAt) })
      .from(loginEvents)
      .where(and(eq(loginEvents.userId, input.userId), eq(loginEvents.eventType, 'LOGIN_SUCCESS')));
    if (last?.at && last.at > identifierSince) identifierSince = last.at;
  }
  const byIdentifier = or(
    eq(loginEvents.email, input.identifier),
    input.userId !== null ? eq(loginEvents.userId, input.userId) : undefined,
  );
  const waits = await Promise.all([
    retryAfter(db, byIdentifier, identifierSince, LOGIN_MAX_FAILURES_PER_IDENTIFIER, input.now, windowMs),
    retryAfter(
      db,
      eq(loginEvents.clientAddress, input.clientAddress),
      windowStart,
      LOGIN_MAX_FAILURES_PER_ADDRESS,
      input.now,
      windowMs,
    ),
  ]);
  return Math.max(...waits);
}

/** With `limit` failures since `since`, the next attempt waits until the oldest of them leaves the window. */
async function retryAfter(
  db: DbOrTx,
  scope: ReturnType<typeof or>,
  since: Date,
  limit: number,
  now: Date,
  windowMs: number,
): Promise<number> {
  const recent = await db
    .select({ at: loginEvents.createdAt })
    .from(loginEvents)
    .where(and(scope, inArray(loginEvents.eventType, FAILURE_EVENTS), gt(loginEvents.createdAt, since)))
    .orderBy(desc(loginEvents.createdAt))
    .limit(limit);
  const oldest = recent[limit - 1];
  if (!oldest) return 0;
  return Math.max(1, Math.ceil((oldest.at.getTime() + windowMs - now.getTime()) / 1000));
}
