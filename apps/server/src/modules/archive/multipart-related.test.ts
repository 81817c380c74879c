import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MultipartError, parseContentType, readRelatedParts } from './multipart-related.js';

let dir: string;
beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'mpr-'));
});
afterAll(() => fs.rm(dir, { recursive: true, force: true }));

function body(boundary: string, parts: Buffer[], opts: { preamble?: string; epilogue?: string } = {}) {
  const chunks: Buffer[] = [Buffer.from(opts.preamble ?? '')];
  for (const part of parts) {
    chunks.push(
      Buffer.from(`--${boundary}\r\nContent-Type: application/dicom\r\n\r\n`),
      part,
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n${opts.epilogue ?? ''}`));
  return Buffer.concat(chunks);
}

async function* chunked(bytes: Buffer, size: number) {
  for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
}

async function collect(stream: AsyncIterable<Buffer>, boundary: string) {
  const out: Array<{ headers: Record<string, string>; bytes: Buffer }> = [];
  for await (const part of readRelatedParts(stream, boundary, dir)) {
    out.push({ headers: part.headers, bytes: await fs.readFile(part.filePath) });
    await fs.rm(part.filePath);
  }
  return out;
}

describe('readRelatedParts', () => {
  const boundary = 'b0undary-xyz';
  // Part bodies that contain near-misses of the delimiter.
  const parts = [
    randomBytes(5000),
    Buffer.from(`\r\n--${boundary.slice(0, 5)}\r\n--${boundary.slice(0, -1)}\r\n-`),
    Buffer.alloc(0),
    randomBytes(70_000),
  ];
  const whole = body(boundary, parts, { preamble: 'ignored preamble\r\n', epilogue: 'ignored' });

  it.each([1, 2, 3, 7, 16, 17, 64, 1000, 1 << 20])(
    'reads every part with chunks of %i bytes',
    async (size) => {
      const got = await collect(chunked(whole, size), boundary);
      expect(got.map((p) => p.bytes.toString('hex'))).toEqual(parts.map((p) => p.toString('hex')));
      expect(got[0]?.headers['content-type']).toBe('application/dicom');
    },
  );

  it.each([1000, 65_536, 1 << 20])(
    'reads parts larger than one gathered write (1 MB) whole, with chunks of %i bytes',
    async (size) => {
      const large = [randomBytes(2.5 * 2 ** 20), randomBytes(3), randomBytes((1 << 20) + 1)];
      const got = await collect(chunked(body(boundary, large), size), boundary);
      expect(got.map((p) => p.bytes.equals(large[got.indexOf(p)]!))).toEqual([true, true, true]);
    },
  );

  it('refuses a body without the boundary, and one cut inside a part', async () => {
    await expect(collect(chunked(Buffer.from('hello'), 2), boundary)).rejects.toThrow(MultipartError);
    await expect(collect(chunked(whole.subarray(0, 3000), 100), boundary)).rejects.toThrow(
      /ends inside a part/,
    );
    expect(await fs.readdir(dir)).toEqual([]);
  });
});

describe('parseContentType', () => {
  it('reads quoted and bare parameters', () => {
    expect(parseContentType('Multipart/Related; type="application/dicom"; boundary="a;b c"')).toEqual({
      mediaType: 'multipart/related',
      params: { type: 'application/dicom', boundary: 'a;b c' },
    });
    expect(parseContentType('multipart/related;boundary=abc;type=application/dicom').params).toEqual({
      boundary: 'abc',
      type: 'application/dicom',
    });
  });
});
