import { createHash } from 'node:crypto';

/** One part of a multipart/related answer as a test reads it. */
export interface TParsedPart {
  headers: Record<string, string>;
  body: Buffer;
}

/**
 * Splits a multipart/related body (RFC 2046 §5.1.1) strictly: it must start with the first
 * delimiter, use CRLF everywhere and end with the close delimiter.
 */
export function parseMultipart(body: Buffer, contentType: string): TParsedPart[] {
  const boundary = /boundary="?([^";]+)"?/.exec(contentType)?.[1];
  if (!boundary) throw new Error(`no boundary in ${contentType}`);
  const delimiter = Buffer.from(`--${boundary}`, 'latin1');
  const next = Buffer.from(`\r\n--${boundary}`, 'latin1');
  if (body.indexOf(delimiter) !== 0) throw new Error('the body does not start with the boundary');
  const parts: TParsedPart[] = [];
  let at = delimiter.length;
  for (;;) {
    if (body.subarray(at, at + 4).toString('latin1') === '--\r\n' && at + 4 === body.length) return parts;
    if (body.subarray(at, at + 2).toString('latin1') !== '\r\n') throw new Error('a delimiter without CRLF');
    const headerEnd = body.indexOf('\r\n\r\n', at + 2);
    if (headerEnd < 0) throw new Error('a part without a header end');
    const headers: Record<string, string> = {};
    for (const line of body
      .subarray(at + 2, headerEnd)
      .toString('latin1')
      .split('\r\n')) {
      const colon = line.indexOf(':');
      headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
    }
    const end = body.indexOf(next, headerEnd + 4);
    if (end < 0) throw new Error('a part without a closing delimiter');
    parts.push({ headers, body: body.subarray(headerEnd + 4, end) });
    at = end + next.length;
  }
}

export const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
