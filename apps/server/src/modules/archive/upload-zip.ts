import { createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import yauzl from 'yauzl';
import { AppError, UPLOAD_MAX_FILE_BYTES } from '@radflow/core';
import { DICOM_HEAD_BYTES, looksLikeDicom } from '@radflow/dicom';

/**
 * Unpacking the zips of a browser upload (browser-upload.ts) without letting a zip bomb cost more
 * than its bytes are worth: a 1.4 MB zip of zeros once made the server write 1.4 GB before it
 * found nothing in it was DICOM.
 *
 * - The central directory is read first; what the entries declare is checked against the
 *   request's limits before any entry is inflated (413 naming the limit).
 * - Each entry's first bytes are inflated into memory and must look like DICOM (the parse's own
 *   rule, @radflow/dicom looksLikeDicom) before the rest goes to a temp file; a zip inside the zip
 *   is refused, not unpacked.
 * - While inflating, an entry may not give more bytes than it declared (yauzl checks too), so the
 *   declared totals checked up front bound the work.
 */

export interface TUploadLimits {
  /** config UPLOAD_MAX_INFLATED_BYTES: what the zips of one request may inflate to, in total. */
  maxInflatedBytes: number;
  /** config UPLOAD_MAX_COMPRESSION_RATIO: inflated bytes per zip byte received, over the request. */
  maxCompressionRatio: number;
}

export const DEFAULT_UPLOAD_LIMITS: TUploadLimits = {
  // A 2 GiB zip (UPLOAD_MAX_FILE_BYTES) of uncompressed CT inflates to 4-6 GiB.
  maxInflatedBytes: 8 * 1024 * 1024 * 1024,
  // Studies zip at 1.5-5:1 (pixel data of air and background compresses best); zeros at ~1000:1.
  maxCompressionRatio: 100,
};

/**
 * Below this many inflated bytes a request is not refused for its ratio: a small file of mostly
 * zeros (a blank image, padding) compresses far beyond any study and costs nothing to unpack.
 */
export const RATIO_APPLIES_ABOVE_BYTES = 32 * 1024 * 1024;

const MAX_ZIP_ENTRIES = 100_000;
const ZIP_LOCAL_HEADER = 0x04034b50;

/** The inflated bytes one request's zips declared so far, against the limits. */
export class UploadBudget {
  private inflated = 0;
  private compressed = 0;
  constructor(private readonly limits: TUploadLimits) {}

  /** Takes a zip of `zipBytes` whose entries to unpack declare `declared` bytes, or answers 413. */
  admitZip(fileName: string, zipBytes: number, declared: number): void {
    const inflated = this.inflated + declared;
    const compressed = this.compressed + zipBytes;
    const { maxInflatedBytes, maxCompressionRatio } = this.limits;
    if (inflated > maxInflatedBytes) {
      throw new AppError(
        'PAYLOAD_TOO_LARGE',
        `The zips of this upload unpack to ${inflated} bytes (${fileName} ${declared}), more than UPLOAD_MAX_INFLATED_BYTES (${maxInflatedBytes} bytes)`,
        'UPLOAD_MAX_INFLATED_BYTES',
      );
    }
    if (inflated > RATIO_APPLIES_ABOVE_BYTES && inflated > maxCompressionRatio * compressed) {
      throw new AppError(
        'PAYLOAD_TOO_LARGE',
        `The zips of this upload unpack to ${inflated} bytes from ${compressed} (${fileName}): more than UPLOAD_MAX_COMPRESSION_RATIO (${maxCompressionRatio}:1)`,
        'UPLOAD_MAX_COMPRESSION_RATIO',
      );
    }
    this.inflated = inflated;
    this.compressed = compressed;
  }
}

function openZip(filePath: string): Promise<yauzl.ZipFile> {
  return new Promise((resolve, reject) =>
    yauzl.open(filePath, { lazyEntries: true, autoClose: false }, (error, zip) =>
      error || !zip ? reject(error ?? new Error('zip not opened')) : resolve(zip),
    ),
  );
}

function nextEntry(zip: yauzl.ZipFile): Promise<yauzl.Entry | null> {
  return new Promise((resolve, reject) => {
    const onEntry = (e: yauzl.Entry) => {
      zip.off('end', onEnd);
      zip.off('error', onError);
      resolve(e);
    };
    const onEnd = () => {
      zip.off('entry', onEntry);
      zip.off('error', onError);
      resolve(null);
    };
    const onError = (error: Error) => {
      zip.off('entry', onEntry);
      zip.off('end', onEnd);
      reject(error);
    };
    zip.once('entry', onEntry);
    zip.once('end', onEnd);
    zip.once('error', onError);
    zip.readEntry();
  });
}

/** The central directory's file entries (directories left out); reads no entry data. */
async function listEntries(zip: yauzl.ZipFile): Promise<yauzl.Entry[]> {
  const entries: yauzl.Entry[] = [];
  for (let entry = await nextEntry(zip); entry; entry = await nextEntry(zip)) {
    if (entry.fileName.endsWith('/')) continue;
    if (entries.length >= MAX_ZIP_ENTRIES)
      throw new AppError('PAYLOAD_TOO_LARGE', `A zip may hold at most ${MAX_ZIP_ENTRIES} files`);
    entries.push(entry);
  }
  return entries;
}

/** Why an entry is not unpacked, from its first inflated bytes; null when it may be. */
function refusalOf(head: Buffer, declaredSize: number): string | null {
  const dicm = head.length >= 132 && head.toString('latin1', 128, 132) === 'DICM';
  // Checked before the bare data set rule, which a zip's "PK\3\4" and version bytes can pass.
  if (!dicm && head.length >= 4 && head.readUInt32LE(0) === ZIP_LOCAL_HEADER)
    return 'is a zip inside the zip: nested zips are not unpacked';
  if (looksLikeDicom(head, declaredSize)) return null;
  return 'is not DICOM: no "DICM" at byte 128 and the first bytes are not a DICOM data element';
}

class EntryRefused extends Error {}

/**
 * Inflates one entry to `out` once its first bytes look like DICOM; a refusal (nothing written)
 * otherwise. Never writes more than the entry declared.
 */
async function unpackEntry(zip: yauzl.ZipFile, entry: yauzl.Entry, out: string): Promise<void> {
  const stream = await new Promise<Readable>((resolve, reject) =>
    zip.openReadStream(entry, (error, s) =>
      error || !s ? reject(error ?? new Error('no stream')) : resolve(s),
    ),
  );
  const chunks = stream[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  const first: Buffer[] = [];
  let size = 0;
  let ended = false;
  while (size < DICOM_HEAD_BYTES) {
    const next = await chunks.next();
    if (next.done) {
      ended = true;
      break;
    }
    first.push(next.value);
    size += next.value.length;
  }
  const head = Buffer.concat(first);
  const refusal = refusalOf(head.subarray(0, DICOM_HEAD_BYTES), entry.uncompressedSize);
  if (refusal) {
    stream.destroy();
    throw new EntryRefused(refusal);
  }
  const declared = entry.uncompressedSize;
  async function* all(): AsyncGenerator<Buffer> {
    let written = head.length;
    if (written > declared) throw new EntryRefused(`holds more bytes than its declared ${declared}`);
    yield head;
    if (ended) return;
    for (let next = await chunks.next(); !next.done; next = await chunks.next()) {
      written += next.value.length;
      if (written > declared) throw new EntryRefused(`holds more bytes than its declared ${declared}`);
      yield next.value;
    }
  }
  try {
    await pipeline(Readable.from(all()), createWriteStream(out));
  } finally {
    stream.destroy();
  }
}

/**
 * Each file entry of a zip in turn, streamed to a temp file that `handle` consumes (and that is
 * removed after it), or refused with a reason. Answers 413 before unpacking anything when the
 * entries would take the request over its limits.
 */
export async function forEachZipEntry(
  zipPath: string,
  zipName: string,
  budget: UploadBudget,
  tempPath: () => string,
  handle: (entryName: string, filePath: string | null, refusal: string | null) => Promise<void>,
): Promise<void> {
  const zip = await openZip(zipPath);
  try {
    const entries = await listEntries(zip);
    const unpacked = entries.filter((e) => e.uncompressedSize <= UPLOAD_MAX_FILE_BYTES);
    budget.admitZip(
      zipName,
      (await fs.stat(zipPath)).size,
      unpacked.reduce((sum, e) => sum + e.uncompressedSize, 0),
    );
    for (const entry of entries) {
      if (entry.uncompressedSize > UPLOAD_MAX_FILE_BYTES) {
        await handle(entry.fileName, null, `larger than ${UPLOAD_MAX_FILE_BYTES} bytes`);
        continue;
      }
      const out = tempPath();
      try {
        await unpackEntry(zip, entry, out);
      } catch (error) {
        await fs.rm(out, { force: true });
        const reason =
          error instanceof EntryRefused ? error.message : `cannot be unpacked: ${(error as Error).message}`;
        await handle(entry.fileName, null, reason);
        continue;
      }
      try {
        await handle(entry.fileName, out, null);
      } finally {
        await fs.rm(out, { force: true });
      }
    }
  } finally {
    zip.close();
  }
}
