import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { reportStatuses, studies } from '../../db/schema.js';
import { type BlobStore, FsBlobStore } from '../storage/blob-store.js';
import { zipBlobKey } from './build-study-zip.js';
import { signZipGrant } from './zip-link.js';
import {
  type TestApp,
  createTestApp,
  createTestCenter,
  createTestGroup,
  createTestUser,
} from '../../../test/test-app.js';

/** The blob store of the app, recording every stream it opens. */
class SpyBlobStore extends FsBlobStore implements BlobStore {
  readonly opened: Readable[] = [];
  override get(key: string, range?: { start: number; end: number }): Readable {
    const stream = super.get(key, range);
    this.opened.push(stream);
    return stream;
  }
}

let t: TestApp;
let spy: SpyBlobStore;
let root: string;
beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'radflow-zip-spy-'));
  spy = await new SpyBlobStore(root).init();
  t = await createTestApp({ blobs: spy });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  await t.close();
  await rm(root, { recursive: true, force: true });
});

it('stops reading the zip as soon as the client goes away (ARCHITECTURE §5)', async () => {
  const group = await createTestGroup(t.db);
  const center = await createTestCenter(t.db, { groupId: group.id });
  const user = await createTestUser(t.db, { roles: ['ROLE_CENTER'], groupId: group.id, centerId: center.id });
  const [study] = await t.db
    .insert(studies)
    .values({ groupId: group.id, centerId: center.id, studyInstanceUid: '2.25.1', patientName: 'BIG^STUDY' })
    .returning();
  const [report] = await t.db
    .insert(reportStatuses)
    .values({ studyId: study!.id, groupId: group.id, centerId: center.id })
    .returning();
  // 64 MB: far more than the socket buffers hold, so the server is still sending when the client leaves.
  const size = 64 * 2 ** 20;
  await spy.put(zipBlobKey(report!.id, 'NONE'), randomBytes(size));
  const token = await signZipGrant(t.app.ctx, {
    reportStatusId: report!.id,
    variant: 'NONE',
    userId: user.id,
    expiresAt: Math.floor(Date.now() / 1000) + 600,
    withName: true,
  });

  const { port } = t.app.server.address() as AddressInfo;
  const received = await new Promise<number>((resolve, reject) => {
    const request = http.get(
      `http://127.0.0.1:${port}/api/dicom-web/zip-v2/download/${token}`,
      (response) => {
        expect(response.statusCode).toBe(200);
        expect(Number(response.headers['content-length'])).toBe(size);
        let bytes = 0;
        response.on('data', (chunk: Buffer) => {
          bytes += chunk.length;
          if (bytes > 1024 * 1024) {
            request.destroy();
            resolve(bytes);
          }
        });
        response.on('error', () => undefined);
      },
    );
    request.on('error', (error) => {
      if (!request.destroyed) reject(error);
    });
  });
  expect(received).toBeLessThan(size);

  const stream = spy.opened.at(-1)!;
  for (let i = 0; i < 100 && !stream.destroyed; i++) await new Promise((r) => setTimeout(r, 20));
  expect(stream.destroyed).toBe(true);
  expect(stream.readableEnded).toBe(false);
  expect((stream as unknown as { bytesRead: number }).bytesRead).toBeLessThan(size);
});
