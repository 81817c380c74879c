import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { FastifyRequest } from 'fastify';
import { and, eq } from 'drizzle-orm';
import {
  ATTACHMENT_SNIFF_BYTES,
  AppError,
  MESSAGES,
  type TStudyAttachment,
  type TReportStatus,
  type TStudyAttachmentKind,
  attachmentContentType,
  attachmentFileProblem,
  attachmentTooLargeMessage,
  canDeleteStudyAttachment,
  canUploadStudyAttachment,
  sniffAttachment,
  readableAttachmentKinds,
} from '@radflow/core';
import type { AppContext } from '../../context.js';
import { studyAttachments } from '../../db/schema.js';
import { MESSAGE_NOT_ALLOWED, type TAuth, authOf } from '../../plugins/auth.js';
import { recordStudyEvent } from '../study-events/record-study-event.js';
import { findAttachment, toStudyAttachment } from './attachments.repository.js';
import { loadVisibleReport } from '../studies/visible-row.js';

/** The name we keep: the last path segment, without control characters, at most 255 characters. */
export function cleanFileName(raw: string): string {
  const base = raw.split(/[\\/]/).pop() ?? '';
  // eslint-disable-next-line no-control-regex
  const clean = base.replace(/[\u0000-\u001f\u007f]/g, '').trim();
  if (clean.length <= 255) return clean;
  const dot = clean.lastIndexOf('.');
  const ext = dot > 0 && clean.length - dot <= 10 ? clean.slice(dot) : '';
  return clean.slice(0, 255 - ext.length) + ext;
}

