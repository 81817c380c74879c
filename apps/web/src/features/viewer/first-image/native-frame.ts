import { TAG, numberOf, numbersOf, textOf, type TDicomJson } from '../data-source/dicom-json';

/**
 * The first image without Cornerstone (VIEWER.md "Speed"): one native (uncompressed, little
 * endian) greyscale frame turned into display grey levels with exactly the arithmetic Cornerstone's
 * CPU stack rendering applies to it, so the preview and the viewport that replaces it show the same
 * pixels. Anything this cannot reproduce exactly is refused (a reason, no pixels): the viewer then
 * shows nothing until Cornerstone draws — a preview must never mislead.
 */

/** Implicit and explicit VR little endian: the frame's bytes are the pixels (PS3.5 §A.1, §A.2). */
export const NATIVE_LITTLE_ENDIAN_SYNTAXES: readonly string[] = ['1.2.840.10008.1.2', '1.2.840.10008.1.2.1'];

const PIXEL = {
  samplesPerPixel: '00280002',
  photometricInterpretation: '00280004',
  columns: '00280011',
  pixelSpacing: '00280030',
  bitsAllocated: '00280100',
  bitsStored: '00280101',
  highBit: '00280102',
  pixelRepresentation: '00280103',
  windowCenter: '00281050',
  windowWidth: '00281051',
  rescaleIntercept: '00281052',
  rescaleSlope: '00281053',
  voiLutFunction: '00281056',
  modalityLutSequence: '00283000',
  voiLutSequence: '00283010',
} as const;

/** A frame turned into grey levels, at the image's own size. */
export interface TPreviewPixels {
  rows: number;
  columns: number;
  /** RGBA, rows × columns × 4, opaque. */
  rgba: Uint8ClampedArray<ArrayBuffer>;
  /** PixelSpacing [row, column] in mm (1, 1 without one, as Cornerstone assumes). */
  rowPixelSpacing: number;
  columnPixelSpacing: number;
  /** The window Cornerstone starts with (the instance's first one, else the pixels' range). */
  windowWidth: number;
  windowCenter: number;
}

export type TPreviewResult = { ok: true; pixels: TPreviewPixels } | { ok: false; reason: string };

const refuse = (reason: string): TPreviewResult => ({ ok: false, reason });

/**
 * The transfer syntax a WADO-RS frame part names (`transfer-syntax=` of its Content-Type), as
 * Cornerstone's wadors loader reads it: without one, an octet stream is implicit VR little endian.
 */
export function syntaxOfContentType(contentType: string): string {
  const syntax = /(?:^|;)\s*transfer-syntax\s*=\s*"?([^";\s]+)"?/i.exec(contentType)?.[1];
  if (syntax) return syntax;
  return /^\s*application\/octet-stream\s*(;|$)/i.test(contentType) ? '1.2.840.10008.1.2' : '';
}

/** One body part of a multipart answer: its Content-Type and bytes (a view of the body). */
export interface TBodyPart {
  contentType: string;
  bytes: Uint8Array<ArrayBuffer>;
}

/**
 * The parts of a multipart/related answer (PS3.18 §8.7.3.3.2; RFC 2046 §5.1.1), in order, or the
 * body itself as one part when the answer is not multipart; null when it cannot be read.
 */
export function partsOf(contentType: string, body: Uint8Array<ArrayBuffer>): TBodyPart[] | null {
  if (!/^\s*multipart\//i.test(contentType)) return [{ contentType, bytes: body }];
  const boundary = /boundary\s*=\s*"?([^";]+)"?/i.exec(contentType)?.[1]?.trim();
  if (!boundary) return null;
  const delimiter = encode(`--${boundary}`);
  const next = encode(`\r\n--${boundary}`);
  const parts: TBodyPart[] = [];
  let at = indexOf(body, delimiter, 0);
  if (at < 0) return null;
  at += delimiter.length;
  // After each delimiter: "--" closes the body, else a part's headers, a blank line and its bytes.
  while (!(body[at] === 0x2d && body[at + 1] === 0x2d)) {
    const headerEnd = indexOf(body, encode('\r\n\r\n'), at);
    if (headerEnd < 0) return null;
    const headers = new TextDecoder().decode(body.subarray(at, headerEnd));
    const partType = /^content-type:\s*(.+)$/im.exec(headers)?.[1]?.trim() ?? 'application/octet-stream';
    const start = headerEnd + 4;
    const end = indexOf(body, next, start);
    if (end < 0) return null;
    parts.push({ contentType: partType, bytes: body.subarray(start, end) });
    at = end + next.length;
  }
  return parts;
}

/**
 * The server's first-image answer (`GET /api/viewer/studies/:study/first-image`) read: its JSON part
 * (the series, the instance's metadata, the stack's frame count) and the frame part; null when it is
 * not that. Read by the early script and by the app alike.
 */
