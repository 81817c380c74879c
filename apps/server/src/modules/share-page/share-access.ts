import { timingSafeEqual } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  AppError,
  SHARE_ACCESS_HOURS,
  SHARE_MESSAGES,
  SHARE_TOKEN_PATTERN,
  type TGroupFlags,
  groupFlags,
  isShareLinkExpired,
  maskMobile,
  shareLinkExpiresAt,
} from '@radflow/core';
import type { AppContext } from '../../context.js';
import { centers, reportStatuses, studies } from '../../db/schema.js';
import { loadGroupPreferences } from '../preferences/preferences.js';
import { rowModalities } from '../../db/row-modalities.js';

/** An answer with a status our error kinds do not name (410 Gone) goes through the error handler as is. */
export class ShareGoneError extends Error {
  readonly statusCode = 410;
}

/** The cookie a verified code sets, one per link (its Path is the link's API prefix). */
export const SHARE_ACCESS_COOKIE = 'rf_share';

/** The API prefix of one link: every share call lives under it, and the access cookie is scoped to it. */
export const shareApiPath = (token: string) => `/api/share/${token}`;

async function findSharedRow(ctx: AppContext, token: string) {
  const [row] = await ctx.db
    .select({
      id: reportStatuses.id,
      groupId: reportStatuses.groupId,
      status: reportStatuses.status,
      shareLink: reportStatuses.shareLink,
      shareLinkCreatedAt: reportStatuses.shareLinkCreatedAt,
      createdAt: reportStatuses.createdAt,
      backedUpAt: reportStatuses.backedUpAt,
      mobileNumber: reportStatuses.mobileNumber,
      patientName: reportStatuses.patientName,
      patientId: reportStatuses.patientId,
      patientSex: reportStatuses.patientSex,
      patientAge: reportStatuses.patientAge,
      studyName: reportStatuses.studyName,
      referringPhysicianName: reportStatuses.referringPhysicianName,
      studyId: studies.id,
      studyUid: studies.studyInstanceUid,
      studyDate: studies.studyDate,
      studyDescription: studies.studyDescription,
      modalities: rowModalities,
      instanceCount: studies.instanceCount,
      centerName: centers.name,
    })
    .from(reportStatuses)
    .innerJoin(studies, eq(studies.id, reportStatuses.studyId))
    .innerJoin(centers, eq(centers.id, reportStatuses.centerId))
    .where(eq(reportStatuses.shareLink, token));
  return row ?? null;
}

export type TSharedRow = NonNullable<Awaited<ReturnType<typeof findSharedRow>>>;

export interface TShareAccess {
  row: TSharedRow;
  flags: TGroupFlags;
  token: string;
  expiresAt: Date | null;
}

/**
 * The row a share link opens, or the refusal (in this order): a token that is not one of ours or
 * names no row → 404 (the same answer, so a malformed token tells nothing); a DELETED study that
 * was never backed up → 410 'This study has been deleted'; past `shareLinkValidityDays` since the
 * link was made → 410 'This link has expired'. A link made before share_link_created_at existed
 * counts from the row's creation (it can only expire sooner, never later).
 */
export async function openShareLink(ctx: AppContext, token: string): Promise<TShareAccess> {
  const notFound = new AppError('NOT_FOUND', SHARE_MESSAGES.linkNotFound);
  if (!SHARE_TOKEN_PATTERN.test(token)) throw notFound;
  const row = await findSharedRow(ctx, token);
  if (!row) throw notFound;
  if (row.status === 'DELETED' && !row.backedUpAt) throw new ShareGoneError(SHARE_MESSAGES.studyDeleted);
  const flags = groupFlags(await loadGroupPreferences(ctx.db, row.groupId));
  const madeAt = row.shareLinkCreatedAt ?? row.createdAt;
  if (isShareLinkExpired(madeAt, flags.shareLinkValidityDays, ctx.now())) {
    throw new ShareGoneError(SHARE_MESSAGES.linkExpired);
  }
  return { row, flags, token, expiresAt: shareLinkExpiresAt(madeAt, flags.shareLinkValidityDays) };
}

async function accessSignature(ctx: AppContext, token: string, expiresAtSeconds: number): Promise<string> {
  return (await ctx.secrets.hmac('otp', `share-access:${token}:${expiresAtSeconds}`)).toString('base64url');
}

/**
 * The access cookie's value after a verified code: `<expiry seconds>.<HMAC(token, expiry)>`, keyed
 * by the server secret, so it opens this link only and only until then; nothing is stored.
 */
export async function makeAccessCookie(
  ctx: AppContext,
  token: string,
): Promise<{ value: string; maxAge: number }> {
  const maxAge = SHARE_ACCESS_HOURS * 3600;
  const expiresAt = Math.floor(ctx.now().getTime() / 1000) + maxAge;
  return { value: `${expiresAt}.${await accessSignature(ctx, token, expiresAt)}`, maxAge };
}

export async function isAccessCookieValid(ctx: AppContext, token: string, value: string | undefined) {
  const match = value ? /^(\d{1,12})\.([A-Za-z0-9_-]{43})$/.exec(value) : null;
  if (!match?.[1] || !match[2]) return false;
  const expiresAt = Number(match[1]);
  if (expiresAt * 1000 <= ctx.now().getTime()) return false;
  const expected = Buffer.from(await accessSignature(ctx, token, expiresAt));
  const given = Buffer.from(match[2]);
  return expected.length === given.length && timingSafeEqual(expected, given);
}

export function setAccessCookie(
  request: FastifyRequest,
  reply: FastifyReply,
  token: string,
  cookie: { value: string; maxAge: number },
): void {
  reply.setCookie(SHARE_ACCESS_COOKIE, cookie.value, {
    httpOnly: true,
    sameSite: 'lax',
    secure: request.protocol === 'https',
    path: shareApiPath(token),
    maxAge: cookie.maxAge,
  });
}

/**
 * The link opened for this request: with the group's `requireOtpForSharedReport`, a valid access
 * cookie of this link is needed too, else 401 naming the masked mobile the code goes to (or 403 when
 * the row has no mobile to send one to).
 */
export async function requireShareAccess(
  ctx: AppContext,
  request: FastifyRequest,
  token: string,
): Promise<TShareAccess> {
  const access = await openShareLink(ctx, token);
  if (!access.flags.requireOtpForSharedReport) return access;
  if (await isAccessCookieValid(ctx, token, request.cookies[SHARE_ACCESS_COOKIE])) return access;
  throw codeRequiredError(access.row);
}

export function codeRequiredError(row: TSharedRow): AppError {
  if (!row.mobileNumber) return new AppError('FORBIDDEN', SHARE_MESSAGES.noMobileForCode);
  return new AppError('UNAUTHORIZED', SHARE_MESSAGES.codeRequired, maskMobile(row.mobileNumber));
}
