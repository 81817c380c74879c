import { randomBytes } from 'node:crypto';
import { watch } from 'node:fs';
import { readdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { deflateRawSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, createTestApp } from '../../../test/test-app.js';
import { LIVER, readFixture } from '../../../test/archive/fixtures.js';
import { createArchiveWorld, formBody } from '../../../test/archive/helpers.js';
import { deflatedEntry, handZip } from '../../../test/archive/zip-bytes.js';

/*
 * The zips of a browser upload (modules/archive/upload-zip.ts): a zip bomb answers 413 naming the
 * limit before anything is unpacked, entries that do not start like DICOM are never written, and
 * no temp file outlives the request.
 */

const MiB = 1024 * 1024;
/** 64 MiB of zeros deflated once (~65 KB): the attacker's entries, smaller. */
const zeros64 = deflateRawSync(Buffer.alloc(64 * MiB));

let t: TestApp;
let world: Awaited<ReturnType<typeof createArchiveWorld>>;
beforeAll(async () => {
  t = await createTestApp();
  world = await createArchiveWorld(t);
});
afterAll(() => t.close());

type Client = typeof world.center.client;
function upload(client: Client, files: Array<{ name: string; bytes: Uint8Array }>) {
  const { payload, contentType } = formBody({}, files);
  return client.request({
    method: 'POST',
    url: '/api/dicom-web/upload',
    payload,
    headers: { 'content-type': contentType },
  });
}

const uploadTempFiles = async (app: TestApp) =>
  (await readdir(app.blobs.tempDir())).filter((name) => name.startsWith('upload-'));

/**
 * The upload temp files created in the blob store's temp dir while `run` ran. A marker file
 * written afterwards is waited for: inotify reports in order, so every earlier creation is in.
 */
async function uploadFilesCreatedDuring<T>(app: TestApp, run: () => Promise<T>) {
  const dir = app.blobs.tempDir();
  const marker = `marker-${randomBytes(6).toString('hex')}`;
  const created = new Set<string>();
  let markerSeen!: () => void;
  const seen = new Promise<void>((resolve) => (markerSeen = resolve));
  const watcher = watch(dir, (_event, name) => {
    if (name === marker) markerSeen();
    else if (name?.startsWith('upload-')) created.add(name);
  });
  try {
    const result = await run();
    await writeFile(path.join(dir, marker), '');
    await seen;
    await rm(path.join(dir, marker));
    return { result, created };
  } finally {
    watcher.close();
  }
}

const dicomHead = (bytes: Uint8Array) => Buffer.from(bytes).subarray(128, 132).toString('latin1');

describe('browser upload: zip limits', () => {
  it('a zip bomb (two 64 MiB entries of zeros) answers 413 naming UPLOAD_MAX_COMPRESSION_RATIO before unpacking', async () => {
    const bomb = handZip([
      { name: 'a.bin', data: zeros64, method: 8, declaredSize: 64 * MiB },
      { name: 'b.bin', data: zeros64, method: 8, declaredSize: 64 * MiB },
    ]);
    expect(bomb.length).toBeLessThan(200_000);
    const { result: res, created } = await uploadFilesCreatedDuring(t, () =>
      upload(world.center.client, [{ name: 'bomb.zip', bytes: bomb }]),
    );
    expect(res.statusCode, res.body).toBe(413);
    expect(res.json().additionalInfo).toBe('UPLOAD_MAX_COMPRESSION_RATIO');
    expect(res.json().errorDescription).toMatch(/UPLOAD_MAX_COMPRESSION_RATIO \(100:1\)/);
    // Only the uploaded zip itself was written, and it is gone.
    expect(created.size).toBe(1);
    expect(await uploadTempFiles(t)).toEqual([]);
  });

  it('an entry declaring a huge size is judged by its declaration: 413 by the ratio, or refused past UPLOAD_MAX_FILE_BYTES', async () => {
    const dicom = readFixture(LIVER[0]!);
    const liar = { ...deflatedEntry('big.dcm', dicom), declaredSize: 1536 * MiB };
    const res = await upload(world.center.client, [{ name: 'liar.zip', bytes: handZip([liar]) }]);
    expect(res.statusCode, res.body).toBe(413);
    expect(res.json().additionalInfo).toBe('UPLOAD_MAX_COMPRESSION_RATIO');

    const beyond = { ...deflatedEntry('huge.dcm', dicom), declaredSize: 0xfffffff0 };
    const refused = await upload(world.center.client, [{ name: 'huge.zip', bytes: handZip([beyond]) }]);
    // A request that stored nothing is a 400 naming the file and why (browser-upload.ts).
    expect(refused.statusCode, refused.body).toBe(400);
    expect(refused.json().additionalInfo).toBe('file');
    expect(refused.json().errorDescription).toMatch(/^huge\.zip\/huge\.dcm .*larger than \d+ bytes/);
    expect(await uploadTempFiles(t)).toEqual([]);
  });

  it('an entry holding more bytes than it declares is refused, nothing of it stored or left behind', async () => {
    const dicom = readFixture(LIVER[1]!);
    expect(dicomHead(dicom)).toBe('DICM');
    const padded = Buffer.concat([Buffer.from(dicom), Buffer.alloc(8 * MiB)]);
    const entry = { ...deflatedEntry('liar.dcm', padded), declaredSize: dicom.length };
    const res = await upload(world.center.client, [{ name: 'lies.zip', bytes: handZip([entry]) }]);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().additionalInfo).toBe('file');
    expect(res.json().errorDescription).toMatch(/^lies\.zip\/liar\.dcm .*bytes/);
    expect(await uploadTempFiles(t)).toEqual([]);
  });

  it('checks each entry’s first bytes before unpacking it: not-DICOM entries and nested zips are refused unwritten', async () => {
    const dicom = readFixture(LIVER[2]!);
    const nested = handZip([deflatedEntry('inner.dcm', readFixture(LIVER[3]!))]);
    const zip = handZip([
      deflatedEntry('notes.txt', Buffer.alloc(4 * MiB, 'not an image ')),
      deflatedEntry('inner.zip', nested),
      deflatedEntry('image.dcm', dicom),
    ]);
    const { result: res, created } = await uploadFilesCreatedDuring(t, () =>
      upload(world.center.client, [{ name: 'mixed.zip', bytes: zip }]),
    );
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ stored: 1, failed: 2 });
    const reasons = Object.fromEntries(
      body.files.map((f: { fileName: string; reason: string | null }) => [f.fileName, f.reason]),
    );
    expect(reasons['mixed.zip/notes.txt']).toMatch(/not DICOM/i);
    expect(reasons['mixed.zip/inner.zip']).toMatch(/nested zips are not unpacked/);
    expect(reasons['mixed.zip/image.dcm']).toBeNull();
    // The uploaded zip and the one DICOM entry: the refused entries never reached the disk.
    expect(created.size).toBe(2);
    expect(await uploadTempFiles(t)).toEqual([]);
  });
});

