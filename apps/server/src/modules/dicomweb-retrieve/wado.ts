import type { Readable } from 'node:stream';
import type { TStudyScope } from '@radflow/core';
import {
  DicomFrameError,
  DicomParseError,
  type ParsedInstance,
  describeTransferSyntax,
  extractFrame,
  parseInstance,
} from '@radflow/dicom';
import type { AppContext } from '../../context.js';
import {
  type TMediaRange,
  type TPart,
  multipartContentType,
  multipartStream,
  newBoundary,
} from './multipart.js';
import {
  type TStoredInstance,
  type TTarget,
  findStoredInstance,
  listStoredInstances,
  notFound,
} from './retrieve-repository.js';
import { HttpError, checkInstancesAccept, chooseFrameEncoding } from './transfer-syntax-negotiation.js';

/** A streamed answer: its Content-Type and body. */
export interface TStreamAnswer {
  contentType: string;
  body: Readable;
}

/** WADO-RS Retrieve Study / Series / Instance (PS3.18 §10.4.1.1.1): the stored files byte-for-byte. */
export async function retrieveInstances(
  ctx: AppContext,
  scope: TStudyScope,
  target: TTarget,
  accept: readonly TMediaRange[],
): Promise<TStreamAnswer> {
  const stored = await listStoredInstances(ctx.db, scope, target);
  checkInstancesAccept(new Set(stored.map((i) => i.transferSyntaxUid)), accept);
  const boundary = newBoundary();
  const parts = stored.map((instance): TPart => ({
    contentType: `application/dicom; transfer-syntax=${instance.transferSyntaxUid}`,
    open: () => ctx.blobs.get(instance.blobKey),
  }));
  return {
    contentType: multipartContentType(boundary, 'application/dicom'),
    body: multipartStream(boundary, parts),
  };
}

/** '1,3,5' → [1, 3, 5] (1-based, PS3.18 §8.3.3.1.2); 400 for anything else. */
export function parseFrameList(text: string): number[] {
  const numbers = text.split(',').map((part) => part.trim());
  if (numbers.length === 0 || numbers.length > 10_000 || numbers.some((n) => !/^[1-9]\d{0,8}$/.test(n))) {
    throw new HttpError(
      400,
      `Invalid frame list '${text.slice(0, 100)}': expected 1-based numbers separated by commas`,
    );
  }
  return numbers.map(Number);
}

/**
 * One frame's bytes (0-based index) in the stored syntax: one ranged read when ingest recorded the
 * frame as a plain byte range, else (deflated files, frames over several fragments, unaligned
 * 1-bit frames) the file is read and cut by packages/dicom.
 */
export async function readFrame(
  ctx: AppContext,
  instance: TStoredInstance,
  index: number,
): Promise<Uint8Array> {
  const range = instance.frames?.[index];
  if (range) return ctx.blobs.read(instance.blobKey, { start: range[0], end: range[0] + range[1] });
  const bytes = new Uint8Array(await ctx.blobs.read(instance.blobKey));
  try {
    return extractFrame(bytes, parseInstance(bytes), index);
  } catch (error) {
    if (error instanceof DicomFrameError || error instanceof DicomParseError) {
      throw new HttpError(409, `Frame ${index + 1} cannot be cut from the stored file: ${error.message}`);
    }
    throw error;
  }
}

function frameCountOf(instance: TStoredInstance): number {
  return instance.frames?.length ?? Math.max(0, instance.numberOfFrames);
}

/** The first value of a numeric attribute of an instance's PS3.18 JSON, or null. */
export const numberValue = (metadata: Record<string, unknown>, tag: string): number | null => {
  const value = (metadata[tag] as { Value?: unknown[] } | undefined)?.Value?.[0];
  return typeof value === 'number' ? value : null;
};

/** 16-bit words byte-swapped (big-endian pixels sent as little endian); an odd last byte dropped. */
export function swap16(bytes: Uint8Array): Uint8Array {
  const copy = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength - (bytes.byteLength % 2));
  return Buffer.from(copy).swap16();
}

/** WADO-RS Retrieve Frames (PS3.18 §10.4.1.1.4): each frame as one part, in the stored syntax. */
export async function retrieveFrames(
  ctx: AppContext,
  scope: TStudyScope,
  target: Required<TTarget>,
  frameList: string,
  accept: readonly TMediaRange[],
): Promise<TStreamAnswer> {
  const numbers = parseFrameList(frameList);
  const instance = await findStoredInstance(ctx.db, scope, target);
  const count = frameCountOf(instance);
  if (!instance.metadata['7FE00010'] && !instance.metadata['7FE00008'] && !instance.metadata['7FE00009']) {
    throw notFound('Pixel data');
  }
  const missing = numbers.find((n) => n > count);
  if (missing !== undefined)
    throw new HttpError(404, `Frame ${missing} not found: the instance has ${count} frame(s)`);
  const encoding = chooseFrameEncoding(
    instance.transferSyntaxUid,
    numberValue(instance.metadata, '00280100'),
    accept,
  );
  const boundary = newBoundary();
  const partType = `${encoding.partType}; transfer-syntax=${encoding.transferSyntaxUid}`;
  const parts = numbers.map((n): TPart => ({
    contentType: partType,
    open: async () => {
      const frame = await readFrame(ctx, instance, n - 1);
      return encoding.swap16 ? swap16(frame) : frame;
    },
  }));
  return {
    contentType: multipartContentType(boundary, encoding.partType, {
      'transfer-syntax': encoding.transferSyntaxUid,
    }),
    body: multipartStream(boundary, parts),
  };
}

