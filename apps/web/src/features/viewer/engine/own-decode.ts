import {
  decodeNativeFrame,
  isNativeFrameSyntax,
  nativePhotometricProblem,
} from '@radflow/dicom/native-frame';

/**
 * Native frames Cornerstone 5.14's loader draws wrong, decoded by the server's own code
 * (packages/dicom `codecs/native.ts`) before Cornerstone sees them (VIEWER.md "Pixel layouts"):
 * - YBR_FULL_422 / YBR_PARTIAL_422: its isColorConversionRequired expects the 4:2:0 length for
 *   4:2:2, so a native 4:2:2 frame is never converted and shows black (issue 21 §2); PARTIAL has
 *   no converter at all;
 * - Bits Allocated 1 (SEG): the wadors path never unpacks bits (one byte for eight pixels), native,
 *   deflated per frame (1.2.840.10008.1.2.8.1) or big endian alike;
 * - photometrics only compressed streams carry (YBR_ICT/RCT, YBR_PARTIAL_420, XYB) or retired
 *   ones, labelled on a native frame: Cornerstone takes them as RGB; refused instead.
 * Compressed frames of these images (e.g. JPEG baseline YBR_FULL_422) are Cornerstone's.
 */

/** The image pixel module as Cornerstone's metadata providers give it (the fields decoding reads). */
export interface TPixelModule {
  rows: number;
  columns: number;
  samplesPerPixel: number;
  bitsAllocated: number;
  bitsStored: number;
  highBit: number;
  pixelRepresentation: number;
  photometricInterpretation: string;
  planarConfiguration?: number;
  [key: string]: unknown;
}

/** What Cornerstone gets for one frame: bytes, their syntax, and the pixel module they now follow. */
export interface TPreparedFrame {
  pixelData: Uint8Array;
  transferSyntaxUid: string;
  /** Set when the frame was decoded here: RGB for YBR, 8 bits for 1-bit. */
  pixelModule?: TPixelModule;
}

const EXPLICIT_VR_LITTLE_ENDIAN = '1.2.840.10008.1.2.1';

const photometricOf = (pixel: TPixelModule) =>
  String(pixel.photometricInterpretation ?? '')
    .trim()
    .toUpperCase();

/** Whether frames of this image may have to be decoded here (decided by their syntax, once fetched). */
export function mayNeedOwnDecode(pixel: TPixelModule): boolean {
  const photometric = photometricOf(pixel);
  return (
    photometric.endsWith('_422') ||
    pixel.bitsAllocated === 1 ||
    nativePhotometricProblem(photometric) !== null
  );
}

/**
 * The frame as Cornerstone should get it: decoded here when it is native and of a layout above,
 * else as fetched. Throws (FrameDecodeError, naming the layout) for a native frame not to be drawn.
 */
export async function prepareFrame(
  frame: { transferSyntaxUid: string; bytes: Uint8Array },
  pixel: TPixelModule,
): Promise<TPreparedFrame> {
  const asFetched = { pixelData: frame.bytes, transferSyntaxUid: frame.transferSyntaxUid };
  if (!isNativeFrameSyntax(frame.transferSyntaxUid) || !mayNeedOwnDecode(pixel)) return asFetched;
  const decoded = await decodeNativeFrame({
    transferSyntaxUid: frame.transferSyntaxUid,
    bytes: frame.bytes,
    rows: pixel.rows,
    columns: pixel.columns,
    bitsAllocated: pixel.bitsAllocated,
    samplesPerPixel: pixel.samplesPerPixel,
    photometricInterpretation: photometricOf(pixel),
    planarConfiguration: pixel.planarConfiguration ?? null,
  });
  const bitsStored = Math.min(pixel.bitsStored || decoded.bitsAllocated, decoded.bitsAllocated);
  return {
    pixelData: decoded.pixels,
    transferSyntaxUid: EXPLICIT_VR_LITTLE_ENDIAN,
    pixelModule: {
      ...pixel,
      photometricInterpretation: decoded.photometricInterpretation,
      samplesPerPixel: decoded.samplesPerPixel,
      bitsAllocated: decoded.bitsAllocated,
      bitsStored,
      highBit: bitsStored - 1,
      planarConfiguration: 0,
    },
  };
}
