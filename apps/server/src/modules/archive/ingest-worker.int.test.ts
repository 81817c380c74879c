import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { instances } from '../../db/schema.js';
import { ingestInstance } from './ingest.js';
import { ingestPool } from './ingest-pool.js';
import { prepareInstance } from './ingest-prepare.js';
import { SharedBytesPool } from './shared-bytes.js';
import { type TestApp, createTestApp, createTestCenter, createTestGroup } from '../../../test/test-app.js';
import { STORABLE, corpus, fixturePath, readFixture } from '../../../test/archive/fixtures.js';

let t: TestApp;
beforeAll(async () => {
  // The test database may be PGlite, where ingests use the workers only when asked to.
  process.env.INGEST_WORKERS ??= '1';
  t = await createTestApp();
});
afterAll(() => t.close());

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

describe('ingest workers', () => {
  it('start from source and prepare every corpus file exactly as the main thread does', async () => {
    expect(await ingestPool.ready()).toBe(true);
    const shared = new SharedBytesPool();
    for (const file of corpus) {
      const bytes = readFixture(file.path);
      const inline = prepareInstance(bytes);
      const fromFile = await ingestPool.prepare({ filePath: fixturePath(file.path) });
      expect(fromFile, file.path).not.toBeNull();
      expect((await fromFile!).preparation, file.path).toEqual(inline);

      // Shared memory is read in place and stays with the caller.
      const slot = shared.allocate(bytes.length);
      slot.set(bytes);
      const fromShared = await ingestPool.prepare({ bytes: slot })!;
      expect(fromShared.preparation, file.path).toEqual(inline);
      expect(fromShared.bytes, file.path).toBeUndefined();
      expect(sha256(slot), file.path).toBe(file.sha256);

      // Other bytes are moved to the worker and come back whole.
      const fromCopy = await ingestPool.prepare({ bytes: new Uint8Array(bytes) })!;
      expect(fromCopy.preparation, file.path).toEqual(inline);
      expect(sha256(fromCopy.bytes!), file.path).toBe(file.sha256);
    }
  });

  it('concurrent ingests go through the workers and store every instance byte-for-byte', async () => {
    expect(await ingestPool.ready()).toBe(true);
    const group = await createTestGroup(t.db);
    const center = await createTestCenter(t.db, { groupId: group.id });
    const answeredBefore = ingestPool.answered;
    // Files whose SOP Instance UID no other corpus file has: each ends as its own row.
    const sopUses = new Map<string | null, number>();
    for (const file of corpus)
      sopUses.set(file.sop_instance_uid, (sopUses.get(file.sop_instance_uid) ?? 0) + 1);
    const files = corpus.filter(
      (file) => file.sop_instance_uid === null || sopUses.get(file.sop_instance_uid) === 1,
    );
    expect(files.length).toBeGreaterThan(20);
    // Each file twice at once: as bytes alone (as the C-STORE SCP hands them over) and as a copied
    // file, so one of the two is a re-send racing the other.
    const results = await Promise.all(
      files.flatMap((file) => [
        ingestInstance(
          t.app.ctx,
          { bytes: new Uint8Array(readFixture(file.path)) },
          { centerId: center.id, source: 'DIMSE' },
        ),
        ingestInstance(
          t.app.ctx,
          { filePath: fixturePath(file.path) },
          { centerId: center.id, source: 'UPLOAD' },
        ),
      ]),
    );
    expect(ingestPool.answered).toBeGreaterThan(answeredBefore);
    for (const [at, file] of files.entries()) {
      for (const result of [results[2 * at]!, results[2 * at + 1]!]) {
        if (!STORABLE.has(file.expected)) {
          expect(result, file.path).toMatchObject({ ok: false });
          if (!result.ok) expect(['NOT_DICOM', 'INVALID']).toContain(result.failureCode);
          continue;
        }
        expect(result, file.path).toMatchObject({ ok: true });
        if (!result.ok) continue;
        expect(result.sopInstanceUid, file.path).toBe(file.sop_instance_uid);
        const [row] = await t.db
          .select()
          .from(instances)
          .where(
            and(eq(instances.studyId, result.studyId), eq(instances.sopInstanceUid, result.sopInstanceUid)),
          );
        expect(row!.sha256, file.path).toBe(file.sha256);
        expect(sha256(await t.blobs.read(row!.blobKey)), file.path).toBe(file.sha256);
      }
    }
  });
});

describe('SharedBytesPool', () => {
  it('never lends one slot twice and reuses a slot once it is released', () => {
    const pool = new SharedBytesPool();
    const a = pool.allocate(600_000);
    const b = pool.allocate(600_000);
    expect(a.buffer).not.toBe(b.buffer);
    expect(a.length).toBe(600_000);
    pool.release(a);
    pool.release(a); // a second release of the same bytes changes nothing
    const c = pool.allocate(700_000);
    const d = pool.allocate(700_000);
    expect(c.buffer).toBe(a.buffer);
    expect(d.buffer).not.toBe(a.buffer);
    expect(d.buffer).not.toBe(b.buffer);
  });
});
