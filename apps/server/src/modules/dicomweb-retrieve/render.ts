import sharp, { type Sharp } from 'sharp';
import { and, asc, eq, isNotNull, sql } from 'drizzle-orm';
import type { TStudyScope } from '@radflow/core';
import {
  TRANSFER_SYNTAX,
  describeTransferSyntax,
  isKnownUncompressedSyntax,
  parseInstance,
} from '@radflow/dicom';
import type { AppContext } from '../../context.js';
import { instances, series, studies } from '../../db/schema.js';
import type { TMediaRange } from './multipart.js';
import { type TTarget, findStoredInstance, notFound } from './retrieve-repository.js';
import { visibleStudies } from './study-access.js';
import { HttpError, notAcceptable } from './transfer-syntax-negotiation.js';
import { readFrame } from './wado.js';

/**
 * Rendered images and thumbnails (PS3.18 §10.4.1.1.6, §10.4.1.1.7): native pixel data decoded here
 * (modality rescale, the first VOI window or min–max, MONOCHROME1 inversion, RGB in either planar
 * configuration, palette colour) and encoded by sharp; JPEG baseline frames are decoded by sharp
 * itself. Other compressed syntaxes are refused with 406: the viewer decodes them in the browser.
 */

export interface TImage {
  contentType: 'image/jpeg' | 'image/png';
  body: Buffer;
}

type Metadata = Record<string, { Value?: unknown[]; InlineBinary?: string } | undefined>;

const THUMBNAIL_SIZE = 256;

function chooseImageType(accept: readonly TMediaRange[]): TImage['contentType'] {
  for (const range of accept) {
    if (range.type === 'image/png') return 'image/png';
    if (range.type === 'image/jpeg' || range.type === 'image/*' || range.type === '*/*') return 'image/jpeg';
  }
  throw notAcceptable('Rendered images are available as image/jpeg or image/png');
}

const numbers = (metadata: Metadata, tag: string): number[] =>
  (metadata[tag]?.Value ?? []).filter((v): v is number => typeof v === 'number');
const first = (metadata: Metadata, tag: string): number | null => numbers(metadata, tag)[0] ?? null;
const textOf = (metadata: Metadata, tag: string): string => {
  const value = metadata[tag]?.Value?.[0];
  return typeof value === 'string' ? value : '';
};

/** Raw 8-bit pixels (1 or 3 channels) of one native frame. */
interface RawImage {
  width: number;
  height: number;
  channels: 1 | 3;
  data: Buffer;
}

const unsupported = (why: string) =>
  new HttpError(
    406,
    `The server cannot render this image: ${why}. Fetch its frames and decode them in the viewer.`,
  );

function readSamples(
  frame: Uint8Array,
  count: number,
  bitsAllocated: number,
  bitsStored: number,
  isSigned: boolean,
  isBigEndian: boolean,
): Float64Array {
  const out = new Float64Array(count);
  const view = new DataView(frame.buffer, frame.byteOffset, frame.byteLength);
  const shift = 32 - bitsStored;
  const mask = bitsStored >= 32 ? 0xffffffff : 2 ** bitsStored - 1;
  for (let i = 0; i < count; i++) {
    let raw: number;
    if (bitsAllocated === 8) raw = frame[i] ?? 0;
    else if (bitsAllocated === 16) raw = i * 2 + 1 < frame.length ? view.getUint16(i * 2, !isBigEndian) : 0;
    else raw = i * 4 + 3 < frame.length ? view.getUint32(i * 4, !isBigEndian) : 0;
    out[i] = isSigned ? (raw << shift) >> shift : (raw & mask) >>> 0;
  }
  return out;
}

