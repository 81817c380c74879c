import fs from 'node:fs/promises';
import { AppError, UPLOAD_MAX_FILE_BYTES } from '@radflow/core';
import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from '../../context.js';
import { type IngestAckResult, KEPT_FIRST_REASON, ingestInstance } from './ingest.js';
import { MultipartError, parseContentType, readRelatedParts } from './multipart-related.js';
import type { TUploadTarget } from './upload-access.js';

/**
 * STOW-RS (PS3.18 §10.5): a `multipart/related; type="application/dicom"` body, each part streamed
 * to a temp file and ingested (several at once) while the next ones are read; the answer is the PS3.18 store response
 * (§10.5.3, Table 10.5.3-1) in the DICOM JSON model.
 */

/** PS3.18 Table 10.5.3-2 / PS3.4 Annex GG failure reasons we answer. */
export const FAILURE_REASON = {
  /** Processing failure. */
  PROCESSING_FAILURE: 0x0110,
  /** Refused: not authorized (PS3.7 C.5.24): the study belongs to another center. */
  NOT_AUTHORIZED: 0x0124,
  /** Refused: out of resources. */
  OUT_OF_RESOURCES: 0xa700,
  /** Error: data set does not match SOP class (also: the instance is not of the study in the path). */
  DATASET_MISMATCH: 0xa900,
  /** Error: cannot understand. */
  CANNOT_UNDERSTAND: 0xc000,
} as const;

export interface StoreOutcomeItem {
  result: IngestAckResult;
  /** A part we could not even read (no UIDs known). */
  partIndex: number;
}

type DicomJson = Record<string, { vr: string; Value?: unknown[] }>;

const ui = (value: string | null): { vr: string; Value?: unknown[] } =>
  value ? { vr: 'UI', Value: [value] } : { vr: 'UI' };
const ur = (value: string) => ({ vr: 'UR', Value: [value] });

function failureReason(result: Extract<IngestAckResult, { ok: false }>, isStudyMismatch: boolean): number {
  if (isStudyMismatch) return FAILURE_REASON.DATASET_MISMATCH;
  switch (result.failureCode) {
    case 'NOT_DICOM':
    case 'INVALID':
      return FAILURE_REASON.CANNOT_UNDERSTAND;
    case 'STORAGE':
      return FAILURE_REASON.OUT_OF_RESOURCES;
    case 'REFUSED':
      return FAILURE_REASON.PROCESSING_FAILURE;
    case 'FOREIGN_STUDY':
      return FAILURE_REASON.NOT_AUTHORIZED;
  }
}

/** PS3.18 Table 10.5.3-3 Warning Reason: elements discarded (the first version was kept). */
export const WARNING_REASON_KEPT_FIRST = 0xb006;

/**
 * Error Comment (0000,0902) in an instance's item: the reason in words, as C-STORE answers it
 * (dcm4chee does the same); LO, so no backslash or control characters.
 */
// eslint-disable-next-line no-control-regex
const comment = (text: string) => ({ vr: 'LO', Value: [text.replace(/[\\\u0000-\u001f]/g, ' ')] });

export interface StoreResponse {
  /** 200 every instance stored, 202 some failed or warned, 409 none stored (PS3.18 §10.5.3). */
  status: 200 | 202 | 409;
  body: DicomJson;
}

/** The PS3.18 store response for a list of outcomes. `baseUrl` is the origin of /api/dicomweb. */
export function buildStoreResponse(
  outcomes: Array<{ result: IngestAckResult; isStudyMismatch?: boolean }>,
  baseUrl: string,
): StoreResponse {
  const root = `${baseUrl}/api/dicomweb`;
  const referenced: DicomJson[] = [];
  const failed: DicomJson[] = [];
  const studyUids = new Set<string>();
  let warnings = 0;
  for (const { result, isStudyMismatch } of outcomes) {
    if (result.ok) {
      studyUids.add(result.studyInstanceUid);
      referenced.push({
        '00081150': ui(result.sopClassUid),
        '00081155': ui(result.sopInstanceUid),
        '00081190': ur(
          `${root}/studies/${result.studyInstanceUid}/series/${result.seriesInstanceUid}/instances/${result.sopInstanceUid}`,
        ),
        ...(result.keptFirst
          ? {
              '00081196': { vr: 'US', Value: [WARNING_REASON_KEPT_FIRST] },
              '00000902': comment(KEPT_FIRST_REASON),
            }
          : {}),
      });
      if (result.keptFirst) warnings++;
    } else {
      failed.push({
        '00081150': ui(result.sopClassUid),
        '00081155': ui(result.sopInstanceUid),
        '00081197': { vr: 'US', Value: [failureReason(result, isStudyMismatch ?? false)] },
        '00000902': comment(result.reason),
      });
    }
  }
  const body: DicomJson = {};
  // One study stored: its URL (PS3.18: RetrieveURL of the study when all instances are of one study).
  if (studyUids.size === 1) body['00081190'] = ur(`${root}/studies/${[...studyUids][0]}`);
  if (failed.length > 0) body['00081198'] = { vr: 'SQ', Value: failed };
  if (referenced.length > 0) body['00081199'] = { vr: 'SQ', Value: referenced };
  const status = failed.length === 0 && warnings === 0 ? 200 : referenced.length === 0 ? 409 : 202;
  return { status, body };
}

/**
 * Checks the request is a DICOM multipart (415 for another media type, 400 without a boundary)
 * and returns its boundary.
 */
