import { createHash, randomBytes } from 'node:crypto';
import { and, eq, gt, isNull } from 'drizzle-orm';
import {
  INVITATION_LINK_TTL_HOURS,
  PRODUCT_NAME,
  RESET_LINK_TTL_HOURS,
  SET_PASSWORD_PATH,
  type TInvitationChannel,
} from '@radflow/core';
import type { DbOrTx } from '../../db/client.js';
import { type TUserRow, passwordLinks } from '../../db/schema.js';
import type { EmailProvider } from '../outbox/email-provider.js';
import type { SmsProvider } from '../outbox/sms-provider.js';

export type TPasswordLinkPurpose = (typeof passwordLinks.$inferSelect)['purpose'];

/** The SHA-256 the table keeps of a link's token (the token itself is only in the message sent). */
export function linkTokenHash(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/**
 * A new set-password link for a user: 32 random bytes, stored as their hash, good for the purpose's
 * time; any older unused link of the user stops working (the newest message is the one to follow).
 */
export async function createPasswordLink(
  tx: DbOrTx,
  opts: { userId: number; purpose: TPasswordLinkPurpose; createdByUserId: number; now: Date },
): Promise<{ token: string; expiresAt: Date }> {
  const token = randomBytes(32).toString('base64url');
  const hours = opts.purpose === 'INVITE' ? INVITATION_LINK_TTL_HOURS : RESET_LINK_TTL_HOURS;
  const expiresAt = new Date(opts.now.getTime() + hours * 3_600_000);
  await dropUnusedLinks(tx, opts.userId);
  await tx.insert(passwordLinks).values({
    userId: opts.userId,
    tokenHash: linkTokenHash(token),
    purpose: opts.purpose,
    createdByUserId: opts.createdByUserId,
    createdAt: opts.now,
    expiresAt,
  });
  return { token, expiresAt };
}

/** Ends every unused link of a user (a new link, a deactivation, a password set). */
export async function dropUnusedLinks(tx: DbOrTx, userId: number): Promise<void> {
  await tx.delete(passwordLinks).where(and(eq(passwordLinks.userId, userId), isNull(passwordLinks.usedAt)));
}

/** The live link of a token: unused and unexpired, or undefined. */
export async function findLiveLink(db: DbOrTx, token: string, now: Date) {
  const [link] = await db
    .select()
    .from(passwordLinks)
    .where(
      and(
        eq(passwordLinks.tokenHash, linkTokenHash(token)),
        isNull(passwordLinks.usedAt),
        gt(passwordLinks.expiresAt, now),
      ),
    );
  return link;
}

export interface TLinkMessage {
  user: Pick<TUserRow, 'email' | 'identifier' | 'mobileNumber'>;
  purpose: TPasswordLinkPurpose;
  channel: TInvitationChannel;
  token: string;
  expiresAt: Date;
  groupName: string;
  invitedBy: string;
  /** Where users reach us (config PUBLIC_URL, else the address of the request). */
  publicUrl: string;
}

export interface TLinkSenders {
  email: EmailProvider;
  sms: SmsProvider;
}

/** The link as the message gives it. */
export function setPasswordUrl(publicUrl: string, token: string): string {
  return `${publicUrl.replace(/\/+$/, '')}${SET_PASSWORD_PATH}?token=${token}`;
}

const utc = (d: Date) => `${d.toISOString().slice(0, 16).replace('T', ' ')} UTC`;

/**
 * Sends the link by e-mail or SMS through the outbox providers. Called after the change is
 * committed: a message must never announce an account that a rolled-back transaction did not make.
 */
export async function sendPasswordLink(senders: TLinkSenders, m: TLinkMessage): Promise<string> {
  const url = setPasswordUrl(m.publicUrl, m.token);
  const until = utc(m.expiresAt);
  if (m.channel === 'SMS' && m.user.mobileNumber) {
    const body =
      m.purpose === 'INVITE'
        ? `${PRODUCT_NAME}: ${m.invitedBy} invited you to ${m.groupName}. Set your password (once, until ${until}): ${url}`
        : `${PRODUCT_NAME}: set a new password (once, until ${until}): ${url}`;
    await senders.sms.send({ to: m.user.mobileNumber, body });
    return m.user.mobileNumber;
  }
  const subject =
    m.purpose === 'INVITE'
      ? `Your ${PRODUCT_NAME} account at ${m.groupName}`
      : `Set a new ${PRODUCT_NAME} password`;
  const opening =
    m.purpose === 'INVITE'
      ? `${m.invitedBy} has invited you to ${m.groupName} on ${PRODUCT_NAME}.`
      : `${m.invitedBy} has sent you a link to set a new ${PRODUCT_NAME} password.`;
  const body = [
    `Hello ${m.user.identifier},`,
    '',
    opening,
    `You sign in as ${m.user.email}. Choose your password here:`,
    url,
    '',
    `The link works once, until ${until}. If you did not expect this message, ignore it.`,
  ].join('\n');
  await senders.email.send({ to: m.user.email, subject, body });
  return m.user.email;
}
