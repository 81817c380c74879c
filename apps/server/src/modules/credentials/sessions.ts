import { createHash, randomBytes } from 'node:crypto';
import { and, eq, gt, lte, ne } from 'drizzle-orm';
import { SESSION_TTL_HOURS } from '@radflow/core';
import type { DbOrTx } from '../../db/client.js';
import { type TUserRow, sessions, users } from '../../db/schema.js';

export const SESSION_TTL_SECONDS = SESSION_TTL_HOURS * 3600;

/** The session row's id: a SHA-256 of the cookie's token (the token itself is never stored). */
export function sessionIdOf(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** Creates a session and returns the cookie token. */
export async function createSession(
  db: DbOrTx,
  opts: { userId: number; deviceId: string | null; now: Date },
): Promise<{ token: string; sessionId: string }> {
  const token = randomBytes(32).toString('base64url');
  const sessionId = sessionIdOf(token);
  await db.insert(sessions).values({
    id: sessionId,
    userId: opts.userId,
    deviceId: opts.deviceId,
    createdAt: opts.now,
    expiresAt: new Date(opts.now.getTime() + SESSION_TTL_SECONDS * 1000),
  });
  return { token, sessionId };
}

export async function deleteSessionByToken(db: DbOrTx, token: string): Promise<void> {
  const sessionId = sessionIdOf(token);
  forgetSession(sessionId);
  await db.delete(sessions).where(eq(sessions.id, sessionId));
  forgetSession(sessionId);
}

/**
 * How long this process trusts a session it looked up without asking the database again. Every
 * signed-in request needs its session and user; asking each time was a round trip and the mapping of
 * the whole user row per call (the list call's fixed cost, issue 4 §5). What this process changes
 * (sign-out, password change, revoked device, user edits that call forgetSessionsOfUser) is
 * forgotten at once; a change made by another process (a second server) shows here within this time.
 * The session's own expiry is checked on every request.
 */
export const SESSION_CACHE_MS = 5_000;
/** Entries kept at most; the oldest go first (a session is looked up again when it comes back). */
const SESSION_CACHE_MAX = 10_000;

interface TCachedSession {
  user: TUserRow;
  expiresAt: Date;
  /** performance.now() after which the database is asked again. */
  freshUntil: number;
}
const sessionCache = new Map<string, TCachedSession>();
/** Bumped by every forget: a look-up that raced with one does not store what it read. */
let cacheEpoch = 0;

function forgetSession(sessionId: string): void {
  cacheEpoch++;
  sessionCache.delete(sessionId);
}

/**
 * Forgets every cached session of a user: call it wherever the user row or their sessions change
 * (password, roles, center, active flag, revoked sessions), so the next request reads them again.
 */
export function forgetSessionsOfUser(userId: number): void {
  cacheEpoch++;
  for (const [id, cached] of sessionCache) if (cached.user.id === userId) sessionCache.delete(id);
}

/** The active user of an unexpired session, or null. */
export async function findSessionUser(
  db: DbOrTx,
  token: string,
  now: Date,
): Promise<{ user: TUserRow; sessionId: string } | null> {
  const sessionId = sessionIdOf(token);
  const cached = sessionCache.get(sessionId);
  if (cached && cached.freshUntil > performance.now()) {
    if (cached.expiresAt > now) return { user: cached.user, sessionId };
    sessionCache.delete(sessionId);
    return null;
  }
  const epoch = cacheEpoch;
  const [row] = await db
    .select({ user: users, expiresAt: sessions.expiresAt })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.id, sessionId), gt(sessions.expiresAt, now), eq(users.active, true)));
  if (!row) {
    sessionCache.delete(sessionId);
    return null;
  }
  if (epoch === cacheEpoch) {
    sessionCache.delete(sessionId);
    if (sessionCache.size >= SESSION_CACHE_MAX) {
      const oldest = sessionCache.keys().next();
      if (!oldest.done) sessionCache.delete(oldest.value);
    }
    sessionCache.set(sessionId, {
      user: row.user,
      expiresAt: row.expiresAt,
      freshUntil: performance.now() + SESSION_CACHE_MS,
    });
  }
  return { user: row.user, sessionId };
}

/** Ends every session of a user except `keepSessionId` (null: all of them). */
export async function revokeSessions(
  db: DbOrTx,
  userId: number,
  keepSessionId: string | null,
): Promise<void> {
  // The kept session is forgotten too: its user row (password hash, token version) is changing.
  forgetSessionsOfUser(userId);
  await db
    .delete(sessions)
    .where(
      keepSessionId
        ? and(eq(sessions.userId, userId), ne(sessions.id, keepSessionId))
        : eq(sessions.userId, userId),
    );
  forgetSessionsOfUser(userId);
}

export async function revokeDeviceSessions(db: DbOrTx, userId: number, deviceId: string): Promise<void> {
  forgetSessionsOfUser(userId);
  await db.delete(sessions).where(and(eq(sessions.userId, userId), eq(sessions.deviceId, deviceId)));
  forgetSessionsOfUser(userId);
}

/** Housekeeping at sign-in: the user's expired sessions go (no background job needed for this table). */
export async function deleteExpiredSessions(db: DbOrTx, userId: number, now: Date): Promise<void> {
  await db.delete(sessions).where(and(eq(sessions.userId, userId), lte(sessions.expiresAt, now)));
}
