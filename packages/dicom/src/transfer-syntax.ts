/**
 * Transfer syntaxes (PS3.5 §10, Annex A; UIDs from PS3.6 Annex A).
 * Which of them the web viewer decodes is a rule of the browser: `isDecodableSyntax` in
 * @radflow/core (packages/core/src/viewer/transfer-syntax.ts).
 */
export interface TransferSyntaxInfo {
  readonly uid: string;
  readonly name: string;
  /** Pixel Data is a sequence of fragments (PS3.5 §A.4) rather than a native value. */
  readonly isEncapsulated: boolean;
  readonly isExplicitVr: boolean;
  readonly isBigEndian: boolean;
  /** The data set after the file meta is a raw deflate stream (PS3.5 §A.5). */
  readonly isDeflated: boolean;
  readonly isLossy: boolean;
  /** A video syntax: the whole Pixel Data is one stream, not one item per frame. */
  readonly isVideo: boolean;
  readonly isRetired: boolean;
}

/** The syntaxes other modules name in code. */
export const TRANSFER_SYNTAX = {
  implicitVrLittleEndian: '1.2.840.10008.1.2',
  explicitVrLittleEndian: '1.2.840.10008.1.2.1',
  explicitVrBigEndian: '1.2.840.10008.1.2.2',
  deflatedExplicitVrLittleEndian: '1.2.840.10008.1.2.1.99',
  encapsulatedUncompressedExplicitVrLittleEndian: '1.2.840.10008.1.2.1.98',
  jpegBaseline: '1.2.840.10008.1.2.4.50',
  jpegExtended: '1.2.840.10008.1.2.4.51',
  jpegLossless: '1.2.840.10008.1.2.4.57',
  jpegLosslessSv1: '1.2.840.10008.1.2.4.70',
  jpegLsLossless: '1.2.840.10008.1.2.4.80',
  jpegLsNearLossless: '1.2.840.10008.1.2.4.81',
  jpeg2000Lossless: '1.2.840.10008.1.2.4.90',
  jpeg2000: '1.2.840.10008.1.2.4.91',
  htj2kLossless: '1.2.840.10008.1.2.4.201',
  htj2kLosslessRpcl: '1.2.840.10008.1.2.4.202',
  htj2k: '1.2.840.10008.1.2.4.203',
  rleLossless: '1.2.840.10008.1.2.5',
  deflatedImageFrameCompression: '1.2.840.10008.1.2.8.1',
} as const;

type Flags = Partial<Omit<TransferSyntaxInfo, 'uid' | 'name'>>;

const native: Flags = { isExplicitVr: true };
const encapsulated = (flags: Flags = {}): Flags => ({ isEncapsulated: true, isExplicitVr: true, ...flags });
const video: Flags = { isEncapsulated: true, isExplicitVr: true, isLossy: true, isVideo: true };
const retiredJpeg: Flags = { isEncapsulated: true, isExplicitVr: true, isRetired: true };

