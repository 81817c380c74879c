import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';

/**
 * A streaming reader of `multipart/related` bodies (RFC 2387 over RFC 2046 §5.1), as STOW-RS sends
 * them (PS3.18 §8.6.1.2): each part's body goes to its own temp file as it arrives, so a study of
 * several GB never sits in memory. Only the boundary's length in bytes is held back between chunks.
 */

export class MultipartError extends Error {
  override readonly name = 'MultipartError';
}

/** Parameters of a Content-Type header, names lower-cased, quoted strings unquoted. */
export function parseContentType(header: string | undefined): {
  mediaType: string;
  params: Record<string, string>;
} {
  const [head = '', ...rest] = (header ?? '').split(';');
  const params: Record<string, string> = {};
  // Re-join and scan so a quoted value may contain ';'.
  const tail = rest.join(';');
  const re = /\s*([^=\s;]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;]*))\s*;?/g;
  for (let m = re.exec(tail); m; m = re.exec(tail)) {
    const name = (m[1] ?? '').toLowerCase();
    params[name] = m[2] !== undefined ? m[2].replace(/\\(.)/g, '$1') : (m[3] ?? '').trim();
  }
  return { mediaType: head.trim().toLowerCase(), params };
}

export interface RelatedPart {
  /** Header names lower-cased. */
  headers: Record<string, string>;
  /** A temp file with the part's body; the consumer removes (or moves) it. */
  filePath: string;
  sizeBytes: number;
}

const CRLF_CRLF = Buffer.from('\r\n\r\n');
const MAX_HEADER_BYTES = 16 * 1024;

function parseHeaders(block: string): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const line of block.split(/\r\n(?![ \t])/)) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    headers[line.slice(0, colon).trim().toLowerCase()] = line
      .slice(colon + 1)
      .replace(/\r\n[ \t]+/g, ' ')
      .trim();
  }
  return headers;
}

/**
 * Yields each part once its body is complete in a temp file under `tempDir`. The consumer handles a
 * part before the next is read (backpressure on the request). Throws {@link MultipartError} for a
 * body that is not multipart with this boundary or that ends inside a part; a part's file is
 * removed when reading stops inside it.
 */
/** Bytes of a part gathered before they are written (bounds the memory a request holds). */
const WRITE_BATCH_BYTES = 1 << 20;

/** Writes every byte of `chunks` at the file's current end (writev may write less than asked). */
async function writeAll(handle: fs.FileHandle, chunks: Buffer[]): Promise<void> {
  let rest = chunks;
  while (rest.length > 0) {
    let { bytesWritten } = await handle.writev(rest);
    if (bytesWritten === 0) throw new Error('A part could not be written (no progress)');
    let skip = 0;
    while (skip < rest.length && bytesWritten >= rest[skip]!.length) bytesWritten -= rest[skip++]!.length;
    rest = rest.slice(skip);
    if (rest.length > 0 && bytesWritten > 0) rest[0] = rest[0]!.subarray(bytesWritten);
  }
}