/** PS3.3 §C.11.2.1.2.1 linear VOI function to 0..255, or min–max when there is no window. */
function toGray(values: Float64Array, center: number | null, width: number | null, invert: boolean): Buffer {
  let low: number;
  let high: number;
  if (center !== null && width !== null && width >= 1) {
    low = center - 0.5 - (width - 1) / 2;
    high = center - 0.5 + (width - 1) / 2;
  } else {
    low = Infinity;
    high = -Infinity;
    for (const v of values) {
      if (v < low) low = v;
      if (v > high) high = v;
    }
  }
  const range = high - low || 1;
  const out = Buffer.alloc(values.length);
  for (let i = 0; i < values.length; i++) {
    const v = values[i] as number;
    const g = v <= low ? 0 : v > high ? 255 : Math.round(((v - low) / range) * 255);
    out[i] = invert ? 255 - g : g;
  }
  return out;
}

function paletteLut(bytes: Uint8Array | null, descriptor: number[]): ((v: number) => number) | null {
  if (!bytes || descriptor.length < 3) return null;
  const entries = descriptor[0] === 0 ? 65536 : (descriptor[0] as number);
  const firstMapped = descriptor[1] as number;
  const bits = descriptor[2] as number;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const is16 = bytes.byteLength >= entries * 2;
  return (v) => {
    const index = Math.min(entries - 1, Math.max(0, v - firstMapped));
    const entry = is16 ? view.getUint16(index * 2, true) : (bytes[index] ?? 0);
    return bits > 8 ? entry >> 8 : entry;
  };
}

async function decodeNative(
  ctx: AppContext,
  blobKey: string,
  metadata: Metadata,
  frame: Uint8Array,
  transferSyntaxUid: string,
): Promise<RawImage> {
  const height = first(metadata, '00280010') ?? 0;
  const width = first(metadata, '00280011') ?? 0;
  const samples = first(metadata, '00280002') ?? 1;
  const bitsAllocated = first(metadata, '00280100') ?? 0;
  const bitsStored = first(metadata, '00280101') ?? bitsAllocated;
  const isSigned = first(metadata, '00280103') === 1;
  const photometric = textOf(metadata, '00280004').toUpperCase();
  const isBigEndian = transferSyntaxUid === TRANSFER_SYNTAX.explicitVrBigEndian;
  const pixels = width * height;
  if (!pixels || ![8, 16, 32].includes(bitsAllocated)) throw unsupported(`${bitsAllocated}-bit pixels`);

  if (samples === 3) {
    if (bitsAllocated !== 8 || !['RGB', 'YBR_FULL'].includes(photometric)) {
      throw unsupported(`${photometric} with ${bitsAllocated}-bit samples`);
    }
    const isPlanar = first(metadata, '00280006') === 1;
    const data = Buffer.alloc(pixels * 3);
    for (let i = 0; i < pixels; i++) {
      for (let c = 0; c < 3; c++) data[i * 3 + c] = frame[isPlanar ? c * pixels + i : i * 3 + c] ?? 0;
    }
    if (photometric === 'YBR_FULL') {
      for (let i = 0; i < pixels * 3; i += 3) {
        const y = data[i] as number;
        const cb = (data[i + 1] as number) - 128;
        const cr = (data[i + 2] as number) - 128;
        data[i] = Math.max(0, Math.min(255, Math.round(y + 1.402 * cr)));
        data[i + 1] = Math.max(0, Math.min(255, Math.round(y - 0.344136 * cb - 0.714136 * cr)));
        data[i + 2] = Math.max(0, Math.min(255, Math.round(y + 1.772 * cb)));
      }
    }
    return { width, height, channels: 3, data };
  }
  if (samples !== 1) throw unsupported(`${samples} samples per pixel`);
  const values = readSamples(frame, pixels, bitsAllocated, bitsStored, isSigned, isBigEndian);

  if (photometric === 'PALETTE COLOR') {
    // The LUT data may be bulk data: read them from the file rather than from the metadata.
    const parsed = parseInstance(new Uint8Array(await ctx.blobs.read(blobKey)));
    const lutBytes = (tag: string) => {
      const element = parsed.dataSet.elements[`x${tag.toLowerCase()}`];
      return element
        ? parsed.datasetBytes.subarray(element.dataOffset, element.dataOffset + element.length)
        : null;
    };
    const luts = ['1201', '1202', '1203'].map((t, i) =>
      paletteLut(lutBytes(`0028${t}`), numbers(metadata, `0028110${i + 1}`)),
    );
    if (luts.some((lut) => !lut)) {
      throw unsupported(
        metadata['00281221']
          ? 'segmented palette colour lookup tables are not decoded yet'
          : 'its palette colour lookup tables are missing',
      );
    }
    const data = Buffer.alloc(pixels * 3);
    for (let i = 0; i < pixels; i++) {
      for (let c = 0; c < 3; c++) data[i * 3 + c] = luts[c]?.(values[i] as number) ?? 0;
    }
    return { width, height, channels: 3, data };
  }
  if (photometric !== 'MONOCHROME1' && photometric !== 'MONOCHROME2')
    throw unsupported(`photometric ${photometric}`);
  const slope = first(metadata, '00281053') ?? 1;
  const intercept = first(metadata, '00281052') ?? 0;
  if (slope !== 1 || intercept !== 0)
    for (let i = 0; i < values.length; i++) values[i] = (values[i] as number) * slope + intercept;
  const data = toGray(
    values,
    first(metadata, '00281050'),
    first(metadata, '00281051'),
    photometric === 'MONOCHROME1',
  );
  return { width, height, channels: 1, data };
}

