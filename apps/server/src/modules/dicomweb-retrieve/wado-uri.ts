import { z } from 'zod';
import type { Readable } from 'node:stream';
import type { TStudyScope } from '@radflow/core';
import type { AppContext } from '../../context.js';
import { renderImage } from './render.js';
import { findStoredInstance } from './retrieve-repository.js';
import { notAcceptable } from './transfer-syntax-negotiation.js';

const uid = z.string().min(1).max(128);

/** PS3.18 §9.1.2 (URI service) query parameters; the rest (region, windows, anonymize) are ignored. */
export const ZWadoUriQuery = z
  .object({
    requestType: z.literal('WADO', { error: "requestType must be 'WADO'" }),
    studyUID: uid,
    seriesUID: uid,
    objectUID: uid,
    contentType: z.string().max(200).optional(),
    frameNumber: z.coerce.number().int().min(1).optional(),
    imageQuality: z.coerce.number().int().min(1).max(100).optional(),
  })
  .passthrough();
export type TWadoUriQuery = z.infer<typeof ZWadoUriQuery>;

/**
 * WADO-URI (PS3.18 chapter 9): `contentType=application/dicom` answers the stored file as is; an
 * image type (default image/jpeg, PS3.18 §9.1.2.1.5) the rendered frame.
 */
export async function retrieveWadoUri(
  ctx: AppContext,
  scope: TStudyScope,
  query: TWadoUriQuery,
): Promise<{ contentType: string; body: Readable | Buffer }> {
  const target = { studyUid: query.studyUID, seriesUid: query.seriesUID, sopUid: query.objectUID };
  const wanted = (query.contentType ?? 'image/jpeg')
    .split(',')
    .map((t) => t.trim().toLowerCase().split(';')[0] ?? '');
  if (wanted.includes('application/dicom')) {
    const instance = await findStoredInstance(ctx.db, scope, target);
    return { contentType: 'application/dicom', body: ctx.blobs.get(instance.blobKey) };
  }
  const imageType = wanted.find((t) => t === 'image/jpeg' || t === 'image/png');
  if (!imageType)
    throw notAcceptable('WADO-URI answers contentType application/dicom, image/jpeg or image/png');
  return renderImage(ctx, scope, target, query.frameNumber ?? 1, [{ type: imageType, params: {}, q: 1 }], {
    quality: query.imageQuality,
  });
}
