import {
  FrameDecodeError,
  toDisplayImage as toDisplayImageOf,
  type DecodedFrame,
  type DisplayImage,
  type DisplayMetadata,
  type DisplayWindow,
  type ReadElement,
} from '@radflow/dicom';
import { HttpError } from './transfer-syntax-negotiation.js';

/**
 * The rendered endpoints' side of packages/dicom `toDisplayImage` (decoded pixels to 8-bit grey or
 * RGB, shared with the router's offline viewer): what it cannot draw answers 406 naming why.
 */

export type Metadata = DisplayMetadata;
export type TWindow = DisplayWindow;
export type RawImage = DisplayImage;

export const first = (metadata: Metadata, tag: string): number | null =>
  (metadata[tag]?.Value ?? []).find((v): v is number => typeof v === 'number') ?? null;
export const textOf = (metadata: Metadata, tag: string): string => {
  const value = metadata[tag]?.Value?.[0];
  return typeof value === 'string' ? value : '';
};

export const unsupported = (why: string) =>
  new HttpError(
    406,
    `The server cannot render this image: ${why}. Fetch its frames and decode them in the viewer.`,
  );

export async function toDisplayImage(
  decoded: DecodedFrame,
  frameIndex: number,
  metadata: Metadata,
  readElement: ReadElement,
  isFloat: boolean,
  window: TWindow | null = null,
): Promise<RawImage> {
  try {
    return await toDisplayImageOf(decoded, frameIndex, metadata, readElement, isFloat, window);
  } catch (error) {
    if (error instanceof FrameDecodeError && error.code === 'UNSUPPORTED') throw unsupported(error.message);
    throw error;
  }
}