const DEFINITIONS: ReadonlyArray<readonly [string, string, Flags]> = [
  ['1.2.840.10008.1.2', 'Implicit VR Little Endian', { isExplicitVr: false }],
  ['1.2.840.10008.1.2.1', 'Explicit VR Little Endian', native],
  ['1.2.840.10008.1.2.1.98', 'Encapsulated Uncompressed Explicit VR Little Endian', encapsulated()],
  ['1.2.840.10008.1.2.1.99', 'Deflated Explicit VR Little Endian', { ...native, isDeflated: true }],
  [
    '1.2.840.10008.1.2.2',
    'Explicit VR Big Endian (retired)',
    { ...native, isBigEndian: true, isRetired: true },
  ],
  ['1.2.840.10008.1.2.4.50', 'JPEG Baseline (Process 1)', encapsulated({ isLossy: true })],
  ['1.2.840.10008.1.2.4.51', 'JPEG Extended (Process 2 & 4)', encapsulated({ isLossy: true })],
  ['1.2.840.10008.1.2.4.52', 'JPEG Extended (Process 3 & 5) (retired)', retiredJpeg],
  [
    '1.2.840.10008.1.2.4.53',
    'JPEG Spectral Selection, Non-Hierarchical (Process 6 & 8) (retired)',
    retiredJpeg,
  ],
  [
    '1.2.840.10008.1.2.4.54',
    'JPEG Spectral Selection, Non-Hierarchical (Process 7 & 9) (retired)',
    retiredJpeg,
  ],
  [
    '1.2.840.10008.1.2.4.55',
    'JPEG Full Progression, Non-Hierarchical (Process 10 & 12) (retired)',
    retiredJpeg,
  ],
  [
    '1.2.840.10008.1.2.4.56',
    'JPEG Full Progression, Non-Hierarchical (Process 11 & 13) (retired)',
    retiredJpeg,
  ],
  ['1.2.840.10008.1.2.4.57', 'JPEG Lossless, Non-Hierarchical (Process 14)', encapsulated()],
  ['1.2.840.10008.1.2.4.58', 'JPEG Lossless, Non-Hierarchical (Process 15) (retired)', retiredJpeg],
  ['1.2.840.10008.1.2.4.59', 'JPEG Extended, Hierarchical (Process 16 & 18) (retired)', retiredJpeg],
  ['1.2.840.10008.1.2.4.60', 'JPEG Extended, Hierarchical (Process 17 & 19) (retired)', retiredJpeg],
  [
    '1.2.840.10008.1.2.4.61',
    'JPEG Spectral Selection, Hierarchical (Process 20 & 22) (retired)',
    retiredJpeg,
  ],
  [
    '1.2.840.10008.1.2.4.62',
    'JPEG Spectral Selection, Hierarchical (Process 21 & 23) (retired)',
    retiredJpeg,
  ],
  ['1.2.840.10008.1.2.4.63', 'JPEG Full Progression, Hierarchical (Process 24 & 26) (retired)', retiredJpeg],
  ['1.2.840.10008.1.2.4.64', 'JPEG Full Progression, Hierarchical (Process 25 & 27) (retired)', retiredJpeg],
  ['1.2.840.10008.1.2.4.65', 'JPEG Lossless, Hierarchical (Process 28) (retired)', retiredJpeg],
  ['1.2.840.10008.1.2.4.66', 'JPEG Lossless, Hierarchical (Process 29) (retired)', retiredJpeg],
  [
    '1.2.840.10008.1.2.4.70',
    'JPEG Lossless, Non-Hierarchical, First-Order Prediction (Process 14, Selection Value 1)',
    encapsulated(),
  ],
  ['1.2.840.10008.1.2.4.80', 'JPEG-LS Lossless Image Compression', encapsulated()],
  [
    '1.2.840.10008.1.2.4.81',
    'JPEG-LS Lossy (Near-Lossless) Image Compression',
    encapsulated({ isLossy: true }),
  ],
  ['1.2.840.10008.1.2.4.90', 'JPEG 2000 Image Compression (Lossless Only)', encapsulated()],
  ['1.2.840.10008.1.2.4.91', 'JPEG 2000 Image Compression', encapsulated({ isLossy: true })],
  [
    '1.2.840.10008.1.2.4.92',
    'JPEG 2000 Part 2 Multi-component Image Compression (Lossless Only)',
    encapsulated(),
  ],
  [
    '1.2.840.10008.1.2.4.93',
    'JPEG 2000 Part 2 Multi-component Image Compression',
    encapsulated({ isLossy: true }),
  ],
  ['1.2.840.10008.1.2.4.94', 'JPIP Referenced', native],
  ['1.2.840.10008.1.2.4.95', 'JPIP Referenced Deflate', { ...native, isDeflated: true }],
  ['1.2.840.10008.1.2.4.100', 'MPEG2 Main Profile / Main Level', video],
  ['1.2.840.10008.1.2.4.100.1', 'Fragmentable MPEG2 Main Profile / Main Level', video],
  ['1.2.840.10008.1.2.4.101', 'MPEG2 Main Profile / High Level', video],
  ['1.2.840.10008.1.2.4.101.1', 'Fragmentable MPEG2 Main Profile / High Level', video],
  ['1.2.840.10008.1.2.4.102', 'MPEG-4 AVC/H.264 High Profile / Level 4.1', video],
  ['1.2.840.10008.1.2.4.102.1', 'Fragmentable MPEG-4 AVC/H.264 High Profile / Level 4.1', video],
  ['1.2.840.10008.1.2.4.103', 'MPEG-4 AVC/H.264 BD-compatible High Profile / Level 4.1', video],
  [
    '1.2.840.10008.1.2.4.103.1',
    'Fragmentable MPEG-4 AVC/H.264 BD-compatible High Profile / Level 4.1',
    video,
  ],
  ['1.2.840.10008.1.2.4.104', 'MPEG-4 AVC/H.264 High Profile / Level 4.2 For 2D Video', video],
  ['1.2.840.10008.1.2.4.104.1', 'Fragmentable MPEG-4 AVC/H.264 High Profile / Level 4.2 For 2D Video', video],
  ['1.2.840.10008.1.2.4.105', 'MPEG-4 AVC/H.264 High Profile / Level 4.2 For 3D Video', video],
  ['1.2.840.10008.1.2.4.105.1', 'Fragmentable MPEG-4 AVC/H.264 High Profile / Level 4.2 For 3D Video', video],
  ['1.2.840.10008.1.2.4.106', 'MPEG-4 AVC/H.264 Stereo High Profile / Level 4.2', video],
  ['1.2.840.10008.1.2.4.106.1', 'Fragmentable MPEG-4 AVC/H.264 Stereo High Profile / Level 4.2', video],
  ['1.2.840.10008.1.2.4.107', 'HEVC/H.265 Main Profile / Level 5.1', video],
  ['1.2.840.10008.1.2.4.108', 'HEVC/H.265 Main 10 Profile / Level 5.1', video],
  ['1.2.840.10008.1.2.4.201', 'High-Throughput JPEG 2000 Image Compression (Lossless Only)', encapsulated()],
  [
    '1.2.840.10008.1.2.4.202',
    'High-Throughput JPEG 2000 with RPCL Options Image Compression (Lossless Only)',
    encapsulated(),
  ],
  ['1.2.840.10008.1.2.4.203', 'High-Throughput JPEG 2000 Image Compression', encapsulated({ isLossy: true })],
  ['1.2.840.10008.1.2.5', 'RLE Lossless', encapsulated()],
  // PS3.5 §8.2.16 (Sup 244): one fragment per frame, each the raw deflate of the native frame.
  ['1.2.840.10008.1.2.8.1', 'Deflated Image Frame Compression', encapsulated()],
];

