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
  await db.delete(sessions).where(eq(sessions.id, sessionIdOf(token)));
}

/** The active user of an unexpired session, or null. */
export async function findSessionUser(
  db: DbOrTx,
  token: string,
  now: Date,
): Promise<{ user: TUserRow; sessionId: string } | null> {
  const sessionId = sessionIdOf(token);
  const [row] = await db
    .select({ user: users })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.id, sessionId), gt(sessions.expiresAt, now), eq(users.active, true)));
  return row ? { user: row.user, sessionId } : null;
}

/** Ends every session of a user except `keepSessionId` (null: all of them). */
export async function revokeSessions(
  db: DbOrTx,
  userId: number,
  keepSessionId: string | null,
): Promise<void> {
  await db
    .delete(sessions)
    .where(
      keepSessionId
        ? and(eq(sessions.userId, userId), ne(sessions.id, keepSessionId))
        : eq(sessions.userId, userId),
    );
}

export async function revokeDeviceSessions(db: DbOrTx, userId: number, deviceId: string): Promise<void> {
  await db.delete(sessions).where(and(eq(sessions.userId, userId), eq(sessions.deviceId, deviceId)));
}

/** Housekeeping at sign-in: the user's expired sessions go (no background job needed for this table). */
export async function deleteExpiredSessions(db: DbOrTx, userId: number, now: Date): Promise<void> {
  await db.delete(sessions).where(and(eq(sessions.userId, userId), lte(sessions.expiresAt, now)));
}