async function encode(
  image: Sharp,
  type: TImage['contentType'],
  size: number | null,
  quality: number,
): Promise<Buffer> {
  const sized = size ? image.resize(size, size, { fit: 'inside', withoutEnlargement: true }) : image;
  return type === 'image/png' ? sized.png().toBuffer() : sized.jpeg({ quality }).toBuffer();
}

const JPEG_DECODABLE = new Set<string>([TRANSFER_SYNTAX.jpegBaseline, TRANSFER_SYNTAX.jpegExtended]);

async function renderFrame(
  ctx: AppContext,
  instance: Awaited<ReturnType<typeof findStoredInstance>>,
  frameNumber: number,
  type: TImage['contentType'],
  size: number | null,
  quality: number,
): Promise<Buffer> {
  const metadata = instance.metadata as Metadata;
  const syntax = instance.transferSyntaxUid;
  const frames = instance.frames?.length ?? instance.numberOfFrames;
  if (!metadata['7FE00010']) throw new HttpError(406, 'The instance has no image to render');
  if (frameNumber > frames)
    throw new HttpError(404, `Frame ${frameNumber} not found: the instance has ${frames} frame(s)`);
  const frame = await readFrame(ctx, instance, frameNumber - 1);
  const isNative = isKnownUncompressedSyntax(syntax) || describeTransferSyntax(syntax).isDeflated;
  if (isNative) {
    const raw = await decodeNative(ctx, instance.blobKey, metadata, frame, syntax);
    const image = sharp(raw.data, { raw: { width: raw.width, height: raw.height, channels: raw.channels } });
    return encode(image, type, size, quality);
  }
  if (JPEG_DECODABLE.has(syntax) && first(metadata, '00280100') === 8) {
    try {
      return await encode(sharp(frame), type, size, quality);
    } catch (error) {
      throw unsupported(`the JPEG frame does not decode (${(error as Error).message})`);
    }
  }
  throw unsupported(
    `it is stored as ${describeTransferSyntax(syntax).name}, which the server does not decode`,
  );
}

/** WADO-RS Retrieve Rendered Instance / Frame (the first frame for an instance). */
export async function renderImage(
  ctx: AppContext,
  scope: TStudyScope,
  target: Required<TTarget>,
  frameNumber: number,
  accept: readonly TMediaRange[],
  query: { quality?: number },
): Promise<TImage> {
  const type = chooseImageType(accept);
  const instance = await findStoredInstance(ctx.db, scope, target);
  return {
    contentType: type,
    body: await renderFrame(ctx, instance, frameNumber, type, null, query.quality ?? 90),
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
  const body = await renderFrame(ctx, instance, 1, type, THUMBNAIL_SIZE, 80);
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
