import { spawn } from 'node:child_process';
import { decodePicture, encodeJpeg, fitInside, toGrey } from '../image-lib.js';
import {
  FILM_SIZES,
  type PrintJob,
  type TFilmSize,
  PrintInputError,
  PRINT_MESSAGES,
  parsePrintJob,
} from './print-content.js';
import { composePdf, type PdfImage } from './pdf-page.js';
import { type FilmImage, printFilmSession } from './print-scu.js';

/**
 * `POST /router/image/print` (spec-core §7): films to the center's printer, a DICOM Print SCP or an
 * ordinary printer through a command. The API hands over the image parts and the `content` part;
 * bad input throws {@link PrintInputError} (400), a printer that fails {@link PrintError}.
 */
export interface ImagePrinter {
  print(input: { images: readonly Uint8Array[]; content?: unknown }): Promise<PrintResult>;
}

export interface PrintResult {
  readonly printer: 'DICOM' | 'COMMAND';
  readonly images: number;
  readonly copies: number;
  /** 'STANDARD\C,R' on the film, or the page grid 'C,R'. */
  readonly layout: string;
  readonly filmSize: TFilmSize;
}

/** The printer refused or failed the job (its reason in the message). */
export class PrintError extends Error {
  override readonly name = 'PrintError';
}

/** Longest side of an image sent to a film box (a 14×17 in film at 300 dpi in a 2×2 grid is ~2100). */
export const MAX_FILM_IMAGE_SIDE = 2048;

export interface DicomPrinterOptions {
  readonly host: string;
  readonly port: number;
  /** The printer's AE title. */
  readonly calledAet: string;
  /** Ours. */
  readonly callingAet: string;
  readonly defaultFilmSize?: TFilmSize;
  /** Medium Type (PS3.3 C.13.1): PAPER, CLEAR FILM, BLUE FILM …; default BLUE FILM. */
  readonly mediumType?: string;
  readonly timeoutMs?: number;
}

/** A DICOM Basic Grayscale Print SCP: one film session with one film of the job's grid. */
export class DicomImagePrinter implements ImagePrinter {
  constructor(private readonly options: DicomPrinterOptions) {}

  async print(input: { images: readonly Uint8Array[]; content?: unknown }): Promise<PrintResult> {
    const job = parsePrintJob(input);
    const images = await Promise.all(job.images.map((bytes, i) => toFilmImage(bytes, i)));
    const filmSize = job.filmSize ?? this.options.defaultFilmSize ?? '14INX17IN';
    const layout = `STANDARD\\${job.columns},${job.rows}`;
    try {
      await printFilmSession({
        host: this.options.host,
        port: this.options.port,
        callingAet: this.options.callingAet,
        calledAet: this.options.calledAet,
        copies: job.copies,
        imageDisplayFormat: layout,
        filmSizeId: filmSize,
        filmOrientation: job.orientation,
        ...(this.options.mediumType ? { mediumType: this.options.mediumType } : {}),
        ...(this.options.timeoutMs ? { timeoutMs: this.options.timeoutMs } : {}),
        images,
      });
    } catch (error) {
      throw new PrintError(
        `The film printer did not print: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
    return { printer: 'DICOM', images: images.length, copies: job.copies, layout, filmSize };
  }
}

export interface CommandPrinterOptions {
  /** The program that prints a PDF read on its standard input, e.g. `lp` (CUPS). Run without a shell. */
  readonly command: string;
  /** Its arguments, e.g. ['-d', 'Reception_Laser']. */
  readonly args?: readonly string[];
  readonly defaultPaper?: TFilmSize;
  readonly timeoutMs?: number;
}

/** An ordinary printer: the images on a PDF page (one page per copy) piped to a command. */
export class CommandImagePrinter implements ImagePrinter {
  constructor(private readonly options: CommandPrinterOptions) {}

  async print(input: { images: readonly Uint8Array[]; content?: unknown }): Promise<PrintResult> {
    const job = parsePrintJob(input);
    const pdf = await composeJobPdf(job, job.filmSize ?? this.options.defaultPaper ?? 'A4');
    await runPrintCommand(this.options, pdf);
    return {
      printer: 'COMMAND',
      images: job.images.length,
      copies: job.copies,
      layout: `${job.columns},${job.rows}`,
      filmSize: job.filmSize ?? this.options.defaultPaper ?? 'A4',
    };
  }
}

/** The job as a PDF on paper of this size (inches from the film size, 72 points an inch). */
export async function composeJobPdf(job: PrintJob, paper: TFilmSize): Promise<Buffer> {
  const images = await Promise.all(job.images.map((bytes, i) => toPdfImage(bytes, i)));
  const [width, height] = FILM_SIZES[paper];
  const [pageWidth, pageHeight] =
    job.orientation === 'LANDSCAPE' ? [height * 72, width * 72] : [width * 72, height * 72];
  return composePdf(images, {
    pageWidth,
    pageHeight,
    columns: job.columns,
    rows: job.rows,
    copies: job.copies,
  });
}

async function runPrintCommand(options: CommandPrinterOptions, pdf: Buffer): Promise<void> {
  const child = spawn(options.command, [...(options.args ?? [])], {
    stdio: ['pipe', 'ignore', 'pipe'],
    shell: false,
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString('utf8')).slice(-2000);
  });
  const exited = new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => resolve(code));
  });
  const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 60_000);
  // A command that exits without reading all of its input breaks the pipe: its exit status tells.
  child.stdin.on('error', () => undefined);
  child.stdin.end(pdf);
  try {
    const code = await exited;
    if (code !== 0)
      throw new PrintError(
        `The print command ${options.command} failed (exit ${code ?? 'killed'}): ${stderr.trim()}`,
      );
  } catch (error) {
    if (error instanceof PrintError) throw error;
    throw new PrintError(`The print command ${options.command} could not run: ${(error as Error).message}`);
  } finally {
    clearTimeout(timer);
  }
}

/** JPEG/PNG → 8-bit grayscale pixels (transparency on black, as a film), at most MAX_FILM_IMAGE_SIDE. */
async function toFilmImage(bytes: Uint8Array, index: number): Promise<FilmImage> {
  const picture = await decodePicture(bytes, 0).catch(() => {
    throw new PrintInputError(PRINT_MESSAGES.notAnImage(index + 1));
  });
  const film = toGrey(fitInside(picture, MAX_FILM_IMAGE_SIDE, MAX_FILM_IMAGE_SIDE));
  return { rows: film.height, columns: film.width, pixels: film.pixels };
}

/** JPEG/PNG → baseline JPEG for the PDF (gray stays gray). */
async function toPdfImage(bytes: Uint8Array, index: number): Promise<PdfImage> {
  const picture = await decodePicture(bytes, 255).catch(() => {
    throw new PrintInputError(PRINT_MESSAGES.notAnImage(index + 1));
  });
  const jpeg = await encodeJpeg(picture, 92);
  // The components the JPEG holds, which the page's /ColorSpace states (gray stays gray, unless
  // the JavaScript encoder made it: TJpeg).
  return { jpeg: jpeg.bytes, width: picture.width, height: picture.height, channels: jpeg.components };
}