export function stowBoundary(contentType: string | undefined): string {
  const { mediaType, params } = parseContentType(contentType);
  if (mediaType !== 'multipart/related') {
    throw new AppError(
      'UNSUPPORTED_MEDIA_TYPE',
      'STOW-RS expects multipart/related; type="application/dicom"',
      'content-type',
    );
  }
  const type = params.type?.toLowerCase();
  if (type !== undefined && type !== 'application/dicom') {
    throw new AppError(
      'UNSUPPORTED_MEDIA_TYPE',
      `Only application/dicom parts are accepted (got type="${type}")`,
      'content-type',
    );
  }
  if (!params.boundary)
    throw new AppError('BAD_REQUEST', 'The multipart boundary is missing', 'content-type');
  return params.boundary;
}

/** Parts ingested at once in one request, and their bytes at most (one part alone may be larger). */
const STOW_PARALLEL_PARTS = 8;
const STOW_PARALLEL_BYTES = 64 * 2 ** 20;

/** Reads the parts of a STOW-RS body and ingests each; returns the store response. */
export async function storeInstances(
  ctx: AppContext,
  body: AsyncIterable<Buffer>,
  opts: {
    boundary: string;
    target: TUploadTarget;
    /** The study of the request path: an instance of another study fails (0xA900). */
    studyInstanceUid?: string;
    actorUserId: number;
    baseUrl: string;
    log: FastifyBaseLogger;
  },
): Promise<StoreResponse> {
  const outcomes: Array<{ result: IngestAckResult; isStudyMismatch?: boolean }> = [];
  let parts = 0;
  // Parts are ingested side by side while the next ones are read, so their blob syncs overlap and
  // their index rows share commits (index-writer.ts); the answer keeps part order. Bounded in count
  // and bytes: each ingest holds its instance in memory.
  const inFlight = new Set<Promise<void>>();
  let bytesInFlight = 0;
  const settled = () => Promise.all([...inFlight]).then(() => undefined);
  try {
    for await (const part of readRelatedParts(body, opts.boundary, ctx.blobs.tempDir(), {
      maxPartBytes: UPLOAD_MAX_FILE_BYTES,
    })) {
      parts++;
      const at = outcomes.length;
      const partNumber = parts;
      const partType = parseContentType(part.headers['content-type']).mediaType;
      const isDicom = !partType || partType === 'application/dicom';
      outcomes.push({
        result: {
          ok: false,
          failureCode: isDicom ? 'STORAGE' : 'NOT_DICOM',
          reason: isDicom
            ? `Part ${partNumber} was not ingested`
            : `Part ${partNumber} is ${partType}, not application/dicom`,
          sopClassUid: null,
          sopInstanceUid: null,
        },
      });
      while (
        inFlight.size > 0 &&
        (inFlight.size >= STOW_PARALLEL_PARTS || bytesInFlight + part.sizeBytes > STOW_PARALLEL_BYTES)
      ) {
        await Promise.race(inFlight);
      }
      bytesInFlight += part.sizeBytes;
      const ingesting: Promise<void> = (async () => {
        try {
          if (isDicom) outcomes[at] = await storePart(ctx, part.filePath, opts);
        } finally {
          await fs.rm(part.filePath, { force: true });
        }
      })()
        // storePart does not throw for bad input; anything else stays the placeholder failure.
        .catch((error: unknown) => opts.log.error({ err: error, part: partNumber }, 'STOW-RS part failed'))
        .finally(() => {
          bytesInFlight -= part.sizeBytes;
          inFlight.delete(ingesting);
        });
      inFlight.add(ingesting);
    }
    await settled();
  } catch (error) {
    // The parts being ingested finish (and their outcomes are kept) before anything is answered.
    await settled();
    if (!(error instanceof MultipartError)) throw error;
    if (parts === 0) throw new AppError('BAD_REQUEST', error.message, 'body');
    // Parts already stored stay stored; the broken tail counts as one failed instance.
    opts.log.warn({ err: error }, 'STOW-RS body ended badly after some parts');
    outcomes.push({
      result: {
        ok: false,
        failureCode: 'INVALID',
        reason: error.message,
        sopClassUid: null,
        sopInstanceUid: null,
      },
    });
  }
  if (parts === 0) throw new AppError('BAD_REQUEST', 'The multipart body has no parts', 'body');
  for (const { result } of outcomes) {
    if (!result.ok) {
      opts.log.warn(
        { sopInstanceUid: result.sopInstanceUid, failureCode: result.failureCode, reason: result.reason },
        'STOW-RS instance refused',
      );
    }
  }
  return buildStoreResponse(outcomes, opts.baseUrl);
}

async function storePart(
  ctx: AppContext,
  filePath: string,
  opts: { target: TUploadTarget; studyInstanceUid?: string; actorUserId: number },
): Promise<{ result: IngestAckResult; isStudyMismatch?: boolean }> {
  const result = await ingestInstance(
    ctx,
    { filePath },
    {
      centerId: opts.target.centerId,
      source: 'STOW',
      actorUserId: opts.actorUserId,
      requireStudyInstanceUid: opts.studyInstanceUid ?? null,
      // The store response names the instance and its retrieve URL: no index row needed.
      acknowledgeDurable: true,
    },
  );
  const isStudyMismatch =
    !result.ok &&
    opts.studyInstanceUid !== undefined &&
    !!result.studyInstanceUid &&
    result.studyInstanceUid !== opts.studyInstanceUid;
  return { result, isStudyMismatch };
}
