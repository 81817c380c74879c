import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { FastifyRequest } from 'fastify';
import { and, eq } from 'drizzle-orm';
import {
  AUDIO_MESSAGES,
  AUDIO_SNIFF_BYTES,
  AppError,
  MESSAGES,
  type TAudioContentType,
  type TReportStatus,
  type TReportAudio,
  ZAudioDurationField,
  canAddReportAudio,
  canDeleteReportAudio,
  sniffAudio,
} from '@radflow/core';
import type { AppContext } from '../../context.js';
import { reportAudios } from '../../db/schema.js';
import { type TAuth, authOf } from '../../plugins/auth.js';
import { recordStudyEvent } from '../study-events/record-study-event.js';
import { loadVisibleReport } from '../studies/visible-row.js';
import { type TAudioRecord, findReportAudio, toReportAudio } from './report-audio.repository.js';

/** The audio rule input of a visible row. */
const ruleInput = (auth: TAuth, row: { status: string; centerId: number | null }) => ({
  roles: auth.roles,
  row: {
    status: row.status as Parameters<typeof canAddReportAudio>[0]['row']['status'],
    centerId: row.centerId,
  },
  userCenterId: auth.user.centerId,
});

async function readHead(filePath: string): Promise<Uint8Array> {
  const handle = await fs.open(filePath, 'r');
  try {
    const head = Buffer.alloc(AUDIO_SNIFF_BYTES);
    const { bytesRead } = await handle.read(head, 0, head.length, 0);
    return head.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/**
 * POST /report-audio/save-audio/{id}: one multipart `file` part (and an optional `durationMs` field).
 * Order: the row is visible (404), the caller may add notes to it (403), the bytes go to a temp file
 * under the size cap (413), the type is read from the bytes (415), the blob is stored, then the row
 * and its AUDIO_ADDED event in one transaction; the blob is removed again if that fails.
 */
export async function saveReportAudio(
  ctx: AppContext,
  request: FastifyRequest,
  reportStatusId: number,
): Promise<TReportAudio> {
  const auth = authOf(request);
  const report = await loadVisibleReport(ctx.db, auth, reportStatusId);
  if (!canAddReportAudio(ruleInput(auth, report))) {
    throw new AppError(
      'FORBIDDEN',
      report.status === 'DELETED' ? AUDIO_MESSAGES.deletedStudy : AUDIO_MESSAGES.notAllowed,
    );
  }

  let tempPath: string | null = null;
  let durationMs: number | null = null;
  try {
    for await (const part of request.parts()) {
      if (part.type === 'field') {
        if (part.fieldname === 'durationMs' && String(part.value) !== '') {
          const parsed = ZAudioDurationField.safeParse(part.value);
          if (!parsed.success)
            throw new AppError('BAD_REQUEST', 'durationMs must be a number of milliseconds', 'durationMs');
          durationMs = parsed.data;
        }
        continue;
      }
      if (part.fieldname !== 'file' || tempPath) {
        part.file.resume();
        throw new AppError('BAD_REQUEST', 'Send one recording in the part named file', 'file');
      }
      tempPath = path.join(ctx.blobs.tempDir(), `audio-${randomBytes(8).toString('hex')}`);
      await pipeline(part.file, createWriteStream(tempPath));
      if (part.file.truncated) throw new AppError('PAYLOAD_TOO_LARGE', AUDIO_MESSAGES.tooLarge, 'file');
    }
    if (!tempPath) throw new AppError('BAD_REQUEST', 'No file in the upload', 'file');
    const byteSize = (await fs.stat(tempPath)).size;
    if (byteSize === 0) throw new AppError('BAD_REQUEST', AUDIO_MESSAGES.empty, 'file');
    const contentType = sniffAudio(await readHead(tempPath));
    if (!contentType) throw new AppError('UNSUPPORTED_MEDIA_TYPE', AUDIO_MESSAGES.notAudio, 'file');
    return await storeReportAudio(ctx, auth, {
      reportStatusId,
      status: report.status,
      tempPath,
      byteSize,
      contentType,
      durationMs,
    });
  } finally {
    if (tempPath) await fs.rm(tempPath, { force: true });
  }
}

async function storeReportAudio(
  ctx: AppContext,
  auth: TAuth,
  input: {
    reportStatusId: number;
    status: TReportStatus;
    tempPath: string;
    byteSize: number;
    contentType: TAudioContentType;
    durationMs: number | null;
  },
): Promise<TReportAudio> {
  // The key is ours and random: no client ever names a file.
  const blobKey = `report-audio/${input.reportStatusId}/${randomBytes(18).toString('base64url')}`;
  await ctx.blobs.putFile(blobKey, input.tempPath);
  try {
    const row = await ctx.db.transaction(async (tx) => {
      const now = ctx.now();
      const [inserted] = await tx
        .insert(reportAudios)
        .values({
          reportStatusId: input.reportStatusId,
          blobKey,
          contentType: input.contentType,
          byteSize: input.byteSize,
          durationMs: input.durationMs,
          createdByUserId: auth.user.id,
          createdAt: now,
        })
        .returning();
      if (!inserted) throw new Error('report audio insert returned no row');
      await recordStudyEvent(tx, {
        type: 'AUDIO_ADDED',
        reportStatusId: input.reportStatusId,
        actor: { userId: auth.user.id },
        fromStatus: input.status,
        toStatus: input.status,
        payload: {
          audioId: inserted.id,
          contentType: input.contentType,
          byteSize: input.byteSize,
          durationMs: input.durationMs,
        },
        at: now,
      });
      return inserted;
    });
    return toReportAudio({ ...row, createdBy: auth.user.email, createdByName: auth.user.identifier });
  } catch (error) {
    await ctx.blobs.delete(blobKey);
    throw error;
  }
}

/**
 * DELETE /report-audio/delete-audio/{id}/{audioId}: the uploader or a group admin. The row and its
 * AUDIO_DELETED event in one transaction, the blob after it commits (a crash in between leaves an
 * orphan blob, never a row without bytes).
 */
export async function deleteReportAudio(
  ctx: AppContext,
  auth: TAuth,
  input: { reportStatusId: number; audioId: number },
): Promise<{ ok: true }> {
  const report = await loadVisibleReport(ctx.db, auth, input.reportStatusId);
  const blobKey = await ctx.db.transaction(async (tx) => {
    const [audio] = await tx
      .select({
        id: reportAudios.id,
        createdByUserId: reportAudios.createdByUserId,
        blobKey: reportAudios.blobKey,
      })
      .from(reportAudios)
      .where(and(eq(reportAudios.reportStatusId, input.reportStatusId), eq(reportAudios.id, input.audioId)))
      .for('update');
    if (!audio) throw new AppError('NOT_FOUND', MESSAGES.notFound, 'audioId');
    const allowed = canDeleteReportAudio({
      ...ruleInput(auth, report),
      isUploader: audio.createdByUserId === auth.user.id,
    });
    if (!allowed) {
      throw new AppError(
        'FORBIDDEN',
        report.status === 'DELETED' ? AUDIO_MESSAGES.deletedStudy : AUDIO_MESSAGES.deleteNotAllowed,
      );
    }
    await tx.delete(reportAudios).where(eq(reportAudios.id, audio.id));
    await recordStudyEvent(tx, {
      type: 'AUDIO_DELETED',
      reportStatusId: input.reportStatusId,
      actor: { userId: auth.user.id },
      fromStatus: report.status,
      toStatus: report.status,
      payload: { audioId: audio.id },
      at: ctx.now(),
    });
    return audio.blobKey;
  });
  await ctx.blobs.delete(blobKey);
  return { ok: true };
}

/** One note of a visible row, for playback; 404 when either is not there. */
export async function loadReportAudio(
  ctx: AppContext,
  auth: TAuth,
  input: { reportStatusId: number; audioId: number },
): Promise<TAudioRecord> {
  await loadVisibleReport(ctx.db, auth, input.reportStatusId);
  const audio = await findReportAudio(ctx.db, input);
  if (!audio) throw new AppError('NOT_FOUND', MESSAGES.notFound, 'audioId');
  return audio;
}