const TABLE: ReadonlyMap<string, TransferSyntaxInfo> = new Map(
  DEFINITIONS.map(([uid, name, flags]) => [
    uid,
    {
      uid,
      name,
      isEncapsulated: flags.isEncapsulated ?? false,
      isExplicitVr: flags.isExplicitVr ?? true,
      isBigEndian: flags.isBigEndian ?? false,
      isDeflated: flags.isDeflated ?? false,
      isLossy: flags.isLossy ?? false,
      isVideo: flags.isVideo ?? false,
      isRetired: flags.isRetired ?? false,
    },
  ]),
);

/** Every transfer syntax this library knows (PS3.6 Annex A), in UID order of the standard. */
export function listTransferSyntaxes(): TransferSyntaxInfo[] {
  return [...TABLE.values()];
}

/** The table entry for a Transfer Syntax UID, or undefined for a private or unknown one. */
export function getTransferSyntax(uid: string): TransferSyntaxInfo | undefined {
  return TABLE.get(uid);
}

/**
 * How to read a data set in a syntax. An unknown (private) UID is read the way PS3.5 §10 says every
 * syntax but the three native ones and deflate is: explicit VR little endian, encapsulated pixels.
 */
export function describeTransferSyntax(uid: string): TransferSyntaxInfo {
  return (
    TABLE.get(uid) ?? {
      uid,
      name: `Unknown transfer syntax ${uid}`,
      isEncapsulated: true,
      isExplicitVr: true,
      isBigEndian: false,
      isDeflated: false,
      isLossy: false,
      isVideo: false,
      isRetired: false,
    }
  );
}

/** Native (uncompressed, not deflated) syntaxes: the pixel data is stored as-is (PS3.5 §8.1.1). */
export function isKnownUncompressedSyntax(uid: string): boolean {
  return (
    uid === TRANSFER_SYNTAX.implicitVrLittleEndian ||
    uid === TRANSFER_SYNTAX.explicitVrLittleEndian ||
    uid === TRANSFER_SYNTAX.explicitVrBigEndian
  );
}
