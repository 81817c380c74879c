import type sharpModule from 'sharp';
import type { Sharp } from 'sharp';
import { and, asc, eq, isNotNull, sql } from 'drizzle-orm';
import { type TRenderViewport as TViewport, type TStudyScope } from '@radflow/core';
export { ZRenderViewport, ZRenderWindow } from '@radflow/core';
import { FrameDecodeError, decodeFrame, describeTransferSyntax, parseInstance } from '@radflow/dicom';
import type { AppContext } from '../../context.js';
import { instances, series, studies } from '../../db/schema.js';
import type { TMediaRange } from './multipart.js';
import { type Metadata, type TWindow, first, textOf, toDisplayImage, unsupported } from './render-pixels.js';
import { type TTarget, findStoredInstance, notFound } from './retrieve-repository.js';
import { visibleStudies } from '../studies/study-access.js';
import { HttpError, notAcceptable } from './transfer-syntax-negotiation.js';
import { readFrame } from './wado.js';
import { onFirstUse } from '../../on-first-use.js';

const sharp = onFirstUse<typeof sharpModule>('sharp');

/**
 * Rendered images and thumbnails (PS3.18 §10.4.1.1.6, §10.4.1.1.7): the frame is decoded by
 * packages/dicom `decodeFrame` whatever its transfer syntax (native, deflated, big endian, JPEG,
 * JPEG-LS, JPEG 2000, HTJ2K, RLE), turned into 8-bit grey or RGB by render-pixels.ts and encoded
 * by sharp. A syntax or layout without a decoder answers 406 naming it.
 */

export interface TImage {
  contentType: 'image/jpeg' | 'image/png';
  body: Buffer;
}

const THUMBNAIL_SIZE = 256;

/** What a rendered request may ask beyond the frame: quality, window, viewport. */
export interface TRenderOptions {
  quality?: number | undefined;
  window?: TWindow | undefined;
  viewport?: TViewport | undefined;
}

function chooseImageType(accept: readonly TMediaRange[]): TImage['contentType'] {
  for (const range of accept) {
    if (range.type === 'image/png') return 'image/png';
    if (range.type === 'image/jpeg' || range.type === 'image/*' || range.type === '*/*') return 'image/jpeg';
  }
  throw notAcceptable('Rendered images are available as image/jpeg or image/png');
}

async function encode(
  image: Sharp,
  type: TImage['contentType'],
  size: TViewport | null,
  quality: number,
): Promise<Buffer> {
  const sized = size
    ? image.resize(size.width, size.height, { fit: 'inside', withoutEnlargement: true })
    : image;
  return type === 'image/png' ? sized.png().toBuffer() : sized.jpeg({ quality }).toBuffer();
}

/** Float (7FE0,0008) and Double Float (7FE0,0009) Pixel Data render like integer pixels. */
const PIXEL_TAGS = ['7FE00010', '7FE00008', '7FE00009'] as const;

async function renderFrame(
  ctx: AppContext,
  instance: Awaited<ReturnType<typeof findStoredInstance>>,
  frameNumber: number,
  type: TImage['contentType'],
  size: TViewport | null,
  quality: number,
  window: TWindow | null = null,
): Promise<Buffer> {
  const metadata = instance.metadata as Metadata;
  const syntax = instance.transferSyntaxUid;
  const frames = instance.frames?.length ?? instance.numberOfFrames;
  const pixelTag = PIXEL_TAGS.find((tag) => metadata[tag]);
  if (!pixelTag) throw new HttpError(406, 'The instance has no image to render');
  if (frameNumber > frames)
    throw new HttpError(404, `Frame ${frameNumber} not found: the instance has ${frames} frame(s)`);
  const isFloat = pixelTag !== '7FE00010';
  const frame = await readFrame(ctx, instance, frameNumber - 1);
  let decoded;
  try {
    decoded = await decodeFrame({
      transferSyntaxUid: syntax,
      bytes: frame,
      rows: first(metadata, '00280010') ?? 0,
      columns: first(metadata, '00280011') ?? 0,
      bitsAllocated: first(metadata, '00280100') ?? (pixelTag === '7FE00009' ? 64 : 32),
      samplesPerPixel: first(metadata, '00280002') ?? 1,
      pixelRepresentation: first(metadata, '00280103') ?? 0,
      photometricInterpretation: textOf(metadata, '00280004') || 'MONOCHROME2',
      planarConfiguration: first(metadata, '00280006'),
    });
  } catch (error) {
    if (!(error instanceof FrameDecodeError)) throw error;
    const name = describeTransferSyntax(syntax).name;
    throw unsupported(
      error.code === 'UNSUPPORTED'
        ? error.message
        : `its ${name} frame ${frameNumber} does not decode (${error.message})`,
    );
  }
  // Palette LUT data may be bulk data: read them from the file, once, only when needed.
  let parsed: ReturnType<typeof parseInstance> | null = null;
  const readElement = async (tag: string) => {
    parsed ??= parseInstance(new Uint8Array(await ctx.blobs.read(instance.blobKey)));
    const element = parsed.dataSet.elements[`x${tag.toLowerCase()}`];
    return element
      ? parsed.datasetBytes.subarray(element.dataOffset, element.dataOffset + element.length)
      : null;
  };
  const raw = await toDisplayImage(decoded, frameNumber - 1, metadata, readElement, isFloat, window);
  const image = sharp()(raw.data, { raw: { width: raw.width, height: raw.height, channels: raw.channels } });
  return encode(image, type, size, quality);
}