export function firstImageAnswerOf<TDescriptor>(
  contentType: string,
  body: Uint8Array<ArrayBuffer>,
): { descriptor: TDescriptor; frame: TBodyPart } | null {
  const [descriptorPart, frame] = partsOf(contentType, body) ?? [];
  if (!descriptorPart || !frame) return null;
  return { descriptor: JSON.parse(new TextDecoder().decode(descriptorPart.bytes)) as TDescriptor, frame };
}

/** The first part of a WADO-RS multipart/related answer, or the body itself when it is not multipart. */
export function firstPartOf(contentType: string, body: Uint8Array<ArrayBuffer>): TBodyPart | null {
  return partsOf(contentType, body)?.[0] ?? null;
}

const encode = (text: string) => new TextEncoder().encode(text);

function indexOf(haystack: Uint8Array, needle: Uint8Array, from: number): number {
  const first = needle[0];
  outer: for (let i = haystack.indexOf(first ?? 0, from); i >= 0; i = haystack.indexOf(first ?? 0, i + 1)) {
    if (i + needle.length > haystack.length) return -1;
    for (let j = 1; j < needle.length; j++) if (haystack[i + j] !== needle[j]) continue outer;
    return i;
  }
  return -1;
}

const firstNumber = (metadata: TDicomJson, tag: string) => numberOf(metadata, tag);

/**
 * The display grey levels of one native frame, or why it is not previewed. The arithmetic is
 * Cornerstone 5's CPU path (dicom-image-loader createImage / decodeImageFrameWorker and core's
 * cpuFallback generateLut / getVOILut):
 * - signed pixels are sign-extended from Bits Stored; unsigned ones are taken as allocated, so a
 *   frame with bits set above High Bit (which Cornerstone would show unmasked) is refused;
 * - modality value = stored × RescaleSlope + RescaleIntercept;
 * - window: the first WindowCenter/WindowWidth, else (min + max + 1) / 2 and |max − min| + 1 of
 *   the modality values (Cornerstone's toWindowLevel);
 * - grey = clamp(((value − (center − 0.5)) / (width − 1) + 0.5) × 255, 0, 255), rounded as a
 *   Uint8ClampedArray rounds; MONOCHROME1 shows 255 − grey.
 */
export function previewPixels(
  metadata: TDicomJson,
  transferSyntaxUid: string,
  frame: Uint8Array,
): TPreviewResult {
  if (!NATIVE_LITTLE_ENDIAN_SYNTAXES.includes(transferSyntaxUid)) {
    return refuse(`transfer syntax ${transferSyntaxUid || 'unknown'} is not native little endian`);
  }
  const photometric = textOf(metadata, PIXEL.photometricInterpretation).trim();
  if (photometric !== 'MONOCHROME1' && photometric !== 'MONOCHROME2') {
    return refuse(`photometric interpretation ${photometric || 'missing'} is not greyscale`);
  }
  if ((firstNumber(metadata, PIXEL.samplesPerPixel) ?? 1) !== 1)
    return refuse('more than one sample per pixel');
  const modality = textOf(metadata, TAG.modality);
  // Cornerstone scales PET (SUV) and RT dose its own way before the window.
  if (modality === 'PT' || modality === 'RTDOSE')
    return refuse(`modality ${modality} is scaled by Cornerstone`);
  if (metadata[TAG.floatPixelData] || metadata[TAG.doubleFloatPixelData]) return refuse('float pixel data');
  if (metadata[PIXEL.modalityLutSequence]) return refuse('a Modality LUT Sequence');
  if (metadata[PIXEL.voiLutSequence]) return refuse('a VOI LUT Sequence');
  const voiFunction = textOf(metadata, PIXEL.voiLutFunction).trim();
  if (voiFunction && voiFunction !== 'LINEAR') return refuse(`VOI LUT function ${voiFunction}`);

  const rows = firstNumber(metadata, TAG.rows) ?? 0;
  const columns = firstNumber(metadata, PIXEL.columns) ?? 0;
  const bitsAllocated = firstNumber(metadata, PIXEL.bitsAllocated) ?? 0;
  const bitsStored = firstNumber(metadata, PIXEL.bitsStored) ?? bitsAllocated;
  const highBit = firstNumber(metadata, PIXEL.highBit) ?? bitsStored - 1;
  const signed = firstNumber(metadata, PIXEL.pixelRepresentation) === 1;
  if (rows < 1 || columns < 1) return refuse('no Rows/Columns');
  if (bitsAllocated !== 8 && bitsAllocated !== 16) return refuse(`${bitsAllocated} bits allocated`);
  // Cornerstone keeps 8-bit pixels in a Uint8Array, signed or not: it would not show these as signed.
  if (bitsAllocated === 8 && signed) return refuse('signed 8-bit pixels');
  if (bitsStored < 1 || bitsStored > bitsAllocated || highBit !== bitsStored - 1) {
    return refuse(`bits stored ${bitsStored} with high bit ${highBit}`);
  }
  const count = rows * columns;
  if (frame.byteLength < count * (bitsAllocated / 8))
    return refuse('the frame is shorter than Rows × Columns');

  const stored = storedValues(frame, count, bitsAllocated, bitsStored, signed);
  if (!stored) return refuse(`pixels with bits set above high bit ${highBit}`);
  const slope = firstNumber(metadata, PIXEL.rescaleSlope) ?? 1;
  const intercept = firstNumber(metadata, PIXEL.rescaleIntercept) ?? 0;

  let center = firstNumber(metadata, PIXEL.windowCenter);
  let width = firstNumber(metadata, PIXEL.windowWidth);
  if (center === null || width === null) {
    let min = Infinity;
    let max = -Infinity;
    for (let i = 0; i < count; i++) {
      const v = stored[i] ?? 0;
      if (v < min) min = v;
      if (v > max) max = v;
    }
    const a = min * slope + intercept;
    const b = max * slope + intercept;
    const [low, high] = a <= b ? [a, b] : [b, a];
    width = Math.abs(high - low) + 1;
    center = (low + high + 1) / 2;
  }
  if (!(width > 1)) return refuse(`window width ${width}`);

  const invert = photometric === 'MONOCHROME1';
  const rgba = new Uint8ClampedArray(count * 4);
  // The same float expression as Cornerstone's linear VOI function, stored the way its
  // Uint8ClampedArray LUT stores it (round half to even, clamped).
  const low = center - 0.5;
  const span = width - 1;
  const grey = new Uint8ClampedArray(1);
  for (let i = 0; i < count; i++) {
    const value = (stored[i] ?? 0) * slope + intercept;
    const level = Math.min(Math.max(((value - low) / span + 0.5) * 255, 0), 255);
    grey[0] = invert ? 255 - level : level;
    const g = grey[0];
    const o = i * 4;
    rgba[o] = g;
    rgba[o + 1] = g;
    rgba[o + 2] = g;
    rgba[o + 3] = 255;
  }
  const spacing = numbersOf(metadata, PIXEL.pixelSpacing);
  return {
    ok: true,
    pixels: {
      rows,
      columns,
      rgba,
      rowPixelSpacing: spacing[0] || 1,
      columnPixelSpacing: spacing[1] || 1,
      windowWidth: width,
      windowCenter: center,
    },
  };
}

