import fs from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { openPglite, pgliteDurabilityOf } from '../../db/client.js';
import { instances, reportStatuses, studies } from '../../db/schema.js';
import { BlobNotDurable, type IndexRow, IndexWriter } from './index-writer.js';
import {
  type TestApp,
  createTestApp,
  createTestCenter,
  createTestGroup,
  writeMigratedDataDir,
} from '../../../test/test-app.js';
import { createArchiveWorld, stowBody } from '../../../test/archive/helpers.js';
import { LIVER, corpus, readFixture } from '../../../test/archive/fixtures.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

let uid = 0;
const nextUid = () => `2.25.${Date.now()}${++uid}`;

/** An index row of a plain CT slice; `metadata` may be made unreadable to fail the row. */
function row(center: { id: number; groupId: number }, study: string, over: Partial<IndexRow> = {}): IndexRow {
  const sop = nextUid();
  return {
    groupId: center.groupId,
    centerId: center.id,
    studyInstanceUid: study,
    seriesInstanceUid: `${study}.1`,
    sopInstanceUid: sop,
    sopClassUid: '1.2.840.10008.5.1.4.1.1.2',
    transferSyntaxUid: '1.2.840.10008.1.2.1',
    study: {
      patientName: "O'Brien^Ann\\x",
      patientId: 'P1',
      issuerOfPatientId: '',
      patientSex: 'F',
      patientAge: '040Y',
      patientBirthDate: '',
      studyDate: '20240101',
      studyTime: '',
      studyDescription: 'CT chest',
      accessionNumber: 'A1',
      studyIdentifier: '',
      institutionName: '',
      referringPhysicianName: '',
    },
    modality: 'CT',
    seriesDescription: '',
    seriesNumber: 1,
    bodyPartExamined: '',
    instanceNumber: 1,
    numberOfFrames: 1,
    rows: 512,
    columns: 512,
    blobKey: `dicom/${center.groupId}/x/${study}/${sop}.dcm`,
    sizeBytes: 100,
    sha256: 'a'.repeat(64),
    metadata: '{}',
    frames: null,
    source: 'STOW',
    callingAet: null,
    actorUserId: null,
    receivedAt: new Date(),
    ...over,
  };
}

async function newCenter() {
  const group = await createTestGroup(t.db);
  const center = await createTestCenter(t.db, { groupId: group.id });
  return { id: center.id, groupId: group.id };
}

const studyRow = async (studyUid: string) =>
  (await t.db.select().from(studies).where(eq(studies.studyInstanceUid, studyUid)))[0];