/** WADO-RS Retrieve Rendered Instance / Frame (the first frame for an instance). */
export async function renderImage(
  ctx: AppContext,
  scope: TStudyScope,
  target: Required<TTarget>,
  frameNumber: number,
  accept: readonly TMediaRange[],
  query: TRenderOptions,
): Promise<TImage> {
  const type = chooseImageType(accept);
  const instance = await findStoredInstance(ctx.db, scope, target);
  return {
    contentType: type,
    body: await renderFrame(
      ctx,
      instance,
      frameNumber,
      type,
      query.viewport ?? null,
      query.quality ?? 90,
      query.window ?? null,
    ),
  };
}

/**
 * Thumbnails of an instance, a series (its middle image) or a study (the middle image of its first
 * series with images), cached in the blob store under `thumbs/` by the file's SHA-256, so a
 * re-sent instance gets a new thumbnail and every process shares the cache.
 */
export async function renderThumbnail(
  ctx: AppContext,
  scope: TStudyScope,
  target: TTarget,
  accept: readonly TMediaRange[],
): Promise<TImage> {
  const type = chooseImageType(accept);
  const resolved: Required<TTarget> =
    target.seriesUid !== undefined && target.sopUid !== undefined
      ? { studyUid: target.studyUid, seriesUid: target.seriesUid, sopUid: target.sopUid }
      : { studyUid: target.studyUid, ...(await representativeInstance(ctx, scope, target)) };
  const instance = await findStoredInstance(ctx.db, scope, resolved);
  const key = `thumbs/${instance.sha256}-${type === 'image/png' ? 'png' : 'jpg'}`;
  if ((await ctx.blobs.size(key)) !== null) return { contentType: type, body: await ctx.blobs.read(key) };
  const body = await renderFrame(
    ctx,
    instance,
    1,
    type,
    { width: THUMBNAIL_SIZE, height: THUMBNAIL_SIZE },
    80,
  );
  await ctx.blobs.put(key, body);
  return { contentType: type, body };
}

async function representativeInstance(
  ctx: AppContext,
  scope: TStudyScope,
  target: TTarget,
): Promise<{ seriesUid: string; sopUid: string }> {
  const where = [
    visibleStudies(scope),
    eq(studies.studyInstanceUid, target.studyUid),
    isNotNull(instances.rows),
  ];
  if (target.seriesUid !== undefined) where.push(eq(series.seriesInstanceUid, target.seriesUid));
  const [first] = await ctx.db
    .select({ seriesId: series.id, seriesUid: series.seriesInstanceUid, count: series.instanceCount })
    .from(instances)
    .innerJoin(series, eq(series.id, instances.seriesId))
    .innerJoin(studies, eq(studies.id, instances.studyId))
    .where(and(...where))
    .orderBy(sql`${series.seriesNumber} asc nulls last`, asc(series.id))
    .limit(1);
  if (!first) throw notFound(target.seriesUid ? 'Series' : 'Study');
  const [middle] = await ctx.db
    .select({ sopUid: instances.sopInstanceUid })
    .from(instances)
    .where(and(eq(instances.seriesId, first.seriesId), isNotNull(instances.rows)))
    .orderBy(sql`${instances.instanceNumber} asc nulls last`, asc(instances.id))
    .offset(Math.floor(Math.max(0, first.count - 1) / 2))
    .limit(1);
  return { seriesUid: first.seriesUid, sopUid: middle?.sopUid ?? '' };
}
