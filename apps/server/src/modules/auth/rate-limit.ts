import { and, count, desc, eq, gt, inArray, isNotNull, max, or, sql, type SQL } from 'drizzle-orm';
import {
  CUSTOMER_LOOKUP_MAX_PER_ADDRESS,
  CUSTOMER_LOOKUP_MAX_PER_NUMBER,
  LOGIN_BACKOFF_BASE_SECONDS,
  LOGIN_MAX_FAILURES_PER_ADDRESS,
  LOGIN_MAX_FAILURES_PER_IDENTIFIER,
  LOGIN_RATE_WINDOW_SECONDS,
} from '@radflow/core';
import type { DbOrTx } from '../../db/client.js';
import { TooManyRequestsError, describeWait } from '../../errors.js';
import { loginEvents } from '../../db/schema.js';

/** Events that count as a failed password or code check. */
const FAILURE_EVENTS = ['LOGIN_FAILED', 'OTP_FAILED', 'PASSWORD_CHANGE_FAILED'];

export interface TRateLimitInput {
  identifier: string;
  userId: number | null;
  clientAddress: string;
  /** The X-Device-Id of the attempt, when the client sent one. */
  deviceId: string | null;
  now: Date;
}

/**
 * The throttle on password and code checks (sign-in, and change-password's current password), read
 * from the audit log so it holds across server processes. A slow-down, not a lock (NIST 800-63B
 * §5.2.2; SIGN-IN.md): within the sliding window of LOGIN_RATE_WINDOW_SECONDS,
 * - per account: LOGIN_MAX_FAILURES_PER_IDENTIFIER free failures since the account's last success,
 *   counted by the identifier typed or the account. From a device the account has signed in from
 *   before, only that device's failures count, so an attacker elsewhere cannot keep the owner out;
 * - per client address: LOGIN_MAX_FAILURES_PER_ADDRESS free failures across all identifiers.
 * Past the free ones, each further failure doubles the wait after it, from LOGIN_BACKOFF_BASE_SECONDS
 * up to the window. Returns the seconds until the next attempt is allowed, or 0 when one is allowed now.
 */
export async function signInRetryAfterSeconds(db: DbOrTx, input: TRateLimitInput): Promise<number> {
  const windowStart = new Date(input.now.getTime() - LOGIN_RATE_WINDOW_SECONDS * 1000);

  let accountSince = windowStart;
  let knownDevice = false;
  if (input.userId !== null) {
    const ofUser = and(eq(loginEvents.userId, input.userId), eq(loginEvents.eventType, 'LOGIN_SUCCESS'));
    const [[last], [device]] = await Promise.all([
      db
        .select({ at: max(loginEvents.createdAt) })
        .from(loginEvents)
        .where(ofUser),
      input.deviceId
        ? db
            .select({ id: loginEvents.id })
            .from(loginEvents)
            .where(and(ofUser, eq(loginEvents.deviceId, input.deviceId)))
            .limit(1)
        : [undefined],
    ]);
    if (last?.at && last.at > accountSince) accountSince = last.at;
    knownDevice = device !== undefined;
  }
  const byAccount = and(
    or(
      eq(loginEvents.email, input.identifier),
      input.userId !== null ? eq(loginEvents.userId, input.userId) : undefined,
    ),
    knownDevice && input.deviceId
      ? and(isNotNull(loginEvents.deviceId), eq(loginEvents.deviceId, input.deviceId))
      : undefined,
  );
  const waits = await Promise.all([
    backoff(db, byAccount, accountSince, LOGIN_MAX_FAILURES_PER_IDENTIFIER, input.now),
    backoff(
      db,
      eq(loginEvents.clientAddress, input.clientAddress),
      windowStart,
      LOGIN_MAX_FAILURES_PER_ADDRESS,
      input.now,
    ),
  ]);
  return Math.max(...waits);
}

/**
 * With n ≥ `free` failures since `since`, the next attempt waits base × 2^(n − free) seconds (at most
 * the window) after the latest failure.
 */
async function backoff(
  db: DbOrTx,
  scope: SQL | undefined,
  since: Date,
  free: number,
  now: Date,
): Promise<number> {
  const [row] = await db
    .select({ n: count(), last: max(loginEvents.createdAt) })
    .from(loginEvents)
    .where(and(scope, inArray(loginEvents.eventType, FAILURE_EVENTS), gt(loginEvents.createdAt, since)));
  if (!row?.last || row.n < free) return 0;
  const delaySeconds = Math.min(
    LOGIN_BACKOFF_BASE_SECONDS * 2 ** Math.min(row.n - free, 30),
    LOGIN_RATE_WINDOW_SECONDS,
  );
  const wait = Math.ceil((row.last.getTime() + delaySeconds * 1000 - now.getTime()) / 1000);
  return wait;
}

