import { z } from 'zod';

/**
 * What `POST /router/image/print` carries besides the images (spec-core §7 "multipart images and
 * content"): the `content` part, JSON. The spec names the part, not its fields; ours are the few a
 * film needs (see FORWARD.md, "Image print").
 */

/** DICOM Film Size IDs (PS3.3 C.13.8) that also give a paper page for an ordinary printer. */
export const FILM_SIZES = {
  '8INX10IN': [8, 10],
  '10INX12IN': [10, 12],
  '10INX14IN': [10, 14],
  '11INX14IN': [11, 14],
  '14INX14IN': [14, 14],
  '14INX17IN': [14, 17],
  '24CMX24CM': [24 / 2.54, 24 / 2.54],
  '24CMX30CM': [24 / 2.54, 30 / 2.54],
  A4: [210 / 25.4, 297 / 25.4],
  A3: [297 / 25.4, 420 / 25.4],
} as const satisfies Record<string, readonly [number, number]>;
export type TFilmSize = keyof typeof FILM_SIZES;

export const PRINT_LIMITS = {
  /** Boxes on one film: up to 6 × 6. */
  maxGrid: 6,
  maxCopies: 10,
  /** Each image part (the viewer's rendered viewport, JPEG or PNG). */
  maxImageBytes: 20 * 1024 * 1024,
} as const;

export const PRINT_MESSAGES = {
  noImages: 'Add at least one image to print',
  content: "content must be JSON: {layout: 'C,R', copies, filmSize, orientation}",
  layout: `layout must be 'columns,rows', each 1-${PRINT_LIMITS.maxGrid}`,
  copies: `copies must be a whole number 1-${PRINT_LIMITS.maxCopies}`,
  filmSize: `filmSize must be one of ${Object.keys(FILM_SIZES).join(', ')}`,
  orientation: 'orientation must be PORTRAIT or LANDSCAPE',
  tooMany: (boxes: number, images: number) => `The layout has ${boxes} boxes for ${images} images`,
  imageTooLarge: (n: number) => `Image ${n} is larger than ${PRINT_LIMITS.maxImageBytes / 1024 / 1024} MB`,
  notAnImage: (n: number) => `Image ${n} is not a JPEG or PNG image`,
} as const;

/** Bad print input (a 400 for the API), its message naming the problem. */
export class PrintInputError extends Error {
  override readonly name = 'PrintInputError';
}

const ZLayout = z
  .string({ error: PRINT_MESSAGES.layout })
  .regex(/^\s*[1-9]\s*,\s*[1-9]\s*$/, PRINT_MESSAGES.layout)
  .transform((text) => {
    const [columns, rows] = text.split(',').map((n) => Number(n.trim())) as [number, number];
    return { columns, rows };
  })
  .refine((l) => l.columns <= PRINT_LIMITS.maxGrid && l.rows <= PRINT_LIMITS.maxGrid, PRINT_MESSAGES.layout);

export const ZPrintContent = z.object({
  /** 'C,R' as in DICOM's 'STANDARD\C,R'; default: the smallest near-square grid for the images. */
  layout: ZLayout.optional(),
  copies: z.coerce
    .number({ error: PRINT_MESSAGES.copies })
    .int(PRINT_MESSAGES.copies)
    .min(1, PRINT_MESSAGES.copies)
    .max(PRINT_LIMITS.maxCopies, PRINT_MESSAGES.copies)
    .default(1),
  filmSize: z
    .enum(Object.keys(FILM_SIZES) as [TFilmSize, ...TFilmSize[]], { error: PRINT_MESSAGES.filmSize })
    .optional(),
  orientation: z.enum(['PORTRAIT', 'LANDSCAPE'], { error: PRINT_MESSAGES.orientation }).default('PORTRAIT'),
});

export interface PrintJob {
  readonly images: readonly Uint8Array[];
  readonly columns: number;
  readonly rows: number;
  readonly copies: number;
  /** Undefined: the printer's own default. */
  readonly filmSize: TFilmSize | undefined;
  readonly orientation: 'PORTRAIT' | 'LANDSCAPE';
}

/**
 * The print request as the API hands it over: the image parts' bytes and the `content` part
 * (JSON text, an object, or nothing). Checks everything but decoding the images.
 */
export function parsePrintJob(input: { images: readonly Uint8Array[]; content?: unknown }): PrintJob {
  const { images } = input;
  if (images.length === 0) throw new PrintInputError(PRINT_MESSAGES.noImages);
  images.forEach((bytes, i) => {
    if (bytes.length > PRINT_LIMITS.maxImageBytes)
      throw new PrintInputError(PRINT_MESSAGES.imageTooLarge(i + 1));
    if (!isJpeg(bytes) && !isPng(bytes)) throw new PrintInputError(PRINT_MESSAGES.notAnImage(i + 1));
  });
  let content: unknown = input.content ?? {};
  if (typeof content === 'string') {
    try {
      content = content.trim() === '' ? {} : JSON.parse(content);
    } catch {
      throw new PrintInputError(PRINT_MESSAGES.content);
    }
  }
  if (typeof content !== 'object' || content === null || Array.isArray(content))
    throw new PrintInputError(PRINT_MESSAGES.content);
  const parsed = ZPrintContent.safeParse(content);
  if (!parsed.success) throw new PrintInputError(parsed.error.issues[0]?.message ?? PRINT_MESSAGES.content);
  const layout = parsed.data.layout ?? defaultLayout(images.length);
  if (layout.columns * layout.rows < images.length)
    throw new PrintInputError(PRINT_MESSAGES.tooMany(layout.columns * layout.rows, images.length));
  return {
    images,
    ...layout,
    copies: parsed.data.copies,
    filmSize: parsed.data.filmSize,
    orientation: parsed.data.orientation,
  };
}

/** The smallest grid with columns ≤ rows ≤ columns + 1 that holds n images (1 → 1,1; 3 → 2,2; 5 → 2,3). */
export function defaultLayout(n: number): { columns: number; rows: number } {
  if (n > PRINT_LIMITS.maxGrid ** 2)
    throw new PrintInputError(PRINT_MESSAGES.tooMany(PRINT_LIMITS.maxGrid ** 2, n));
  let columns = 1;
  while (columns * (columns + 1) < n) columns++;
  const rows = columns * columns >= n ? columns : columns + 1;
  return { columns, rows };
}

export const isJpeg = (b: Uint8Array) => b.length > 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff;
export const isPng = (b: Uint8Array) =>
  b.length > 8 &&
  b[0] === 0x89 &&
  b[1] === 0x50 &&
  b[2] === 0x4e &&
  b[3] === 0x47 &&
  b[4] === 0x0d &&
  b[5] === 0x0a;
