import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { FastifyRequest } from 'fastify';
import {
  AppError,
  type TUploadFileResult,
  type TUploadResponse,
  UPLOAD_MAX_FILE_BYTES,
  UPLOAD_MAX_FILES_PER_REQUEST,
} from '@radflow/core';
import type { AppContext } from '../../context.js';
import { authOf } from '../../plugins/auth.js';
import { type IngestResult, KEPT_FIRST_REASON, ingestInstance, joinedReason } from './ingest.js';
import { type TUploadTarget, resolveAttachTarget, resolveUploadCenter } from './upload-access.js';
import { DEFAULT_UPLOAD_LIMITS, type TUploadLimits, UploadBudget, forEachZipEntry } from './upload-zip.js';

/**
 * POST /api/dicom-web/upload: the browser's files (Create Study dialog, upload-study action) as
 * multipart/form-data, each `file` part streamed to a temp file and ingested; a .zip is unpacked
 * entry by entry from its temp file (yauzl reads the central directory: entries with data
 * descriptors work, nothing is held whole in memory) within the request's limits (upload-zip.ts). Fields `centerId` (group users) and
 * `reportStatusId` (the upload-study action) must come before the files.
 */

const tooLarge = (what: string) =>
  new AppError(
    'PAYLOAD_TOO_LARGE',
    `${what} is larger than UPLOAD_MAX_FILE_BYTES (${UPLOAD_MAX_FILE_BYTES} bytes)`,
    'UPLOAD_MAX_FILE_BYTES',
  );

function positiveInt(value: unknown, field: string): number {
  const n = typeof value === 'string' && /^\s*\d+\s*$/.test(value) ? Number(value) : NaN;
  if (!Number.isSafeInteger(n) || n <= 0)
    throw new AppError('BAD_REQUEST', `${field} must be a positive integer`, field);
  return n;
}

function toFileResult(fileName: string, result: IngestResult): TUploadFileResult {
  return result.ok
    ? {
        fileName,
        ok: true,
        sopInstanceUid: result.sopInstanceUid,
        studyInstanceUid: result.studyInstanceUid,
        reportStatusId: result.reportStatusId,
        duplicate: result.duplicate,
        reason: result.keptFirst
          ? KEPT_FIRST_REASON
          : result.joinedExisting
            ? joinedReason(result.reportStatusId)
            : null,
      }
    : {
        fileName,
        ok: false,
        sopInstanceUid: result.sopInstanceUid,
        studyInstanceUid: result.studyInstanceUid ?? null,
        reportStatusId: null,
        duplicate: false,
        reason: result.reason,
      };
}

const tempPath = (ctx: AppContext) =>
  path.join(ctx.blobs.tempDir(), `upload-${Date.now()}-${randomBytes(8).toString('hex')}`);

async function isZip(filePath: string, fileName: string): Promise<boolean> {
  if (/\.zip$/i.test(fileName)) return true;
  const handle = await fs.open(filePath, 'r');
  try {
    const head = Buffer.alloc(132);
    const { bytesRead } = await handle.read(head, 0, 132, 0);
    const isLocalHeader = bytesRead >= 4 && head.readUInt32LE(0) === 0x04034b50;
    // A DICOM preamble may be anything, even "PK..": "DICM" at 128 decides.
    const isDicm = bytesRead >= 132 && head.toString('latin1', 128, 132) === 'DICM';
    return isLocalHeader && !isDicm;
  } finally {
    await handle.close();
  }
}

