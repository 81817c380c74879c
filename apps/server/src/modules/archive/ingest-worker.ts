import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { parentPort } from 'node:worker_threads';
import { type Preparation, fail, prepareInstance } from './ingest-prepare.js';

/**
 * An ingest worker (ingest-pool.ts): parses, hashes and converts instances to PS3.18 JSON off the
 * main thread. A request names a received file (the worker reads it: STOW parts, uploads) or
 * brings bytes (C-STORE: shared memory read in place, or transferred and handed back with the
 * answer): the main thread writes them to the blob store.
 */

export interface PrepareRequest {
  id: number;
  filePath?: string;
  bytes?: Uint8Array;
  requireStudyInstanceUid?: string | null;
  /** The bytes' sha256 when the sender already made it (hashed as received). */
  sha256?: string;
}

export type PrepareAnswer =
  | { ready: true }
  | {
      id: number;
      preparation: Preparation;
      /** The request's bytes, handed back. */
      bytes?: Uint8Array;
    };

/** Files up to this size are read into one buffer kept for the next request. */
const REUSED_BUFFER_MAX_BYTES = 16 * 2 ** 20;
let reused = Buffer.allocUnsafe(0);

/**
 * A received file, whole. A worker handles one request at a time and keeps nothing of the bytes
 * (the answer is strings and numbers), so one buffer serves every file: a fresh 0.5 MB buffer per
 * instance is garbage this thread's small heap would collect only after tens of MB (RSS).
 */
function readWhole(filePath: string): Uint8Array {
  const fd = openSync(filePath, 'r');
  try {
    const size = fstatSync(fd).size;
    let buffer = reused;
    if (size > buffer.length) {
      buffer = Buffer.allocUnsafe(size);
      if (size <= REUSED_BUFFER_MAX_BYTES) reused = buffer;
    }
    let at = 0;
    while (at < size) {
      const read = readSync(fd, buffer, at, size - at, at);
      if (read === 0) break;
      at += read;
    }
    return buffer.subarray(0, at);
  } finally {
    closeSync(fd);
  }
}

function prepare(request: PrepareRequest): Preparation {
  let bytes: Uint8Array;
  try {
    bytes = request.bytes ?? readWhole(request.filePath!);
  } catch (error) {
    return fail('STORAGE', `The received file cannot be read: ${(error as Error).message}`);
  }
  try {
    return prepareInstance(bytes, request.requireStudyInstanceUid, request.sha256);
  } catch (error) {
    // prepareInstance turns bad input into failures: this is a bug, still answered.
    return fail('INVALID', `The file cannot be read as DICOM: ${(error as Error).message}`);
  }
}

const port = parentPort;
if (port) {
  port.on('message', (request: PrepareRequest) => {
    const preparation = prepare(request);
    // Transferred bytes go back; shared memory stays where it is (the main thread has it).
    const bytes =
      request.bytes && !(request.bytes.buffer instanceof SharedArrayBuffer) ? request.bytes : undefined;
    port.postMessage(
      { id: request.id, preparation, ...(bytes ? { bytes } : {}) } satisfies PrepareAnswer,
      bytes ? [bytes.buffer as ArrayBuffer] : [],
    );
  });
  // Loaded: the pool sends requests (and bytes it cannot take back) only from now on.
  port.postMessage({ ready: true } satisfies PrepareAnswer);
}
