import fs from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { instances } from '../../db/schema.js';
import { ingestInstance } from './ingest.js';
import { sweepOrphanBlobs } from './orphan-sweep.js';
import type { FsBlobStore } from '../storage/blob-store.js';
import { type TestApp, createTestApp, createTestCenter, createTestGroup } from '../../../test/test-app.js';
import { LIVER, fixturePath } from '../../../test/archive/fixtures.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const DAY_MS = 24 * 60 * 60 * 1000;

describe('sweepOrphanBlobs', () => {
  it('deletes old blobs no instance names, never an indexed one or a fresh one', async () => {
    const group = await createTestGroup(t.db);
    const center = await createTestCenter(t.db, { groupId: group.id });
    const result = await ingestInstance(
      t.app.ctx,
      { filePath: fixturePath(LIVER[0]!) },
      {
        centerId: center.id,
        source: 'UPLOAD',
      },
    );
    expect(result).toMatchObject({ ok: true });
    if (!result.ok) return;
    const [row] = await t.db
      .select({ key: instances.blobKey })
      .from(instances)
      .where(eq(instances.sopInstanceUid, result.sopInstanceUid));
    const indexed = row!.key;
    const studyDir = indexed.slice(0, indexed.lastIndexOf('/') + 1);
    const store = t.blobs as FsBlobStore;
    const bytes = new Uint8Array([1, 2, 3]);
    const old = new Date(Date.now() - 2 * DAY_MS);
    const keys = {
      orphanBesideIndexed: `${studyDir}9.9.9.dcm`,
      orphanOtherStudy: `dicom/${group.id}/ab/1.2.826.0.99/1.2.3.dcm`,
      orphanHashedStudy: `dicom/${group.id}/cd/h0123456789abcdef/1.dcm`,
      freshOrphan: `dicom/${group.id}/ab/1.2.826.0.98/1.2.4.dcm`,
    };
    for (const key of Object.values(keys)) await store.put(key, bytes);
    for (const key of [indexed, keys.orphanBesideIndexed, keys.orphanOtherStudy, keys.orphanHashedStudy])
      await fs.utimes(store.localPath(key), old, old);

    const deleted = await sweepOrphanBlobs(t.app.ctx, { now: new Date() });

    expect(deleted).toBe(3);
    expect(await store.size(indexed)).toBeGreaterThan(0);
    expect(await store.size(keys.freshOrphan)).toBe(3);
    expect(await store.size(keys.orphanBesideIndexed)).toBeNull();
    expect(await store.size(keys.orphanOtherStudy)).toBeNull();
    expect(await store.size(keys.orphanHashedStudy)).toBeNull();
    // Nothing left to take on a second pass.
    expect(await sweepOrphanBlobs(t.app.ctx, { now: new Date() })).toBe(0);
  });

  it('never deletes a blob that is named while the sweep looks at it', async () => {
    const store = t.blobs as FsBlobStore;
    const key = 'dicom/999/ef/1.2.826.0.97/1.dcm';
    await store.put(key, new Uint8Array([1]));
    const old = new Date(Date.now() - 2 * DAY_MS);
    await fs.utimes(store.localPath(key), old, old);
    // A re-send names the key again at the same moment as the sweep's check: it is a new file.
    const [deleted] = await Promise.all([
      sweepOrphanBlobs(t.app.ctx, { now: new Date() }),
      store.put(key, new Uint8Array([7, 7])),
    ]);
    const size = await store.size(key);
    // Either the sweep took the old copy before the re-send named the new one, or it found the new one.
    expect(size).toBe(2);
    expect(deleted).toBeLessThanOrEqual(1);
  });
});
