/**
 * Issue 21 §2: one generated image per photometric interpretation and planar configuration of
 * PS3.3 §C.7.6.3.1.2 that native pixel data may carry, with the pixels a viewer must show. The
 * same catalogue checks packages/dicom `decodeFrame`, the server's rendered/thumbnail answers and
 * the web viewer's decode.
 *
 * Native-capable: MONOCHROME1, MONOCHROME2, PALETTE COLOR, RGB (planar 0 and 1), YBR_FULL (planar
 * 0 and 1), YBR_FULL_422 (planar 0 only, §C.7.6.3.1.3) and the retired YBR_PARTIAL_422.
 * Compressed syntaxes only (PS3.5 §8.2): YBR_PARTIAL_420 (MPEG-2, H.264, HEVC), YBR_ICT and
 * YBR_RCT (JPEG 2000, HTJ2K), XYB (JPEG XL); a native frame labelled with one of them is refused.
 * HSV, ARGB and CMYK are retired and not drawn.
 */
import type { TestImage } from './test-builders.js';
import { packBits } from './test-builders.js';

export const ROWS = 2;
export const COLUMNS = 4;

type Rgb = [number, number, number];
const clamp = (v: number) => Math.min(255, Math.max(0, Math.round(v)));

/** RGB → YBR_FULL (PS3.3 §C.7.6.3.1.2), rounded to 8 bits. */
export function toYbrFull([r, g, b]: Rgb): Rgb {
  return [
    clamp(0.299 * r + 0.587 * g + 0.114 * b),
    clamp(-0.168736 * r - 0.331264 * g + 0.5 * b + 128),
    clamp(0.5 * r - 0.418688 * g - 0.081312 * b + 128),
  ];
}

/** YBR_FULL → RGB, the inverse the decoders apply. */
export function fromYbrFull([y, cb, cr]: Rgb): Rgb {
  return [
    clamp(y + 1.402 * (cr - 128)),
    clamp(y - 0.344136 * (cb - 128) - 0.714136 * (cr - 128)),
    clamp(y + 1.772 * (cb - 128)),
  ];
}

/** RGB → YBR_PARTIAL (ITU-R BT.601 studio range: Y 16–235, Cb/Cr 16–240). */
export function toYbrPartial([r, g, b]: Rgb): Rgb {
  return [
    clamp(16 + 0.2568 * r + 0.5041 * g + 0.0979 * b),
    clamp(128 - 0.1482 * r - 0.291 * g + 0.4392 * b),
    clamp(128 + 0.4392 * r - 0.3678 * g - 0.0714 * b),
  ];
}

const COLOURS: Rgb[] = [
  [255, 0, 0],
  [0, 255, 0],
  [0, 0, 255],
  [255, 255, 255],
  [0, 0, 0],
  [128, 64, 32],
  [10, 200, 100],
  [255, 255, 0],
];
/** 4:2:2 pairs share their chroma: equal colours in each pair, or greys (chroma 128) of two lumas. */
const PAIRED: Rgb[] = [
  [255, 0, 0],
  [255, 0, 0],
  [0, 0, 255],
  [0, 0, 255],
  [50, 50, 50],
  [200, 200, 200],
  [128, 64, 32],
  [128, 64, 32],
];

const interleaved = (pixels: Rgb[]) => Uint8Array.from(pixels.flat());
const planar = (pixels: Rgb[]) =>
  Uint8Array.from([0, 1, 2].flatMap((c) => pixels.map((p) => p[c] as number)));
/** Native YBR_*_422: Y1 Y2 Cb Cr for each pair of pixels of a row (§C.7.6.3.1.2). */
const subsampled = (ybr: Rgb[]) => {
  const out: number[] = [];
  for (let i = 0; i < ybr.length; i += 2) {
    const [a, b] = [ybr[i] as Rgb, ybr[i + 1] as Rgb];
    out.push(a[0], b[0], a[1], a[2]);
  }
  return Uint8Array.from(out);
};
const grey = (values: number[]): Rgb[] => values.map((v) => [v, v, v]);
const words = (values: number[], signed: boolean) => {
  const out = new Uint8Array(values.length * 2);
  const view = new DataView(out.buffer);
  values.forEach((v, i) => (signed ? view.setInt16(i * 2, v, true) : view.setUint16(i * 2, v, true)));
  return out;
};

const GREY8 = [0, 255, 100, 50, 200, 150, 25, 75];
const SIGNED16 = [-1000, 1000, 0, 500, -500, 250, -250, 750];
const INDICES = [0, 1, 2, 3, 3, 2, 1, 0];
const PALETTE = {
  first: 0,
  red: [0xffff, 0x0000, 0x0000, 0x8080],
  green: [0x0000, 0xffff, 0x0000, 0x4040],
  blue: [0x0000, 0x0000, 0xffff, 0x2020],
};
const BITS = [
  [0, 1, 0, 0, 1, 1, 0, 1],
  [1, 1, 1, 1, 0, 0, 0, 0],
  [1, 0, 1, 0, 1, 0, 1, 0],
];

export const DEFLATED_IMAGE_FRAME_COMPRESSION = '1.2.840.10008.1.2.8.1';

export interface PhotometricCase {
  name: string;
  image: TestImage;
  /**
   * What decoding gives, per frame: stored values for greyscale and palette indices (one sample a
   * pixel), RGB for colour.
   */
  decoded: number[][];
  /** The 8-bit RGB a viewer shows for frame 1 (greyscale: min–max window, MONOCHROME1 inverted). */
  display: Rgb[];
  /** Rounding allowed per sample (colour conversions). */
  tolerance: number;
}

