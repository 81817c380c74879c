import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CloudSourceError, CloudStudySource, boundaryOf, splitMultipart } from './cloud-source.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'radflow-multipart-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

/** Bytes like a delimiter, but not one (RFC 2046: only CRLF "--" boundary delimits; the sender never puts that in a part). */
const partA = Buffer.from('DICM--B\r\n-B\r--B\x00\x01\r\n');
const partB = Buffer.alloc(3000, 7);
const body = Buffer.concat([
  Buffer.from('preamble\r\n--B\r\nContent-Type: application/dicom\r\n\r\n'),
  partA,
  Buffer.from('\r\n--B\r\n\r\n'),
  partB,
  Buffer.from('\r\n--B--\r\n'),
]);

async function* chunks(bytes: Buffer, size: number) {
  for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, at + size);
}

describe('multipart/related split to files', () => {
  it.each([1, 7, 64, 100_000])('gives each part byte-for-byte, chunks of %i bytes', async (size) => {
    const files = await splitMultipart(chunks(body, size), 'B', (i) => path.join(dir, `${size}-${i}`));
    expect(files).toHaveLength(2);
    expect(await readFile(files[0]!)).toEqual(partA);
    expect(await readFile(files[1]!)).toEqual(partB);
  });

  it('a download cut before the closing delimiter is an error, not a short study', async () => {
    await expect(
      splitMultipart(chunks(body.subarray(0, body.length - 12), 50), 'B', (i) => path.join(dir, `cut-${i}`)),
    ).rejects.toBeInstanceOf(CloudSourceError);
  });

  it('reads the boundary, quoted or not, and refuses a non-multipart answer', () => {
    expect(boundaryOf('multipart/related; type="application/dicom"; boundary=radflow-1')).toBe('radflow-1');
    expect(boundaryOf('multipart/related; boundary="a b"; type="application/dicom"')).toBe('a b');
    expect(() => boundaryOf('application/json')).toThrow(CloudSourceError);
  });
});

describe('the cloud source over a dead link', () => {
  it('gives up a download from which nothing came for the idle timeout, leaving no temp folder', async () => {
    const server = createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'multipart/related; type="application/dicom"; boundary=B' });
      response.write('--B\r\nContent-Type: application/dicom\r\n\r\nDICM');
      // …and then nothing more, the connection left open.
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const tempRoot = await mkdtemp(path.join(dir, 'idle-'));
    try {
      const { port } = server.address() as AddressInfo;
      const source = new CloudStudySource({
        serverUrl: `http://127.0.0.1:${port}`,
        token: () => 'rft_x',
        tempRoot,
        idleTimeoutMs: 200,
      });
      await expect(source.open('1.2.3')).rejects.toThrow(/No data from the cloud for 0.2 s/);
      expect(await readdir(tempRoot)).toEqual([]);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
