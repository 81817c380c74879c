import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { MultipartFile } from '@fastify/multipart';
import { AppError, type TUploadAnswer } from '@radflow/core';
import yauzl from 'yauzl';
import type { UploadQueue } from './ports.js';

export const MESSAGE_FILE_REQUIRED = 'A multipart field "file" is required';
export const MESSAGE_NOT_A_ZIP = 'The file is not a zip archive';
export const MESSAGE_ZIP_TOO_LARGE = 'The zip unpacks to more than the router accepts';

/** A zip may hold at most this many entries (a 500-slice CT with room to spare, not a zip bomb). */
const MAX_ZIP_ENTRIES = 100_000;

/** Streams a multipart file to a new file under `dir`; a file over the size limit is removed, 413. */
export async function saveUpload(file: MultipartFile, dir: string, suffix: string): Promise<string> {
  await mkdir(dir, { recursive: true });
  const path = join(dir, `${randomUUID()}${suffix}`);
  try {
    await pipeline(file.file, createWriteStream(path, { flags: 'wx' }));
  } catch (error) {
    await rm(path, { force: true });
    throw error;
  }
  if (file.file.truncated) {
    await rm(path, { force: true });
    throw new AppError('PAYLOAD_TOO_LARGE', 'The file is too large', file.filename);
  }
  return path;
}

/** One DICOM instance at most this large (a big tomosynthesis instance; held in memory once). */
export const MAX_INSTANCE_BYTES = 1024 ** 3;
export const MESSAGE_INSTANCE_TOO_LARGE = 'A DICOM file may be at most 1 GiB';

/** POST /upload-file: one DICOM file into the queue. */
export async function uploadFile(file: MultipartFile, queue: UploadQueue): Promise<TUploadAnswer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of file.file as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_INSTANCE_BYTES) {
      file.file.resume();
      throw new AppError('PAYLOAD_TOO_LARGE', MESSAGE_INSTANCE_TOO_LARGE, file.filename);
    }
    chunks.push(chunk);
  }
  if (file.file.truncated) throw new AppError('PAYLOAD_TOO_LARGE', 'The file is too large', file.filename);
  const { studyInstanceUid } = await queue.enqueueFile(Buffer.concat(chunks, size));
  return { queued: 1, studyInstanceUids: [studyInstanceUid], skipped: [] };
}

/**
 * POST /upload-zip: every DICOM file of a zip into the queue, one by one, so memory holds one entry
 * at most. An entry that is not DICOM (a DICOMDIR, a viewer, a readme) is skipped by name; the
 * unpacked size is capped at the upload limit ten times over (zip bombs).
 */
export async function uploadZip(
  file: MultipartFile,
  dir: string,
  queue: UploadQueue,
  maxUploadBytes: number,
): Promise<TUploadAnswer> {
  const zipPath = await saveUpload(file, dir, '.zip');
  const studies = new Set<string>();
  const skipped: string[] = [];
  let queued = 0;
  try {
    const zip = await openZip(zipPath);
    try {
      let unpacked = 0;
      let entries = 0;
      for await (const entry of zipEntries(zip)) {
        if (entry.fileName.endsWith('/')) continue;
        entries += 1;
        unpacked += entry.uncompressedSize;
        if (entries > MAX_ZIP_ENTRIES || unpacked > maxUploadBytes * 10) {
          throw new AppError('PAYLOAD_TOO_LARGE', MESSAGE_ZIP_TOO_LARGE);
        }
        if (entry.uncompressedSize > MAX_INSTANCE_BYTES) {
          skipped.push(entry.fileName);
          continue;
        }
        const bytes = await readEntry(zip, entry);
        try {
          const { studyInstanceUid } = await queue.enqueueFile(bytes);
          studies.add(studyInstanceUid);
          queued += 1;
        } catch (error) {
          // Not DICOM (the queue says BAD_REQUEST): skipped by name; anything else stops the upload.
          if (error instanceof AppError && error.kind === 'BAD_REQUEST') skipped.push(entry.fileName);
          else throw error;
        }
      }
    } finally {
      zip.close();
    }
  } finally {
    await rm(zipPath, { force: true });
  }
  return { queued, studyInstanceUids: [...studies], skipped };
}

function openZip(path: string): Promise<yauzl.ZipFile> {
  return new Promise((resolve, reject) => {
    yauzl.open(path, { lazyEntries: true, autoClose: false, validateEntrySizes: true }, (error, zip) => {
      if (error || !zip) reject(new AppError('BAD_REQUEST', MESSAGE_NOT_A_ZIP, error?.message ?? null));
      else resolve(zip);
    });
  });
}

async function* zipEntries(zip: yauzl.ZipFile): AsyncGenerator<yauzl.Entry> {
  for (;;) {
    const entry = await new Promise<yauzl.Entry | null>((resolve, reject) => {
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
        reject(new AppError('BAD_REQUEST', MESSAGE_NOT_A_ZIP, error.message));
      };
      zip.once('entry', onEntry);
      zip.once('end', onEnd);
      zip.once('error', onError);
      zip.readEntry();
    });
    if (!entry) return;
    yield entry;
  }
}

function readEntry(zip: yauzl.ZipFile, entry: yauzl.Entry): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const fail = (error: Error) => reject(new AppError('BAD_REQUEST', MESSAGE_NOT_A_ZIP, error.message));
    zip.openReadStream(entry, (error, stream) => {
      if (error || !stream) {
        fail(error ?? new Error('no stream'));
        return;
      }
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('error', fail);
      stream.on('end', () => resolve(Buffer.concat(chunks)));
    });
  });
}
