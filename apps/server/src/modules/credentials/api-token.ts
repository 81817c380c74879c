import { createHash, randomBytes } from 'node:crypto';
import { and, asc, count, eq, gt, lte, sql } from 'drizzle-orm';
import {
  API_TOKEN_MAX_PER_USER,
  API_TOKEN_TTL_DAYS,
  AppError,
  type TApiTokenInfo,
  canUseApiToken,
} from '@radflow/core';
import type { DbOrTx } from '../../db/client.js';
import { type TUserRow, apiTokens, sessions, users } from '../../db/schema.js';
import { rolesOf } from '../current-user/current-user.js';

/**
 * Personal API tokens for DICOM clients (GET /api/user/token; DECISIONS.md beside this file): 32
 * random bytes after a `rft_` prefix, stored only as their SHA-256, valid for API_TOKEN_TTL_DAYS.
 * They authenticate the DICOMweb routes only (plugins/auth.ts), for users whose roles may use
 * DICOMweb (core canUseApiToken). Revoked by their owner, with the device they were minted from
 * (the admin rejects it), by a password change, and refused once the account is inactive.
 */
export const API_TOKEN_PREFIX = 'rft_';
const TOKEN_PATTERN = /^rft_[A-Za-z0-9_-]{43}$/;
/** How many leading characters the owner's list shows, to tell tokens apart. */
const HINT_LENGTH = 8;
/** last_used_at is written at most this often per token, not on every DICOMweb request. */
const LAST_USED_RESOLUTION_MS = 60_000;

export const MESSAGE_API_TOKEN_NOT_ALLOWED = 'Your role cannot use DICOMweb API tokens';
export const MESSAGE_API_TOKEN_LIMIT = `You have ${API_TOKEN_MAX_PER_USER} API tokens; revoke one first`;
export const MESSAGE_NO_SUCH_API_TOKEN = 'No such API token';

function hashOf(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/**
 * Mints a token for the signed-in user, tied to the device of their session. 403 for roles that may
 * not use DICOMweb; 409 past API_TOKEN_MAX_PER_USER live tokens (expired ones are cleared first).
 */
export async function mintApiToken(
  db: DbOrTx,
  opts: { user: TUserRow; sessionId: string; now: Date },
): Promise<{ token: string; id: number; expiresAt: Date }> {
  if (!canUseApiToken(rolesOf(opts.user))) throw new AppError('FORBIDDEN', MESSAGE_API_TOKEN_NOT_ALLOWED);
  const token = `${API_TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
  const expiresAt = new Date(opts.now.getTime() + API_TOKEN_TTL_DAYS * 86_400_000);
  return db.transaction(async (tx) => {
    // Serialises concurrent mints of one user, so the cap holds.
    await tx.execute(sql`select id from ${users} where ${users.id} = ${opts.user.id} for update`);
    await tx
      .delete(apiTokens)
      .where(and(eq(apiTokens.userId, opts.user.id), lte(apiTokens.expiresAt, opts.now)));
    const [live] = await tx.select({ n: count() }).from(apiTokens).where(eq(apiTokens.userId, opts.user.id));
    if ((live?.n ?? 0) >= API_TOKEN_MAX_PER_USER) throw new AppError('CONFLICT', MESSAGE_API_TOKEN_LIMIT);
    const [session] = await tx
      .select({ deviceId: sessions.deviceId })
      .from(sessions)
      .where(eq(sessions.id, opts.sessionId));
    const [row] = await tx
      .insert(apiTokens)
      .values({
        userId: opts.user.id,
        tokenHash: hashOf(token),
        hint: token.slice(0, HINT_LENGTH),
        deviceId: session?.deviceId ?? null,
        createdAt: opts.now,
        expiresAt,
      })
      .returning({ id: apiTokens.id });
    if (!row) throw new Error('API token not stored');
    return { token, id: row.id, expiresAt };
  });
}

/**
 * The active user a live token belongs to, or null (malformed, unknown, expired, revoked, inactive
 * account, or a role that may no longer use DICOMweb).
 */
export async function findApiTokenUser(
  db: DbOrTx,
  token: string,
  now: Date,
): Promise<{ user: TUserRow; tokenId: number } | null> {
  if (!TOKEN_PATTERN.test(token)) return null;
  const [row] = await db
    .select({ user: users, tokenId: apiTokens.id, lastUsedAt: apiTokens.lastUsedAt })
    .from(apiTokens)
    .innerJoin(users, eq(users.id, apiTokens.userId))
    .where(and(eq(apiTokens.tokenHash, hashOf(token)), gt(apiTokens.expiresAt, now), eq(users.active, true)));
  if (!row || !canUseApiToken(rolesOf(row.user))) return null;
  if (!row.lastUsedAt || now.getTime() - row.lastUsedAt.getTime() >= LAST_USED_RESOLUTION_MS) {
    await db.update(apiTokens).set({ lastUsedAt: now }).where(eq(apiTokens.id, row.tokenId));
  }
  return { user: row.user, tokenId: row.tokenId };
}

/** The owner's live tokens, oldest first (never the token itself: only its hint). */
export async function listApiTokens(db: DbOrTx, userId: number, now: Date): Promise<TApiTokenInfo[]> {
  const rows = await db
    .select()
    .from(apiTokens)
    .where(and(eq(apiTokens.userId, userId), gt(apiTokens.expiresAt, now)))
    .orderBy(asc(apiTokens.createdAt), asc(apiTokens.id));
  return rows.map((r) => ({
    id: r.id,
    hint: r.hint,
    deviceId: r.deviceId,
    createdAt: r.createdAt.toISOString(),
    expiresAt: r.expiresAt.toISOString(),
    lastUsedAt: r.lastUsedAt?.toISOString() ?? null,
  }));
}

/** Revokes one of the owner's tokens; 404 for a token that is not theirs (or gone). */
export async function revokeApiToken(db: DbOrTx, userId: number, tokenId: number): Promise<void> {
  const deleted = await db
    .delete(apiTokens)
    .where(and(eq(apiTokens.id, tokenId), eq(apiTokens.userId, userId)))
    .returning({ id: apiTokens.id });
  if (deleted.length === 0) throw new AppError('NOT_FOUND', MESSAGE_NO_SUCH_API_TOKEN, String(tokenId));
}

/** Every token of the user (a password change). */
export async function revokeApiTokensOfUser(db: DbOrTx, userId: number): Promise<void> {
  await db.delete(apiTokens).where(eq(apiTokens.userId, userId));
}

/** The tokens minted from one device of the user (the admin rejected that device). */
export async function revokeApiTokensOfDevice(db: DbOrTx, userId: number, deviceId: string): Promise<void> {
  await db.delete(apiTokens).where(and(eq(apiTokens.userId, userId), eq(apiTokens.deviceId, deviceId)));
}
