import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
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

/** Hands a saved file to the queue; if the queue does not take it, the file is removed. */
async function enqueueOrRemove(queue: UploadQueue, path: string): Promise<{ studyInstanceUid: string }> {
  try {
    return await queue.enqueueFile(path);
  } catch (error) {
    await rm(path, { force: true });
    throw error;
  }
}

/** POST /upload-file: one DICOM file into the queue. */
export async function uploadFile(file: MultipartFile, dir: string, queue: UploadQueue): Promise<TUploadAnswer> {
  const path = await saveUpload(file, dir, '.dcm');
  const { studyInstanceUid } = await enqueueOrRemove(queue, path);
  return { queued: 1, studyInstanceUids: [studyInstanceUid], skipped: [] };
}

/**
 * POST /upload-zip: every DICOM file of a zip into the queue, one by one, so memory holds one entry's
 * buffer at most. An entry that is not DICOM (a DICOMDIR, a viewer, a readme) is skipped by name; the
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
        const entryPath = join(dir, `${randomUUID()}.dcm`);
        try {
          await pipeline(await openEntry(zip, entry), createWriteStream(entryPath, { flags: 'wx' }));
        } catch (error) {
          await rm(entryPath, { force: true });
          if (error instanceof AppError) throw error;
          throw new AppError('BAD_REQUEST', MESSAGE_NOT_A_ZIP, (error as Error).message);
        }
        try {
          const { studyInstanceUid } = await enqueueOrRemove(queue, entryPath);
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

function openEntry(zip: yauzl.ZipFile, entry: yauzl.Entry): Promise<Readable> {
  return new Promise((resolve, reject) => {
    zip.openReadStream(entry, (error, stream) => {
      if (error || !stream) reject(new AppError('BAD_REQUEST', MESSAGE_NOT_A_ZIP, error?.message ?? null));
      else resolve(stream);
    });
  });
}