export async function uploadFiles(
  ctx: AppContext,
  request: FastifyRequest,
  limits: TUploadLimits = DEFAULT_UPLOAD_LIMITS,
): Promise<TUploadResponse> {
  const auth = authOf(request);
  const budget = new UploadBudget(limits);
  const fields: { centerId?: number; reportStatusId?: number } = {};
  let target: TUploadTarget | null = null;
  const files: TUploadFileResult[] = [];
  let fileParts = 0;
  /** The first file refused as bad DICOM (unreadable, invalid): the 400 names it when nothing was stored. */
  let firstBadFile: string | null = null;
  const record = (fileName: string, result: IngestResult) => {
    if (!result.ok && (result.failureCode === 'NOT_DICOM' || result.failureCode === 'INVALID'))
      firstBadFile ??= result.reason.startsWith(fileName) ? result.reason : `${fileName}: ${result.reason}`;
    files.push(toFileResult(fileName, result));
  };

  const resolveTarget = async (): Promise<TUploadTarget> => {
    if (target) return target;
    if (fields.reportStatusId !== undefined) {
      target = await resolveAttachTarget(ctx, auth, fields.reportStatusId);
      if (fields.centerId !== undefined && fields.centerId !== target.centerId) {
        throw new AppError('BAD_REQUEST', 'centerId is not the center of the report', 'centerId');
      }
    } else {
      target = await resolveUploadCenter(ctx, auth, fields.centerId, { foreignCenter: 'forbid' });
    }
    return target;
  };
  const ingest = async (fileName: string, filePath: string) => {
    const to = await resolveTarget();
    const result = await ingestInstance(
      ctx,
      { filePath },
      {
        centerId: to.centerId,
        source: 'UPLOAD',
        actorUserId: auth.user.id,
        reportStatusId: fields.reportStatusId ?? null,
      },
    );
    if (!result.ok) request.log.info({ fileName, reason: result.reason }, 'uploaded file refused');
    record(fileName, result);
  };

  for await (const part of request.parts()) {
    if (part.type === 'field') {
      if (fileParts > 0)
        throw new AppError('BAD_REQUEST', `${part.fieldname} must come before the files`, part.fieldname);
      if (part.fieldname === 'centerId') fields.centerId = positiveInt(part.value, 'centerId');
      else if (part.fieldname === 'reportStatusId')
        fields.reportStatusId = positiveInt(part.value, 'reportStatusId');
      continue;
    }
    if (++fileParts > UPLOAD_MAX_FILES_PER_REQUEST) {
      throw new AppError(
        'PAYLOAD_TOO_LARGE',
        `At most UPLOAD_MAX_FILES_PER_REQUEST (${UPLOAD_MAX_FILES_PER_REQUEST}) files per request`,
        'UPLOAD_MAX_FILES_PER_REQUEST',
      );
    }
    // Check who may upload where before reading a byte of the first file.
    await resolveTarget();
    const fileName = part.filename || `file ${fileParts}`;
    const filePath = tempPath(ctx);
    try {
      await pipeline(part.file, createWriteStream(filePath));
      if (part.file.truncated) throw tooLarge(`File ${fileName}`);
      if (await isZip(filePath, fileName)) {
        try {
          const entryPath = () => tempPath(ctx);
          await forEachZipEntry(
            filePath,
            fileName,
            budget,
            entryPath,
            async (entryName, entryFile, refusal) => {
              const name = `${fileName}/${entryName}`;
              if (entryFile) await ingest(name, entryFile);
              else
                record(name, {
                  ok: false,
                  failureCode: 'INVALID',
                  reason: `${name} ${refusal}`,
                  sopClassUid: null,
                  sopInstanceUid: null,
                });
            },
          );
        } catch (error) {
          if (error instanceof AppError) throw error;
          record(fileName, {
            ok: false,
            failureCode: 'INVALID',
            reason: `Not a readable zip: ${(error as Error).message}`,
            sopClassUid: null,
            sopInstanceUid: null,
          });
        }
      } else {
        await ingest(fileName, filePath);
      }
    } finally {
      await fs.rm(filePath, { force: true });
    }
  }
  if (fileParts === 0) throw new AppError('BAD_REQUEST', 'No files in the upload', 'file');

  const stored = files.filter((f) => f.ok).length;
  // Bad input is a 400 naming the file; once something was stored, the per-file list tells the rest
  // (like STOW-RS's 202: what was stored stays stored).
  if (stored === 0 && firstBadFile) throw new AppError('BAD_REQUEST', firstBadFile, 'file');
  const reportStatusIds = [
    ...new Set(files.flatMap((f) => (f.reportStatusId === null ? [] : [f.reportStatusId]))),
  ];
  return { stored, failed: files.length - stored, files, reportStatusIds };
}
