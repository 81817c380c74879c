import { mkdtemp, open, rm, type FileHandle } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { type StudyFiles, type StudySource, StudyNotFoundError, isUid } from './study-source.js';

export interface CloudStudySourceOptions {
  /** The cloud's base address (ROUTER_SERVER_URL), e.g. https://radflow.example. */
  readonly serverUrl: string;
  /** The center's API token (DICOMweb only, `GET /api/user/token`), asked for each fetch. */
  readonly token: () => string | Promise<string>;
  /** Where the study's temp folder goes (default: the OS temp dir). */
  readonly tempRoot?: string;
  /** A download from which no byte came for this long is given up (default 60 s): a dead link does not hang the send. */
  readonly idleTimeoutMs?: number;
  readonly fetch?: typeof fetch;
}

export class CloudSourceError extends Error {
  override readonly name = 'CloudSourceError';
}

/**
 * A study fetched from the cloud by WADO-RS Retrieve Study (`GET /api/dicomweb/studies/{uid}`,
 * multipart/related of the stored files, any transfer syntax) into a temp folder, one file per part,
 * streamed to disk (a CT of hundreds of MB is never held in memory). `release` removes the folder.
 */
export class CloudStudySource implements StudySource {
  constructor(private readonly options: CloudStudySourceOptions) {}

  async open(studyInstanceUid: string): Promise<StudyFiles> {
    if (!isUid(studyInstanceUid))
      throw new StudyNotFoundError(`Not a Study Instance UID: ${studyInstanceUid}`);
    const url = new URL(`api/dicomweb/studies/${studyInstanceUid}`, withSlash(this.options.serverUrl));
    const idleMs = this.options.idleTimeoutMs ?? 60_000;
    const abort = new AbortController();
    let idle: NodeJS.Timeout | undefined;
    const touch = () => {
      clearTimeout(idle);
      idle = setTimeout(
        () =>
          abort.abort(
            new CloudSourceError(`No data from the cloud for ${idleMs / 1000} s: download given up`),
          ),
        idleMs,
      );
    };
    touch();
    try {
      const response = await (this.options.fetch ?? fetch)(url, {
        headers: {
          accept: 'multipart/related; type="application/dicom"; transfer-syntax=*',
          authorization: `Bearer ${await this.options.token()}`,
        },
        signal: abort.signal,
      });
      if (response.status === 404) {
        await response.body?.cancel();
        throw new StudyNotFoundError(`Study ${studyInstanceUid} is not in the cloud`);
      }
      if (!response.ok || !response.body) {
        const text = (await response.text().catch(() => '')).slice(0, 200);
        throw new CloudSourceError(
          `The cloud answered ${response.status} for study ${studyInstanceUid}: ${text}`,
        );
      }
      const boundary = boundaryOf(response.headers.get('content-type') ?? '');
      const dir = await mkdtemp(path.join(this.options.tempRoot ?? tmpdir(), 'radflow-send-'));
      const release = () => rm(dir, { recursive: true, force: true });
      try {
        const body = touching(Readable.fromWeb(response.body as WebReadableStream<Uint8Array>), touch);
        const files = await splitMultipart(body, boundary, (index) =>
          path.join(dir, `${String(index).padStart(6, '0')}.dcm`),
        );
        if (files.length === 0)
          throw new StudyNotFoundError(`Study ${studyInstanceUid} has no instances in the cloud`);
        return { files, release };
      } catch (error) {
        await release();
        throw error;
      }
    } catch (error) {
      // The abort's reason is the clearer message.
      if (abort.signal.aborted && abort.signal.reason instanceof CloudSourceError) throw abort.signal.reason;
      throw error;
    } finally {
      clearTimeout(idle);
    }
  }
}

/** The chunks of `source`, calling `onChunk` as each arrives (the idle timer). */
async function* touching(source: AsyncIterable<Uint8Array>, onChunk: () => void): AsyncIterable<Uint8Array> {
  for await (const chunk of source) {
    onChunk();
    yield chunk;
  }
}

const withSlash = (url: string) => (url.endsWith('/') ? url : `${url}/`);

/** The boundary parameter of a multipart Content-Type (quoted or not). */
export function boundaryOf(contentType: string): string {
  if (!/^multipart\//i.test(contentType.trim()))
    throw new CloudSourceError(`Expected a multipart answer, got '${contentType.slice(0, 100)}'`);
  const match = /;\s*boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
  const boundary = match?.[1] ?? match?.[2];
  if (!boundary) throw new CloudSourceError('The multipart answer names no boundary');
  return boundary;
}

/**
 * Writes each body part of a multipart stream (RFC 2046 §5.1.1) to its own file, as the bytes
 * arrive; returns the files in order. A stream that ends before the closing delimiter throws (a cut
 * download is not a short study).
 */
export async function splitMultipart(
  body: AsyncIterable<Uint8Array>,
  boundary: string,
  fileFor: (index: number) => string,
): Promise<string[]> {
  const delimiter = Buffer.from(`\r\n--${boundary}`, 'latin1');
  const files: string[] = [];
  // The body starts with "--boundary"; prefixing CRLF makes the first delimiter like the others.
  let pending = Buffer.from('\r\n', 'latin1');
  // Widened on purpose: step() changes it, which narrowing at the loop below cannot see.
  let state = 'preamble' as 'preamble' | 'afterDelimiter' | 'headers' | 'body' | 'done';
  let file: FileHandle | undefined;
  try {
    const step = async (final: boolean): Promise<boolean> => {
      switch (state) {
        case 'preamble': {
          const at = pending.indexOf(delimiter);
          if (at < 0) {
            pending = pending.subarray(Math.max(0, pending.length - delimiter.length));
            return false;
          }
          pending = pending.subarray(at + delimiter.length);
          state = 'afterDelimiter';
          return true;
        }
        case 'afterDelimiter': {
          if (pending.length < 2) return false;
          if (pending[0] === 0x2d && pending[1] === 0x2d) {
            state = 'done';
            return false;
          }
          const eol = pending.indexOf('\r\n');
          if (eol < 0) return false;
          pending = pending.subarray(eol + 2);
          state = 'headers';
          return true;
        }
        case 'headers': {
          // A part without headers starts with the empty line at once.
          const bare = pending.length >= 2 && pending[0] === 0x0d && pending[1] === 0x0a;
          const end = bare ? -2 : pending.indexOf('\r\n\r\n');
          if (end === -1) {
            if (pending.length > 16 * 1024)
              throw new CloudSourceError('A multipart part has over 16 KB of headers');
            return false;
          }
          pending = pending.subarray(end + 4);
          file = await open(fileFor(files.length), 'w');
          files.push(fileFor(files.length));
          state = 'body';
          return true;
        }
        case 'body': {
          const at = pending.indexOf(delimiter);
          const upTo = at >= 0 ? at : final ? pending.length : Math.max(0, pending.length - delimiter.length);
          if (upTo > 0) await file!.write(pending.subarray(0, upTo));
          pending = pending.subarray(upTo);
          if (at < 0) return false;
          await file!.close();
          file = undefined;
          pending = pending.subarray(delimiter.length);
          state = 'afterDelimiter';
          return true;
        }
        case 'done':
          return false;
      }
    };
    for await (const chunk of body) {
      pending = pending.length === 0 ? Buffer.from(chunk) : Buffer.concat([pending, chunk]);
      while (await step(false));
      if (state === 'done') break;
    }
    if (state !== 'done') throw new CloudSourceError('The study download ended before its last part');
    return files;
  } finally {
    await file?.close();
  }
}
