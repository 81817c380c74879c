import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';

/** One body part of a multipart/related answer (PS3.18 §8.7.3.3; RFC 2387). */
export interface TPart {
  contentType: string;
  /** More part headers (Content-Location, …). */
  headers?: Record<string, string>;
  /** Opened only when the part's turn comes, so at most one file is open at a time. */
  open(): Readable | Uint8Array | Promise<Uint8Array>;
}

export function newBoundary(): string {
  return `radflow-${randomBytes(12).toString('hex')}`;
}

/** `multipart/related; type="…"; boundary=…` plus extra parameters such as transfer-syntax. */
export function multipartContentType(boundary: string, type: string, extra: Record<string, string> = {}) {
  const params = Object.entries(extra).map(([name, value]) => `; ${name}=${value}`);
  return `multipart/related; type="${type}"${params.join('')}; boundary=${boundary}`;
}

/**
 * Streams the parts with CRLF framing, each body straight from its source (a blob stream is never
 * gathered in memory). When the client goes away Fastify destroys this stream; the generator's
 * `for await` then returns, which destroys the blob stream being read.
 */
export function multipartStream(boundary: string, parts: Iterable<TPart> | AsyncIterable<TPart>): Readable {
  async function* generate() {
    for await (const part of parts) {
      const headers = [`--${boundary}`, `Content-Type: ${part.contentType}`];
      for (const [name, value] of Object.entries(part.headers ?? {})) headers.push(`${name}: ${value}`);
      yield Buffer.from(`${headers.join('\r\n')}\r\n\r\n`, 'latin1');
      const body = await part.open();
      if (body instanceof Uint8Array) yield body;
      else for await (const chunk of body) yield chunk as Buffer;
      yield CRLF;
    }
    yield Buffer.from(`--${boundary}--\r\n`, 'latin1');
  }
  return Readable.from(generate(), { objectMode: false });
}

const CRLF = Buffer.from('\r\n', 'latin1');

/** A media range of an Accept header with its parameters (names lower-cased, quotes removed). */
export interface TMediaRange {
  type: string;
  params: Record<string, string>;
  q: number;
}

/** RFC 9110 §12.5.1 Accept, sorted by q (stable); an absent header accepts anything. */
export function parseAccept(header: string | string[] | undefined): TMediaRange[] {
  const text = Array.isArray(header) ? header.join(',') : header;
  if (!text || !text.trim()) return [{ type: '*/*', params: {}, q: 1 }];
  const ranges: TMediaRange[] = [];
  // Commas inside quoted parameter values do not separate ranges.
  for (const item of text.match(/(?:[^,"]|"[^"]*")+/g) ?? []) {
    const [type = '', ...rest] = item.split(';').map((s) => s.trim());
    if (!type) continue;
    const params: Record<string, string> = {};
    for (const param of rest) {
      const eqAt = param.indexOf('=');
      if (eqAt <= 0) continue;
      params[param.slice(0, eqAt).trim().toLowerCase()] = param
        .slice(eqAt + 1)
        .trim()
        .replace(/^"(.*)"$/, '$1');
    }
    const q = params.q === undefined ? 1 : Number(params.q);
    delete params.q;
    if (Number.isFinite(q) && q > 0) ranges.push({ type: type.toLowerCase(), params, q });
  }
  return ranges.sort((a, b) => b.q - a.q);
}