const PIXEL_TAGS = new Set(['7FE00010', '7FE00008', '7FE00009']);

/** The element a bulk path ('00282000' or '54000100.0.54001010') names in a parsed data set. */
function elementAt(
  dataSet: ParsedInstance['dataSet'],
  path: string,
): { dataOffset: number; length: number } | null {
  const steps = path.split('.');
  let current: ParsedInstance['dataSet'] | undefined = dataSet;
  for (let i = 0; i < steps.length && current; i += 2) {
    const element: ParsedInstance['dataSet']['elements'][string] | undefined =
      current.elements[`x${(steps[i] as string).toLowerCase()}`];
    if (!element) return null;
    if (i + 1 >= steps.length) return { dataOffset: element.dataOffset, length: element.length };
    current = element.items?.[Number(steps[i + 1])]?.dataSet;
  }
  return null;
}

function hasBulkDataUri(metadata: Record<string, unknown>, path: string): boolean {
  const steps = path.toUpperCase().split('.');
  let dataset: Record<string, unknown> | undefined = metadata;
  for (let i = 0; i < steps.length && dataset; i += 2) {
    const element = dataset[steps[i] as string] as { BulkDataURI?: string; Value?: unknown[] } | undefined;
    if (i + 1 >= steps.length) return typeof element?.BulkDataURI === 'string';
    dataset = element?.Value?.[Number(steps[i + 1])] as Record<string, unknown> | undefined;
  }
  return false;
}

/**
 * WADO-RS Retrieve Bulkdata (PS3.18 §10.4.1.1.5) for the BulkDataURIs ingest writes
 * (archive/dicom-keys.ts `bulkDataUri`): pixel data as its frames (one part per frame; a native
 * value as one part), any other value read from the file.
 */
export async function retrieveBulkData(
  ctx: AppContext,
  scope: TStudyScope,
  target: Required<TTarget>,
  path: string,
  accept: readonly TMediaRange[],
): Promise<TStreamAnswer> {
  if (!/^[0-9A-Fa-f]{8}(\.\d{1,6}\.[0-9A-Fa-f]{8}){0,8}$/.test(path)) throw notFound('Bulk data');
  const instance = await findStoredInstance(ctx.db, scope, target);
  const boundary = newBoundary();
  const tag = path.toUpperCase();
  if (PIXEL_TAGS.has(tag)) {
    if (!instance.metadata[tag]) throw notFound('Bulk data');
    const encoding = chooseFrameEncoding(
      instance.transferSyntaxUid,
      numberValue(instance.metadata, '00280100'),
      accept,
    );
    const frames = frameCountOf(instance);
    const isNative = !describeTransferSyntax(instance.transferSyntaxUid).isEncapsulated;
    const indexes = Array.from({ length: Math.max(1, frames) }, (_, i) => i);
    const open = async (list: number[]) => {
      const chunks = await Promise.all(list.map((i) => readFrame(ctx, instance, i)));
      const joined = chunks.length === 1 ? (chunks[0] as Uint8Array) : Buffer.concat(chunks);
      return encoding.swap16 ? swap16(joined) : joined;
    };
    const partType = `${encoding.partType}; transfer-syntax=${encoding.transferSyntaxUid}`;
    const parts: TPart[] = isNative
      ? [{ contentType: partType, open: () => open(indexes) }]
      : indexes.map((i) => ({ contentType: partType, open: () => open([i]) }));
    return {
      contentType: multipartContentType(boundary, encoding.partType, {
        'transfer-syntax': encoding.transferSyntaxUid,
      }),
      body: multipartStream(boundary, parts),
    };
  }
  // Only values the metadata names by a BulkDataURI are bulk data; the others are in the metadata.
  if (!hasBulkDataUri(instance.metadata, path)) throw notFound('Bulk data');
  const bytes = new Uint8Array(await ctx.blobs.read(instance.blobKey));
  let value: Uint8Array | null = null;
  try {
    const parsed = parseInstance(bytes);
    const element = elementAt(parsed.dataSet, path);
    if (element)
      value = parsed.datasetBytes.subarray(element.dataOffset, element.dataOffset + element.length);
  } catch (error) {
    if (!(error instanceof DicomParseError)) throw error;
  }
  if (!value) throw notFound('Bulk data');
  const found = value;
  return {
    contentType: multipartContentType(boundary, 'application/octet-stream'),
    body: multipartStream(boundary, [{ contentType: 'application/octet-stream', open: () => found }]),
  };
}