export async function* readRelatedParts(
  body: AsyncIterable<Buffer | Uint8Array | string>,
  boundary: string,
  tempDir: string,
  opts: { maxPartBytes?: number } = {},
): AsyncGenerator<RelatedPart> {
  if (!boundary || boundary.length > 200) throw new MultipartError('Missing or invalid multipart boundary');
  const delimiter = Buffer.from(`\r\n--${boundary}`);
  const keep = delimiter.length + 4;
  const maxPartBytes = opts.maxPartBytes ?? Number.POSITIVE_INFINITY;
  // A CRLF in front lets the first delimiter (which may start the body) match like the others.
  let buffer: Buffer = Buffer.from('\r\n');
  let state: 'preamble' | 'afterDelimiter' | 'headers' | 'body' | 'done' = 'preamble';
  let part: {
    headers: Record<string, string>;
    filePath: string;
    handle: fs.FileHandle;
    size: number;
  } | null = null;
  let ended = false;
  const iterator = body[Symbol.asyncIterator]();

  const pull = async (): Promise<boolean> => {
    if (ended) return false;
    const next = await iterator.next();
    if (next.done) {
      ended = true;
      return false;
    }
    // A Buffer chunk is kept as is (streams hand out fresh ones); anything else is copied once.
    const value: unknown = next.value;
    const chunk = Buffer.isBuffer(value) ? value : Buffer.from(value as string | Uint8Array);
    buffer = buffer.length === 0 ? chunk : Buffer.concat([buffer, chunk]);
    return true;
  };

  // A part's bytes are written in pieces of up to WRITE_BATCH_BYTES, one gathered write each: a
  // 0.5 MB part costs one thread-pool write instead of one per 64 KB chunk of the request.
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  const flush = async () => {
    if (!part || pending.length === 0) return;
    const chunks = pending;
    pending = [];
    pendingBytes = 0;
    await writeAll(part.handle, chunks);
  };
  const write = async (bytes: Buffer) => {
    if (!part || bytes.length === 0) return;
    part.size += bytes.length;
    if (part.size > maxPartBytes) throw new MultipartError(`A part is larger than ${maxPartBytes} bytes`);
    // A slice of the read buffer stays valid: the buffer is replaced, never written into.
    pending.push(bytes);
    pendingBytes += bytes.length;
    if (pendingBytes >= WRITE_BATCH_BYTES) await flush();
  };

  try {
    while (state !== 'done') {
      if (state === 'preamble' || state === 'body') {
        const at = buffer.indexOf(delimiter);
        if (at < 0) {
          // Everything but a possible partial delimiter at the end belongs to the part (or preamble).
          if (state === 'body' && buffer.length > keep) {
            await write(buffer.subarray(0, buffer.length - keep));
            buffer = buffer.subarray(buffer.length - keep);
          } else if (state === 'preamble' && buffer.length > keep) {
            buffer = buffer.subarray(buffer.length - keep);
          }
          if (!(await pull())) {
            throw new MultipartError(
              state === 'body'
                ? 'The body ends inside a part (no closing boundary)'
                : 'No multipart boundary found in the body',
            );
          }
          continue;
        }
        if (state === 'body' && part) {
          await write(buffer.subarray(0, at));
          await flush();
          await part.handle.close();
          const done = part;
          part = null;
          buffer = buffer.subarray(at + delimiter.length);
          state = 'afterDelimiter';
          yield { headers: done.headers, filePath: done.filePath, sizeBytes: done.size };
        } else {
          buffer = buffer.subarray(at + delimiter.length);
          state = 'afterDelimiter';
        }
        continue;
      }
      if (state === 'afterDelimiter') {
        // "--" closes the body; else optional transport padding, then CRLF starts a part's headers.
        const lineEnd = buffer.indexOf('\r\n');
        if (buffer.length >= 2 && buffer.subarray(0, 2).toString('latin1') === '--') {
          state = 'done';
          // The epilogue is ignored, but read, so the request ends normally.
          while (await pull()) buffer = Buffer.alloc(0);
          continue;
        }
        if (lineEnd < 0) {
          if (buffer.length > 1024) throw new MultipartError('Malformed multipart boundary line');
          if (!(await pull())) throw new MultipartError('The body ends after a boundary');
          continue;
        }
        if (buffer.subarray(0, lineEnd).toString('latin1').trim() !== '') {
          throw new MultipartError('Malformed multipart boundary line');
        }
        buffer = buffer.subarray(lineEnd + 2);
        state = 'headers';
        continue;
      }
      // headers: up to an empty line (a part without headers starts right with it).
      const blank = buffer.subarray(0, 2).toString('latin1') === '\r\n' ? -2 : buffer.indexOf(CRLF_CRLF);
      if (blank === -1) {
        if (buffer.length > MAX_HEADER_BYTES) throw new MultipartError('Part headers are too large');
        if (!(await pull())) throw new MultipartError('The body ends inside part headers');
        continue;
      }
      const headers = blank === -2 ? {} : parseHeaders(buffer.subarray(0, blank).toString('latin1'));
      buffer = buffer.subarray(blank === -2 ? 2 : blank + 4);
      const filePath = path.join(tempDir, `part-${Date.now()}-${randomBytes(8).toString('hex')}`);
      part = { headers, filePath, handle: await fs.open(filePath, 'w'), size: 0 };
      state = 'body';
    }
  } finally {
    if (part) {
      await part.handle.close().catch(() => undefined);
      await fs.rm(part.filePath, { force: true });
    }
  }
}