describe('browser upload: UPLOAD_MAX_INFLATED_BYTES', () => {
  let small: TestApp;
  let smallWorld: Awaited<ReturnType<typeof createArchiveWorld>>;
  const first = readFixture(LIVER[0]!);
  const second = readFixture(LIVER[1]!);
  beforeAll(async () => {
    // Room for one instance, not two.
    small = await createTestApp({
      uploadLimits: { maxInflatedBytes: first.length + 1024, maxCompressionRatio: 100 },
    });
    smallWorld = await createArchiveWorld(small);
  });
  afterAll(() => small.close());

  it('the zips of one request together may not unpack to more: 413 naming the limit, no temp file left', async () => {
    const one = await upload(smallWorld.center.client, [
      { name: 'one.zip', bytes: handZip([deflatedEntry('1.dcm', first)]) },
    ]);
    expect(one.statusCode, one.body).toBe(200);
    expect(one.json()).toMatchObject({ stored: 1 });

    const two = await upload(smallWorld.center.client, [
      { name: 'one.zip', bytes: handZip([deflatedEntry('1.dcm', first)]) },
      { name: 'two.zip', bytes: handZip([deflatedEntry('2.dcm', second)]) },
    ]);
    expect(two.statusCode, two.body).toBe(413);
    expect(two.json().additionalInfo).toBe('UPLOAD_MAX_INFLATED_BYTES');
    expect(two.json().errorDescription).toMatch(/two\.zip.*UPLOAD_MAX_INFLATED_BYTES \(\d+ bytes\)/);
    expect(await uploadTempFiles(small)).toEqual([]);
  });
});