async function readHead(filePath: string): Promise<Uint8Array> {
  const handle = await fs.open(filePath, 'r');
  try {
    const head = Buffer.alloc(ATTACHMENT_SNIFF_BYTES);
    const { bytesRead } = await handle.read(head, 0, head.length, 0);
    return head.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/**
 * POST /{history|film|report-attachment}/upload/{id}: one multipart `file` part. Order of checks:
 * the study is visible (404), the caller may add this kind on its status (403), then the bytes are
 * read to a temp file with the size cap (413), the type checked by extension and by content (400),
 * the blob written, and only then the row and its timeline event in one transaction. If that
 * transaction fails the blob is removed again, so no row ever names a missing blob.
 */
export async function uploadAttachment(
  ctx: AppContext,
  request: FastifyRequest,
  input: { reportStatusId: number; kind: TStudyAttachmentKind },
): Promise<TStudyAttachment> {
  const auth = authOf(request);
  const report = await loadVisibleReport(ctx.db, auth, input.reportStatusId);
  if (
    !canUploadStudyAttachment(
      { roles: auth.roles, row: report, userCenterId: auth.user.centerId },
      input.kind,
    )
  ) {
    throw new AppError('FORBIDDEN', MESSAGE_NOT_ALLOWED);
  }

  let stored: { fileName: string; tempPath: string; size: number } | null = null;
  try {
    for await (const part of request.parts()) {
      if (part.type === 'field') continue;
      if (part.fieldname !== 'file') {
        part.file.resume();
        throw new AppError('BAD_REQUEST', 'The file must be sent in the part named file', 'file');
      }
      if (stored) {
        part.file.resume();
        throw new AppError('BAD_REQUEST', 'One file per request', 'file');
      }
      const fileName = cleanFileName(part.filename || '');
      const tempPath = path.join(ctx.blobs.tempDir(), `attachment-${randomBytes(8).toString('hex')}`);
      stored = { fileName, tempPath, size: 0 };
      // A refused name is answered before a byte is stored.
      const nameProblem = attachmentFileProblem({ name: fileName, size: 1 });
      if (nameProblem) {
        part.file.resume();
        throw new AppError('BAD_REQUEST', nameProblem, 'file');
      }
      await pipeline(part.file, createWriteStream(tempPath));
      if (part.file.truncated) {
        throw new AppError('PAYLOAD_TOO_LARGE', attachmentTooLargeMessage(), 'ATTACHMENT_MAX_BYTES');
      }
      stored.size = (await fs.stat(tempPath)).size;
    }
    if (!stored) throw new AppError('BAD_REQUEST', 'No file in the upload', 'file');
    const problem = attachmentFileProblem({ name: stored.fileName, size: stored.size });
    if (problem) throw new AppError('BAD_REQUEST', problem, 'file');
    if (!sniffAttachment(stored.fileName, await readHead(stored.tempPath))) {
      throw new AppError('BAD_REQUEST', `The content of ${stored.fileName} does not match its type`, 'file');
    }
    return await storeAttachment(ctx, auth, {
      ...input,
      fileName: stored.fileName,
      tempPath: stored.tempPath,
      size: stored.size,
      fromStatus: report.status,
    });
  } finally {
    if (stored) await fs.rm(stored.tempPath, { force: true });
  }
}

async function storeAttachment(
  ctx: AppContext,
  auth: TAuth,
  input: {
    reportStatusId: number;
    kind: TStudyAttachmentKind;
    fileName: string;
    tempPath: string;
    size: number;
    fromStatus: TReportStatus;
  },
): Promise<TStudyAttachment> {
  const contentType = attachmentContentType(input.fileName);
  if (!contentType) throw new AppError('BAD_REQUEST', `File type not allowed: ${input.fileName}`, 'file');
  // The path is ours and random: clients name a file only by it, never by a file-system path.
  const attachmentPath = randomBytes(18).toString('base64url');
  const blobKey = `attachments/${input.reportStatusId}/${attachmentPath}`;
  await ctx.blobs.putFile(blobKey, input.tempPath);
  try {
    const row = await ctx.db.transaction(async (tx) => {
      const [inserted] = await tx
        .insert(studyAttachments)
        .values({
          reportStatusId: input.reportStatusId,
          kind: input.kind,
          path: attachmentPath,
          fileName: input.fileName,
          contentType,
          sizeBytes: input.size,
          blobKey,
          createdByUserId: auth.user.id,
          createdAt: ctx.now(),
        })
        .returning();
      if (!inserted) throw new Error('attachment insert returned no row');
      await recordStudyEvent(tx, {
        reportStatusId: input.reportStatusId,
        type: 'ATTACHMENT_ADDED',
        actor: { userId: auth.user.id },
        fromStatus: input.fromStatus,
        toStatus: input.fromStatus,
        payload: { kind: input.kind, path: attachmentPath, fileName: input.fileName, sizeBytes: input.size },
        at: ctx.now(),
      });
      return inserted;
    });
    return toStudyAttachment({ ...row, createdBy: auth.user.email });
  } catch (error) {
    await ctx.blobs.delete(blobKey);
    throw error;
  }
}

/**
 * DELETE /{kind}/delete/{id}/{path}: the row and its timeline event in one transaction, the blob
 * after that commits (a crash in between leaves an orphan blob, never a row without bytes).
 */
export async function deleteAttachment(
  ctx: AppContext,
  auth: TAuth,
  input: { reportStatusId: number; kind: TStudyAttachmentKind; path: string },
): Promise<{ ok: true }> {
  const report = await loadVisibleReport(ctx.db, auth, input.reportStatusId);
  if (
    !canDeleteStudyAttachment(
      { roles: auth.roles, row: report, userCenterId: auth.user.centerId },
      input.kind,
    )
  ) {
    throw new AppError('FORBIDDEN', MESSAGE_NOT_ALLOWED);
  }
  const blobKey = await ctx.db.transaction(async (tx) => {
    const [deleted] = await tx
      .delete(studyAttachments)
      .where(
        and(
          eq(studyAttachments.reportStatusId, input.reportStatusId),
          eq(studyAttachments.kind, input.kind),
          eq(studyAttachments.path, input.path),
        ),
      )
      .returning();
    if (!deleted) throw new AppError('NOT_FOUND', MESSAGES.notFound, 'path');
    await recordStudyEvent(tx, {
      reportStatusId: input.reportStatusId,
      type: 'ATTACHMENT_DELETED',
      actor: { userId: auth.user.id },
      fromStatus: report.status,
      toStatus: report.status,
      payload: { kind: input.kind, path: input.path, fileName: deleted.fileName },
      at: ctx.now(),
    });
    return deleted.blobKey;
  });
  await ctx.blobs.delete(blobKey);
  return { ok: true };
}

/** An attachment of a visible study, for download; 404 when either is not there. */
export async function loadAttachmentForDownload(
  ctx: AppContext,
  auth: TAuth,
  input: { reportStatusId: number; kind: TStudyAttachmentKind; path: string },
) {
  const row = await loadVisibleReport(ctx.db, auth, input.reportStatusId);
  // The history papers, and a report attachment before sign-off, are the staff's (core
  // readableAttachmentKinds): a read-only reader of the row is refused, not told the file is gone.
  if (!readableAttachmentKinds(auth.roles, row.status).includes(input.kind)) {
    throw new AppError('FORBIDDEN', MESSAGE_NOT_ALLOWED, 'kind');
  }
  const attachment = await findAttachment(ctx.db, input);
  if (!attachment) throw new AppError('NOT_FOUND', MESSAGES.notFound, 'path');
  return attachment;
}