/** The stored values of a frame, or null when unsigned pixels carry bits above Bits Stored. */
function storedValues(
  frame: Uint8Array,
  count: number,
  bitsAllocated: number,
  bitsStored: number,
  signed: boolean,
): ArrayLike<number> | null {
  let values: Uint8Array | Int16Array | Uint16Array;
  if (bitsAllocated === 8) {
    values = new Uint8Array(frame.buffer, frame.byteOffset, count);
  } else {
    // A copy when the part starts at an odd offset (typed arrays need aligned views).
    const aligned = frame.byteOffset % 2 === 0 ? frame : frame.slice(0, count * 2);
    values = signed
      ? new Int16Array(aligned.buffer, aligned.byteOffset, count)
      : new Uint16Array(aligned.buffer, aligned.byteOffset, count);
  }
  if (bitsStored === bitsAllocated) return values;
  if (signed) {
    const shift = 32 - bitsStored;
    const out = new Int32Array(count);
    for (let i = 0; i < count; i++) out[i] = ((values[i] ?? 0) << shift) >> shift;
    return out;
  }
  const limit = 2 ** bitsStored;
  for (let i = 0; i < count; i++) if ((values[i] ?? 0) >= limit) return null;
  return values;
}

/**
 * Where Cornerstone's CPU stack viewport puts an image in a canvas of width × height when it
 * fits it (cpuFallback getImageFitScale and calculateTransform, rotation 0): the whole image,
 * centred, at the largest scale that fits, non-square pixels stretched along their longer side.
 * As a 2D-context matrix [a, b, c, d, e, f], and the scale (the zoom Cornerstone reports).
 */
export function fitTransform(
  pixels: Pick<TPreviewPixels, 'rows' | 'columns' | 'rowPixelSpacing' | 'columnPixelSpacing'>,
  width: number,
  height: number,
): { matrix: [number, number, number, number, number, number]; scale: number } {
  const { rows, columns, rowPixelSpacing: r, columnPixelSpacing: c } = pixels;
  const horizontalRatio = r < c ? c / r : 1;
  const verticalRatio = r < c ? 1 : r / c;
  const scale = Math.min(height / rows / verticalRatio, width / columns / horizontalRatio);
  const widthScale = r < c ? scale * (c / r) : scale;
  const heightScale = c < r ? scale * (r / c) : scale;
  return {
    matrix: [
      widthScale,
      0,
      0,
      heightScale,
      width / 2 - (widthScale * columns) / 2,
      height / 2 - (heightScale * rows) / 2,
    ],
    scale,
  };
}
