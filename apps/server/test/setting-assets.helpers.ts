import { randomBytes } from 'node:crypto';
import { count } from 'drizzle-orm';
import { settingAssets } from '../src/db/schema.js';
import type { FsBlobStore } from '../src/modules/storage/blob-store.js';
import type { TestApp, TestClient } from './test-app.js';

/** Images known by their magic number only (the server reads no further). */
export const PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  randomBytes(120),
]);
export const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), randomBytes(120)]);
export const GIF = Buffer.concat([Buffer.from('GIF89a'), randomBytes(60)]);
export const TEXT = Buffer.from('hello, I am not an image\n');

/** A png of exactly `size` bytes. */
export const pngOfSize = (size: number) => Buffer.concat([PNG.subarray(0, 8), Buffer.alloc(size - 8, 7)]);

export interface TFormFile {
  field: string;
  bytes: Uint8Array;
  fileName?: string;
  /** What the client claims; the server must not believe it. */
  contentType?: string;
}

/** A multipart/form-data body with text fields and named file parts. */
export function settingForm(fields: Record<string, string>, files: TFormFile[] = []) {
  const boundary = `form-${randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    chunks.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`),
    );
  }
  for (const file of files) {
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${file.field}"; filename="${file.fileName ?? 'image.png'}"\r\n` +
          `Content-Type: ${file.contentType ?? 'image/png'}\r\n\r\n`,
      ),
      Buffer.from(file.bytes),
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

export function postForm(
  browser: TestClient,
  url: string,
  fields: Record<string, string>,
  files: TFormFile[] = [],
) {
  const body = settingForm(fields, files);
  return browser.request({
    method: 'POST',
    url,
    payload: body.payload,
    headers: { 'content-type': body.contentType },
  });
}

/** What a refused call must leave unchanged: the asset rows and the blobs under settings/. */
export async function storedAssets(t: TestApp): Promise<{ rows: number; blobs: string[] }> {
  const [row] = await t.db.select({ n: count() }).from(settingAssets);
  const blobs: string[] = [];
  const store = t.blobs as FsBlobStore;
  for await (const key of store.listOlderThan('settings/', new Date(Date.now() + 3_600_000))) blobs.push(key);
  return { rows: row?.n ?? 0, blobs: blobs.sort() };
}