function deferred() {
  let resolve!: () => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe('the index writer (group commit)', () => {
  it('instances handed over together are committed in one transaction, with correct counts', async () => {
    const writer = new IndexWriter(t.db);
    const center = await newCenter();
    const study = nextUid();
    const outcomes = await Promise.all([0, 1, 2].map(() => writer.write(row(center, study))));
    expect(writer.stats).toMatchObject({ batches: 1, instances: 3, largestBatch: 3, retriedBatches: 0 });
    expect(new Set(outcomes.map((o) => o.reportStatusId)).size).toBe(1);
    expect(outcomes.every((o) => o.disposition === 'STORED')).toBe(true);
    const saved = await studyRow(study);
    expect(saved).toMatchObject({
      instanceCount: 3,
      seriesCount: 1,
      sizeBytes: 300,
      patientName: "O'Brien^Ann\\x",
    });
    const reports = await t.db.select().from(reportStatuses).where(eq(reportStatuses.studyId, saved!.id));
    expect(reports).toHaveLength(1);
  });

  it('a bad instance in a batch is refused with its reason; the others are stored', async () => {
    const writer = new IndexWriter(t.db);
    const center = await newCenter();
    const study = nextUid();
    const settled = await Promise.allSettled([
      writer.write(row(center, study)),
      writer.write(row(center, study, { metadata: 'not json' })),
      writer.write(row(center, study)),
    ]);
    expect(settled.map((s) => s.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(String((settled[1] as PromiseRejectedResult).reason)).toMatch(/json/i);
    expect(writer.stats.retriedBatches).toBe(1);
    const saved = await studyRow(study);
    expect(saved?.instanceCount).toBe(2);
    expect(await t.db.select().from(instances).where(eq(instances.studyId, saved!.id))).toHaveLength(2);
  });

  it('an instance whose blob could not be made durable is never committed; its batch mates are', async () => {
    const writer = new IndexWriter(t.db);
    const center = await newCenter();
    const study = nextUid();
    const lost = row(center, study);
    const settled = await Promise.allSettled([
      writer.write(row(center, study)),
      writer.write(lost, Promise.reject(new Error('disk full'))),
    ]);
    expect(settled[0]!.status).toBe('fulfilled');
    const reason = (settled[1] as PromiseRejectedResult).reason as unknown;
    expect(reason).toBeInstanceOf(BlobNotDurable);
    expect((reason as Error).message).toBe('disk full');
    const saved = await studyRow(study);
    expect(saved?.instanceCount).toBe(1);
    const rows = await t.db.select().from(instances).where(eq(instances.sopInstanceUid, lost.sopInstanceUid));
    expect(rows).toHaveLength(0);
  });

  it.runIf(inject('postgresUrl'))(
    'commits only after the blob is durable: until then no other session sees the row',
    async () => {
      const writer = new IndexWriter(t.db);
      const center = await newCenter();
      const study = nextUid();
      const blob = deferred();
      let committed = false;
      const write = writer.write(row(center, study), blob.promise).then((o) => {
        committed = true;
        return o;
      });
      // Until the writer's transaction has run its statements and waits for the blob (bounded).
      for (let i = 0; i < 2000; i++) {
        const waiting = await t.db.execute(
          sql`select count(*)::integer as n from pg_stat_activity
               where datname = current_database() and state = 'idle in transaction'`,
        );
        if ((waiting as unknown as { rows: Array<{ n: number }> }).rows[0]!.n > 0) break;
      }
      expect(committed).toBe(false);
      expect(await studyRow(study)).toBeUndefined();
      blob.resolve();
      await write;
      expect((await studyRow(study))?.instanceCount).toBe(1);
    },
  );

  it('on a data directory, syncs each batch from the WAL position read with its statements', async () => {
    const dir = await fs.mkdtemp(path.join(tmpdir(), 'rf-index-writer-'));
    // Migrated beforehand: the subject is the writer's syncs, not the directory's creation.
    await writeMigratedDataDir(path.join(dir, 'db'));
    const handle = await openPglite({ dataDir: path.join(dir, 'db') });
    try {
      await handle.migrate();
      const group = await createTestGroup(handle.db);
      const center = await createTestCenter(handle.db, { groupId: group.id });
      const stats = pgliteDurabilityOf(handle.client)!.stats;
      const before = { ...stats };
      const writer = new IndexWriter(handle.db);
      const study = nextUid();
      await writer.write(row({ id: center.id, groupId: group.id }, study));
      await Promise.all([0, 1].map(() => writer.write(row({ id: center.id, groupId: group.id }, study))));
      expect(writer.stats.batches).toBe(2);
      expect(stats.syncs - before.syncs).toBe(2);
      expect(stats.asked).toBe(before.asked);
      const [saved] = await handle.db.select().from(studies).where(eq(studies.studyInstanceUid, study));
      expect(saved?.instanceCount).toBe(3);
    } finally {
      await handle.close();
      await fs.rm(dir, { recursive: true, force: true });
    }
  }, 60_000);
});

describe('STOW-RS with parts ingested side by side', () => {
  it('answers only after every stored instance is visible, in part order, one bad part refused', async () => {
    const world = await createArchiveWorld(t);
    const files = LIVER.map((f) => readFixture(f));
    const body = stowBody([files[0]!, Buffer.from('not dicom at all'), ...files.slice(1)]);
    const res = await world.center.client.request({
      method: 'POST',
      url: '/api/dicomweb/studies',
      headers: { 'content-type': body.contentType },
      payload: body.payload,
    });
    expect(res.statusCode, res.body).toBe(202);
    const answer = res.json() as Record<string, { Value?: Array<Record<string, { Value?: unknown[] }>> }>;
    const stored = answer['00081199']?.Value ?? [];
    // In part order, whatever order the parts finished in.
    const expectedSops = LIVER.map((f) => corpus.find((c) => c.path === f)!.sop_instance_uid);
    expect(stored.map((ref) => ref['00081155']?.Value?.[0])).toEqual(expectedSops);
    expect(answer['00081198']?.Value).toHaveLength(1);
    expect(answer['00081198']?.Value?.[0]?.['00081197']?.Value).toEqual([0xc000]);
    // Every acknowledged instance is already committed when the answer arrives.
    for (const ref of stored) {
      const sop = ref['00081155']?.Value?.[0] as string;
      const rows = await t.db.select().from(instances).where(eq(instances.sopInstanceUid, sop));
      expect(rows, sop).toHaveLength(1);
      expect(await t.blobs.size(rows[0]!.blobKey)).toBe(Number(rows[0]!.sizeBytes));
    }
  });
});
