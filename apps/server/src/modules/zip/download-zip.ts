import { eq } from 'drizzle-orm';
import type { Readable } from 'node:stream';
import { AppError, MESSAGES, type TZipAnonymizationType, ZIP_MESSAGES } from '@radflow/core';
import type { AppContext } from '../../context.js';
import { users } from '../../db/schema.js';
import type { TAuth } from '../../plugins/auth.js';
import { findCompletedZipRun } from '../job-runs/jobs-repository.js';
import { rolesOf } from '../current-user/current-user.js';
import { zipBlobKey } from './build-study-zip.js';
import { assertZipAllowed, findVisibleReport } from './zip-access.js';
import { sanitizeSegment } from './zip-layout.js';
import {
  ZIP_LINK_TTL_SECONDS,
  contentDisposition,
  parseRange,
  signZipGrant,
  verifyZipGrant,
} from './zip-link.js';

/**
 * GET /dicom-web/zip-v2/complete/studies/link/{id} (spec-core §4 Zip download, §7): the §5 rules,
 * then a link to the finished zip the caller gets (original or anonymised), valid 15 minutes.
 */
export async function createZipLink(
  ctx: AppContext,
  auth: TAuth,
  opts: { reportStatusId: number; withName: boolean; requested: TZipAnonymizationType | null | undefined },
): Promise<{ downloadUrl: string; expiresAt: string }> {
  const subject = await findVisibleReport(ctx, auth, opts.reportStatusId);
  const variant = await assertZipAllowed(ctx, auth, subject, opts.requested);
  const done = await findCompletedZipRun(ctx.db, subject.reportStatusId, variant);
  if (!done || (await ctx.blobs.size(zipBlobKey(subject.reportStatusId, variant))) === null) {
    throw new AppError('CONFLICT', ZIP_MESSAGES.zipNotReady);
  }
  const expiresAt = Math.floor(ctx.now().getTime() / 1000) + ZIP_LINK_TTL_SECONDS;
  const token = await signZipGrant(ctx, {
    reportStatusId: subject.reportStatusId,
    variant,
    userId: auth.user.id,
    expiresAt,
    withName: opts.withName,
  });
  return {
    downloadUrl: `/api/dicom-web/zip-v2/download/${token}`,
    expiresAt: new Date(expiresAt * 1000).toISOString(),
  };
}

export type TZipDownload =
  | { kind: 'gone' }
  | { kind: 'unsatisfiable'; size: number }
  | {
      kind: 'file';
      status: 200 | 206;
      headers: Record<string, string>;
      open: () => Readable;
    };

/**
 * GET /dicom-web/zip-v2/download/{token}: the link is checked (403 tampered, 410 expired), then the
 * link's user must still be active and still see the study; the zip is streamed whole or as one
 * byte range.
 */
export async function openZipDownload(
  ctx: AppContext,
  token: string,
  rangeHeader: string | undefined,
): Promise<TZipDownload> {
  const check = await verifyZipGrant(ctx, token);
  if (!check.ok) {
    if (check.reason === 'EXPIRED') return { kind: 'gone' };
    throw new AppError('FORBIDDEN', 'This download link is not valid');
  }
  const { grant } = check;
  const [user] = await ctx.db.select().from(users).where(eq(users.id, grant.userId));
  if (!user?.active) throw new AppError('FORBIDDEN', 'This download link is not valid');
  const auth: TAuth = { user, roles: rolesOf(user), sessionId: null };
  const subject = await findVisibleReport(ctx, auth, grant.reportStatusId);

  const key = zipBlobKey(grant.reportStatusId, grant.variant);
  const size = await ctx.blobs.size(key);
  if (size === null) throw new AppError('NOT_FOUND', MESSAGES.notFound);
  const range = parseRange(rangeHeader, size);
  if (range === 'UNSATISFIABLE') return { kind: 'unsatisfiable', size };

  const patient = sanitizeSegment(subject.patientName, '');
  const baseName =
    grant.withName && grant.variant === 'NONE' && patient
      ? `${grant.reportStatusId}_${patient}`
      : String(grant.reportStatusId);
  const headers: Record<string, string> = {
    'content-type': 'application/zip',
    'content-disposition': contentDisposition(baseName),
    'accept-ranges': 'bytes',
    'cache-control': 'private, no-store',
    'content-length': String(range ? range.end - range.start : size),
  };
  if (range) headers['content-range'] = `bytes ${range.start}-${range.end - 1}/${size}`;
  return {
    kind: 'file',
    status: range ? 206 : 200,
    headers,
    open: () => ctx.blobs.get(key, range ?? undefined),
  };
}