/** The 429 of the throttle, with Retry-After. */
export function tooManyAttempts(waitSeconds: number): TooManyRequestsError {
  return new TooManyRequestsError(
    `Too many failed sign-in attempts. Please try again ${describeWait(waitSeconds)}.`,
    waitSeconds,
  );
}

/**
 * A limit on an unauthenticated call that answers about a mobile number (or sends to it): at most
 * `maxPerAddress` answered calls per client address and `maxPerNumber` per number in the window,
 * counted from `eventType` lines of login_events. `locks` are the pg_advisory_xact_lock classes of
 * the two keys (distinct per limit, so two limits never wait on each other).
 */
export interface TRequestLimit {
  eventType: 'CUSTOMER_LOOKUP' | 'SIGNUP_OTP_REQUEST' | 'SIGN_IN_OTP_REQUEST';
  maxPerAddress: number;
  maxPerNumber: number;
  locks: { byAddress: number; byNumber: number };
}

/** POST /api/user/customer/is-new (a scanner answered 40 look-ups in 0.1 s). */
export const CUSTOMER_LOOKUP_LIMIT: TRequestLimit = {
  eventType: 'CUSTOMER_LOOKUP',
  maxPerAddress: CUSTOMER_LOOKUP_MAX_PER_ADDRESS,
  maxPerNumber: CUSTOMER_LOOKUP_MAX_PER_NUMBER,
  locks: { byAddress: 71_001, byNumber: 71_002 },
};

export interface TRequestLimitInput {
  mobile: string;
  clientAddress: string;
  deviceId: string | null;
  deviceName: string | null;
  now: Date;
}

/**
 * Counts one call against `limit` (requestLimitRetryAfterSeconds); past it, the 429 with
 * Retry-After, `tooMany` naming what there was too much of ('look-ups', 'codes requested').
 */
export async function countWithinLimit(
  db: DbOrTx,
  limit: TRequestLimit,
  input: TRequestLimitInput,
  tooMany: string,
): Promise<void> {
  const wait = await requestLimitRetryAfterSeconds(db, limit, input);
  if (wait > 0)
    throw new TooManyRequestsError(`Too many ${tooMany}. Please try again ${describeWait(wait)}.`, wait);
}

/**
 * Counts one call against `limit` (TRequestLimit), across processes. Count and insert are one step
 * under transaction-level advisory locks on the address and on the number (always in that order, so
 * two calls never wait on each other crosswise): parallel requests can neither all slip under the
 * limit nor, as a write-first-then-count scheme did on PostgreSQL, all see each other and all be
 * refused. A refused call writes nothing, so hammering does not push the window forward. Returns the
 * seconds to wait, or 0 (the call is counted).
 */
export async function requestLimitRetryAfterSeconds(
  db: DbOrTx,
  limit: TRequestLimit,
  input: TRequestLimitInput,
): Promise<number> {
  return db.transaction(async (tx) => {
    await tx.execute(
      sql`SELECT pg_advisory_xact_lock(${limit.locks.byAddress}::int, hashtext(${input.clientAddress}))`,
    );
    await tx.execute(
      sql`SELECT pg_advisory_xact_lock(${limit.locks.byNumber}::int, hashtext(${input.mobile}))`,
    );
    const since = new Date(input.now.getTime() - LOGIN_RATE_WINDOW_SECONDS * 1000);
    const byAddress = await lookupWait(
      tx,
      limit.eventType,
      eq(loginEvents.clientAddress, input.clientAddress),
      since,
      limit.maxPerAddress,
    );
    const byNumber = await lookupWait(
      tx,
      limit.eventType,
      eq(loginEvents.email, input.mobile),
      since,
      limit.maxPerNumber,
    );
    const wait = Math.max(
      ...[byAddress, byNumber].map((at) =>
        at ? Math.max(1, Math.ceil((at.getTime() - input.now.getTime()) / 1000)) : 0,
      ),
    );
    if (wait === 0) {
      await tx.insert(loginEvents).values({
        eventType: limit.eventType,
        email: input.mobile,
        clientAddress: input.clientAddress,
        deviceId: input.deviceId,
        deviceName: input.deviceName,
        createdAt: input.now,
      });
    }
    return wait;
  });
}

/** With `limit` calls in scope already, when the oldest of the latest `limit` leaves the window. */
async function lookupWait(
  db: DbOrTx,
  eventType: TRequestLimit['eventType'],
  scope: SQL,
  since: Date,
  limit: number,
): Promise<Date | null> {
  const recent = await db
    .select({ at: loginEvents.createdAt })
    .from(loginEvents)
    .where(and(scope, eq(loginEvents.eventType, eventType), gt(loginEvents.createdAt, since)))
    .orderBy(desc(loginEvents.createdAt), desc(loginEvents.id))
    .limit(limit);
  const blocking = recent[limit - 1];
  return blocking ? new Date(blocking.at.getTime() + LOGIN_RATE_WINDOW_SECONDS * 1000) : null;
}
