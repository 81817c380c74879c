import { randomBytes } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { reportStatuses } from '../../db/schema.js';

/**
 * A new share token: 192 random bits, base64url (32 characters). The link opens the study without
 * signing in, so it must not be guessable.
 */
export function newShareToken(): string {
  return randomBytes(24).toString('base64url');
}

/**
 * The SET columns that give a row its share link unless it has one: the token and, only when the
 * token is new, `share_link_created_at` (the expiry counts from there). Column references in an
 * UPDATE's SET read the row as it was, and PostgreSQL re-reads a row a concurrent update changed
 * before applying them, so two racing shares keep the first token.
 */
export function shareLinkColumns(token: string, now: Date) {
  return {
    shareLink: sql`coalesce(${reportStatuses.shareLink}, ${token})`,
    shareLinkCreatedAt: sql`case when ${reportStatuses.shareLink} is null then ${now.toISOString()}::timestamptz else ${reportStatuses.shareLinkCreatedAt} end`,
  };
}

/** The row's share token, made (and share_link_created_at set) when it has none; idempotent under races. */
export async function ensureShareLink(db: DbOrTx, reportStatusId: number, now: Date): Promise<string> {
  const [row] = await db
    .update(reportStatuses)
    .set(shareLinkColumns(newShareToken(), now))
    .where(eq(reportStatuses.id, reportStatusId))
    .returning({ shareLink: reportStatuses.shareLink });
  if (!row?.shareLink) throw new Error(`report row ${reportStatusId} not found for its share link`);
  return row.shareLink;
}