const mono = (photometric: string, values: number[], display: number[]): PhotometricCase => ({
  name: `${photometric} 8-bit`,
  image: {
    rows: ROWS,
    columns: COLUMNS,
    samplesPerPixel: 1,
    photometricInterpretation: photometric,
    bitsAllocated: 8,
    frames: [Uint8Array.from(values)],
  },
  decoded: [values],
  display: grey(display),
  tolerance: 0,
});

const ybrFull = COLOURS.map(toYbrFull);
const ybr422 = PAIRED.map(toYbrFull);
const ybrPartial422 = PAIRED.map(toYbrPartial);

const seg = (syntax?: string): PhotometricCase => ({
  name: `MONOCHROME2 1-bit, 3 frames${syntax ? ' (Deflated Image Frame Compression)' : ''}`,
  image: {
    rows: ROWS,
    columns: COLUMNS,
    samplesPerPixel: 1,
    photometricInterpretation: 'MONOCHROME2',
    bitsAllocated: 1,
    frames: BITS.map((bits) => packBits(bits)),
    ...(syntax ? { transferSyntaxUid: syntax } : {}),
  },
  decoded: BITS,
  display: grey((BITS[0] as number[]).map((b) => b * 255)),
  tolerance: 0,
});

export const PHOTOMETRIC_CASES: PhotometricCase[] = [
  mono('MONOCHROME2', GREY8, GREY8),
  mono(
    'MONOCHROME1',
    GREY8,
    GREY8.map((v) => 255 - v),
  ),
  {
    name: 'MONOCHROME2 16-bit signed',
    image: {
      rows: ROWS,
      columns: COLUMNS,
      samplesPerPixel: 1,
      photometricInterpretation: 'MONOCHROME2',
      bitsAllocated: 16,
      pixelRepresentation: 1,
      frames: [words(SIGNED16, true)],
    },
    decoded: [SIGNED16],
    display: grey(SIGNED16.map((v) => ((v + 1000) / 2000) * 255)).map((p) => p.map(clamp) as Rgb),
    tolerance: 1,
  },
  {
    name: 'PALETTE COLOR 8-bit',
    image: {
      rows: ROWS,
      columns: COLUMNS,
      samplesPerPixel: 1,
      photometricInterpretation: 'PALETTE COLOR',
      bitsAllocated: 8,
      frames: [Uint8Array.from(INDICES)],
      palette: PALETTE,
    },
    decoded: [INDICES],
    display: INDICES.map((i) => [PALETTE.red[i]! >> 8, PALETTE.green[i]! >> 8, PALETTE.blue[i]! >> 8]),
    tolerance: 0,
  },
  ...[0, 1].map((planarConfiguration): PhotometricCase => ({
    name: `RGB planar ${planarConfiguration}`,
    image: {
      rows: ROWS,
      columns: COLUMNS,
      samplesPerPixel: 3,
      photometricInterpretation: 'RGB',
      planarConfiguration,
      bitsAllocated: 8,
      frames: [planarConfiguration ? planar(COLOURS) : interleaved(COLOURS)],
    },
    decoded: [COLOURS.flat()],
    display: COLOURS,
    tolerance: 0,
  })),
  ...[0, 1].map((planarConfiguration): PhotometricCase => ({
    name: `YBR_FULL planar ${planarConfiguration}`,
    image: {
      rows: ROWS,
      columns: COLUMNS,
      samplesPerPixel: 3,
      photometricInterpretation: 'YBR_FULL',
      planarConfiguration,
      bitsAllocated: 8,
      frames: [planarConfiguration ? planar(ybrFull) : interleaved(ybrFull)],
    },
    decoded: [ybrFull.map(fromYbrFull).flat()],
    display: ybrFull.map(fromYbrFull),
    tolerance: 1,
  })),
  {
    name: 'YBR_FULL_422',
    image: {
      rows: ROWS,
      columns: COLUMNS,
      samplesPerPixel: 3,
      photometricInterpretation: 'YBR_FULL_422',
      planarConfiguration: 0,
      bitsAllocated: 8,
      frames: [subsampled(ybr422)],
    },
    decoded: [ybr422.map(fromYbrFull).flat()],
    display: ybr422.map(fromYbrFull),
    tolerance: 1,
  },
  {
    name: 'YBR_PARTIAL_422 (retired)',
    image: {
      rows: ROWS,
      columns: COLUMNS,
      samplesPerPixel: 3,
      photometricInterpretation: 'YBR_PARTIAL_422',
      planarConfiguration: 0,
      bitsAllocated: 8,
      frames: [subsampled(ybrPartial422)],
    },
    decoded: [PAIRED.flat()],
    display: PAIRED,
    // Studio range quantises more coarsely than full range.
    tolerance: 2,
  },
  seg(),
  seg(DEFLATED_IMAGE_FRAME_COMPRESSION),
  {
    name: 'RGB planar 0 (Deflated Image Frame Compression)',
    image: {
      rows: ROWS,
      columns: COLUMNS,
      samplesPerPixel: 3,
      photometricInterpretation: 'RGB',
      planarConfiguration: 0,
      bitsAllocated: 8,
      frames: [interleaved(COLOURS)],
      transferSyntaxUid: DEFLATED_IMAGE_FRAME_COMPRESSION,
    },
    decoded: [COLOURS.flat()],
    display: COLOURS,
    tolerance: 0,
  },
];

/** Photometric interpretations that native pixel data may not carry: refused, never drawn. */
export const COMPRESSED_ONLY_CASES: TestImage[] = ['YBR_RCT', 'YBR_ICT', 'YBR_PARTIAL_420', 'XYB'].map(
  (photometricInterpretation) => ({
    rows: ROWS,
    columns: COLUMNS,
    samplesPerPixel: 3,
    photometricInterpretation,
    planarConfiguration: 0,
    bitsAllocated: 8,
    frames: [interleaved(COLOURS)],
  }),
);
