import { createHash } from 'node:crypto';
import { mkdtemp, readFile, readdir, rm, truncate, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import type { Db, DbHandle } from '../../db/client.js';
import { instanceIndexOf } from '../../db/client.js';
import type { IndexRow } from '../../db/instance-index.js';
import { ingestRefusals, instances, reportStatuses, studies } from '../../db/schema.js';
import { FsBlobStore } from '../storage/blob-store.js';
import { IngestJournal } from './ingest-journal.js';
import { ingestInstance } from './ingest.js';
import {
  journalIndexerOf,
  journalPosition,
  startIngestJournal,
  stopIngestJournal,
} from './journal-indexer.js';
import { durableTestDatabase } from '../../../test/live-client.js';
import { type TestApp, createTestApp, createTestCenter, createTestGroup } from '../../../test/test-app.js';
import { LIVER, readFixture } from '../../../test/archive/fixtures.js';
import { editedDicom } from '../../../test/archive/dicom-edit.js';

/*
 * The ingest journal (ARCHIVE.md "acknowledge before indexing"): a kill at each step of an ingest
 * acknowledged from the journal, then a restart on the same journal directory and database (a
 * PGlite data directory, or PostgreSQL with DATABASE_URL): every acknowledged instance is indexed,
 * once; nothing unacknowledged is.
 */

let database: Awaited<ReturnType<typeof durableTestDatabase>>;
let handle: DbHandle;
let root: string;
let blobs: FsBlobStore;
let center: { id: number; groupId: number };

beforeAll(async () => {
  database = await durableTestDatabase();
  handle = await database.open();
  root = await mkdtemp(path.join(os.tmpdir(), 'radflow-journal-'));
  blobs = await new FsBlobStore(path.join(root, 'blobs')).init();
  const group = await createTestGroup(handle.db);
  const made = await createTestCenter(handle.db, { groupId: group.id });
  center = { id: made.id, groupId: group.id };
});
afterAll(async () => {
  await stopIngestJournal({ db: handle.db });
  await handle?.close();
  await blobs?.close();
  await database?.drop();
  await rm(root, { recursive: true, force: true });
});

/** A server restart: the database handle closed and opened again (PGlite: its directory read anew). */
async function restart(): Promise<Db> {
  await stopIngestJournal({ db: handle.db });
  await handle.close();
  handle = await database.open();
  return handle.db;
}

let uid = 0;
const nextUid = () => `2.25.${Date.now()}${++uid}`;

/** An instance's index row whose blob is stored (durable), as the ingest has it before the journal. */
async function storedRow(study: string): Promise<IndexRow> {
  const sop = nextUid();
  const blobKey = `dicom/${center.groupId}/00/${study}/${sop}.000000000000.dcm`;
  const bytes = new Uint8Array(Buffer.from(`blob of ${sop}`));
  await blobs.putBytes(blobKey, bytes);
  return {
    groupId: center.groupId,
    centerId: center.id,
    studyInstanceUid: study,
    seriesInstanceUid: `${study}.1`,
    sopInstanceUid: sop,
    sopClassUid: '1.2.840.10008.5.1.4.1.1.2',
    transferSyntaxUid: '1.2.840.10008.1.2.1',
    study: {
      patientName: 'Rao^Anil',
      patientId: 'P1',
      issuerOfPatientId: '',
      patientSex: 'M',
      patientAge: '050Y',
      patientBirthDate: '',
      studyDate: '20260101',
      studyTime: '',
      studyDescription: 'CT chest',
      accessionNumber: '',
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
    blobKey,
    sizeBytes: bytes.length,
    sha256: createHash('sha256').update(bytes).digest('hex'),
    metadata: '{"00080060":{"vr":"CS","Value":["CT"]}}',
    frames: null,
    source: 'DIMSE',
    callingAet: 'MODALITY',
    actorUserId: null,
    receivedAt: new Date(),
  };
}

/** Records appended and synced, then the process "dies" before its indexer ran. */
async function journaled(dir: string, rows: IndexRow[]): Promise<number[]> {
  const { journal } = await IngestJournal.open(dir, (id) => journalPosition(handle.db, id));
  const seqs = [];
  for (const row of rows) seqs.push(await journal.append(row).synced);
  journal.close();
  return seqs;
}

async function indexed(db: Db, study: string) {
  const [row] = await db
    .select({ id: studies.id, instanceCount: studies.instanceCount })
    .from(studies)
    .where(and(eq(studies.groupId, center.groupId), eq(studies.studyInstanceUid, study)));
  if (!row) return { instances: 0, studyCount: 0, reportRows: 0 };
  const rows = await db.select({ id: instances.id }).from(instances).where(eq(instances.studyId, row.id));
  const reportRows = await db
    .select({ id: reportStatuses.id })
    .from(reportStatuses)
    .where(eq(reportStatuses.studyId, row.id));
  return { instances: rows.length, studyCount: row.instanceCount, reportRows: reportRows.length };
}

const journalDir = () => mkdtemp(path.join(root, 'journal-'));

describe('replay after a kill', () => {
  it('blob written, no journal record: nothing is indexed, the blob is an orphan', async () => {
    const dir = await journalDir();
    const study = nextUid();
    const row = await storedRow(study);
    await journaled(dir, []);
    const db = await restart();
    const { replayed } = await startIngestJournal({ db, blobs }, { dir });
    expect(replayed).toBe(0);
    expect(await indexed(db, study)).toEqual({ instances: 0, studyCount: 0, reportRows: 0 });
    expect(await blobs.size(row.blobKey)).toBe(row.sizeBytes);
  });

  it('journal synced beside a blob that did not become whole: not indexed', async () => {
    const dir = await journalDir();
    const study = nextUid();
    const [kept, missing, cut] = [await storedRow(study), await storedRow(study), await storedRow(study)];
    await journaled(dir, [kept!, missing!, cut!]);
    await blobs.delete(missing!.blobKey);
    const cutPath = path.join(root, 'blobs', cut!.blobKey);
    await truncate(cutPath, cut!.sizeBytes - 1);
    const db = await restart();
    const started = await startIngestJournal({ db, blobs }, { dir });
    expect(started).toMatchObject({ replayed: 1, skipped: 2 });
    expect(await indexed(db, study)).toEqual({ instances: 1, studyCount: 1, reportRows: 1 });
  });

  it('journal synced, index batch not run: indexed after the restart, once', async () => {
    const dir = await journalDir();
    const study = nextUid();
    const rows = [await storedRow(study), await storedRow(study), await storedRow(study)];
    await journaled(dir, rows);
    let db = await restart();
    const { replayed } = await startIngestJournal({ db, blobs }, { dir });
    expect(replayed).toBe(3);
    expect(await indexed(db, study)).toEqual({ instances: 3, studyCount: 3, reportRows: 1 });
    // A second restart replays nothing: the position came with the batch.
    db = await restart();
    expect((await startIngestJournal({ db, blobs }, { dir })).replayed).toBe(0);
    expect(await indexed(db, study)).toEqual({ instances: 3, studyCount: 3, reportRows: 1 });
  });

  it('index batch rolled back: indexed once after the restart', async () => {
    const dir = await journalDir();
    const study = nextUid();
    const rows = [await storedRow(study), await storedRow(study)];
    const seqs = await journaled(dir, rows);
    const id = (await readFile(path.join(dir, 'journal-id'), 'utf8')).trim();
    await expect(
      instanceIndexOf(handle.db).createInstances(rows, () => Promise.reject(new Error('killed')), {
        journal: { id, position: seqs.at(-1)! },
      }),
    ).rejects.toThrow('killed');
    expect(await journalPosition(handle.db, id)).toBe(0);
    const db = await restart();
    expect((await startIngestJournal({ db, blobs }, { dir })).replayed).toBe(2);
    expect(await indexed(db, study)).toEqual({ instances: 2, studyCount: 2, reportRows: 1 });
  });

  it('half of the records indexed: the rest after the restart, each once', async () => {
    const dir = await journalDir();
    const study = nextUid();
    const rows = [
      await storedRow(study),
      await storedRow(study),
      await storedRow(study),
      await storedRow(study),
    ];
    const seqs = await journaled(dir, rows);
    const id = (await readFile(path.join(dir, 'journal-id'), 'utf8')).trim();
    const index = instanceIndexOf(handle.db);
    await index.makeDurable(
      await index.createInstances(rows.slice(0, 2), () => Promise.resolve(), {
        journal: { id, position: seqs[1]! },
      }),
    );
    const db = await restart();
    expect((await startIngestJournal({ db, blobs }, { dir })).replayed).toBe(2);
    expect(await indexed(db, study)).toEqual({ instances: 4, studyCount: 4, reportRows: 1 });
  });

  it('a record still waiting for its blob keeps the position below it', async () => {
    const dir = await journalDir();
    let db = await restart();
    const { indexer } = await startIngestJournal({ db, blobs }, { dir });
    const study = nextUid();
    const slow = await storedRow(study);
    const fast = await storedRow(study);
    // The first record's blob sync has not answered when the second one is indexed.
    void indexer.append(slow, await indexer.admit(slow), new Promise(() => undefined));
    await indexer.append(fast, await indexer.admit(fast));
    await indexer.drain();
    expect(await indexed(db, study)).toMatchObject({ instances: 1 });
    expect(await journalPosition(db, indexer.journal.id)).toBe(0);
    db = await restart();
    expect((await startIngestJournal({ db, blobs }, { dir })).replayed).toBe(2);
    expect(await indexed(db, study)).toEqual({ instances: 2, studyCount: 2, reportRows: 1 });
  });

  it('torn journal tail: the records before it are kept, numbering goes on', async () => {
    const dir = await journalDir();
    const study = nextUid();
    const rows = [await storedRow(study), await storedRow(study), await storedRow(study)];
    await journaled(dir, rows);
    const [segment] = (await readdir(dir)).filter((n) => n.startsWith('segment-'));
    const file = path.join(dir, segment!);
    const bytes = await readFile(file);
    // The third record cut in its payload (a kill inside the write).
    await truncate(file, bytes.length - 10);
    let db = await restart();
    const started = await startIngestJournal({ db, blobs }, { dir });
    expect(started.replayed).toBe(2);
    expect(await indexed(db, study)).toEqual({ instances: 2, studyCount: 2, reportRows: 1 });
    // Appends after the restart go on in a new segment and are replayed on the next one.
    const later = await storedRow(study);
    const seq = await started.indexer.journal.append(later).synced;
    expect(seq).toBe(3);
    started.indexer.journal.close();
    db = await restart();
    expect((await startIngestJournal({ db, blobs }, { dir })).replayed).toBe(1);
    expect(await indexed(db, study)).toEqual({ instances: 3, studyCount: 3, reportRows: 1 });
  });

  it('a record with a damaged checksum ends its segment', async () => {
    const dir = await journalDir();
    const study = nextUid();
    const rows = [await storedRow(study), await storedRow(study)];
    await journaled(dir, rows);
    const [segment] = (await readdir(dir)).filter((n) => n.startsWith('segment-'));
    const file = path.join(dir, segment!);
    const bytes = await readFile(file);
    bytes[bytes.length - 2] = bytes[bytes.length - 2]! ^ 0xff;
    await writeFile(file, bytes);
    const db = await restart();
    expect((await startIngestJournal({ db, blobs }, { dir })).replayed).toBe(1);
    expect(await indexed(db, study)).toEqual({ instances: 1, studyCount: 1, reportRows: 1 });
  });

  it('segments whose records are all indexed are deleted', async () => {
    const dir = await journalDir();
    const study = nextUid();
    await journaled(dir, [await storedRow(study)]);
    await journaled(dir, [await storedRow(study)]);
    const before = (await readdir(dir)).filter((n) => n.startsWith('segment-'));
    expect(before).toHaveLength(2);
    const db = await restart();
    const { indexer } = await startIngestJournal({ db, blobs }, { dir });
    await indexer.append(await storedRow(study), await indexer.admit(await storedRow(nextUid())));
    await indexer.drain();
    const after = (await readdir(dir)).filter((n) => n.startsWith('segment-'));
    expect(after).toEqual(indexer.journal.segments());
    expect(after).toHaveLength(1);
    expect(before).not.toContain(after[0]);
  });
});

describe('acknowledged from the journal', () => {
  let t: TestApp;
  let dir: string;
  let centerA: { id: number };
  let centerB: { id: number };
  beforeAll(async () => {
    t = await createTestApp();
    dir = await mkdtemp(path.join(os.tmpdir(), 'radflow-journal-app-'));
    await startIngestJournal(t.app.ctx, { dir });
    const group = await createTestGroup(t.db);
    centerA = await createTestCenter(t.db, { groupId: group.id });
    centerB = await createTestCenter(t.db, { groupId: group.id });
  });
  afterAll(async () => {
    await stopIngestJournal(t.app.ctx);
    await t.close();
    await rm(dir, { recursive: true, force: true });
  });

  const liver = () => readFixture(LIVER[0]!);
  const studyRow = (uid: string) => t.db.select().from(studies).where(eq(studies.studyInstanceUid, uid));

  it('answers a new instance before its batch, and the index has it after the batch', async () => {
    const bytes = editedDicom(liver(), {});
    const result = await ingestInstance(
      t.app.ctx,
      { bytes },
      { centerId: centerA.id, source: 'DIMSE', callingAet: 'MOD', acknowledgeDurable: true },
    );
    expect(result).toMatchObject({ ok: true, duplicate: false, keptFirst: false });
    if (!result.ok) return;
    await expect
      .poll(async () => (await studyRow(result.studyInstanceUid))[0]?.instanceCount ?? 0, { timeout: 10_000 })
      .toBe(1);
    expect(journalIndexerOf(t.db)!.stats.records).toBeGreaterThan(0);
  });

  it("refuses another center's instance of a study still in the journal, and audits it", async () => {
    const bytes = editedDicom(liver(), {});
    const first = await ingestInstance(
      t.app.ctx,
      { bytes },
      { centerId: centerA.id, source: 'DIMSE', callingAet: 'MOD', acknowledgeDurable: true },
    );
    expect(first.ok).toBe(true);
    const other = editedDicom(bytes, { SOPInstanceUID: nextUid() }, { newStudy: false });
    const second = await ingestInstance(
      t.app.ctx,
      { bytes: other },
      { centerId: centerB.id, source: 'DIMSE', callingAet: 'OTHER', acknowledgeDurable: true },
    );
    expect(second).toMatchObject({ ok: false, failureCode: 'FOREIGN_STUDY' });
    await journalIndexerOf(t.db)!.drain();
    const [study] = await studyRow(first.studyInstanceUid!);
    expect(study).toMatchObject({ centerId: centerA.id, instanceCount: 1 });
    const refusals = await t.db
      .select()
      .from(ingestRefusals)
      .where(eq(ingestRefusals.studyInstanceUid, first.studyInstanceUid!));
    expect(refusals).toHaveLength(1);
  });

  it('a re-send of an instance still in the journal is a duplicate, other bytes kept first', async () => {
    const bytes = editedDicom(liver(), {});
    const send = (b: Uint8Array) =>
      ingestInstance(
        t.app.ctx,
        { bytes: b },
        { centerId: centerA.id, source: 'DIMSE', callingAet: 'MOD', acknowledgeDurable: true },
      );
    const first = await send(bytes.slice());
    const same = await send(bytes.slice());
    const changed = await send(editedDicom(bytes, { PatientName: 'Other^Name' }, { newStudy: false }));
    expect(first).toMatchObject({ ok: true, duplicate: false });
    expect(same).toMatchObject({ ok: true, duplicate: true, keptFirst: false });
    expect(changed).toMatchObject({ ok: true, duplicate: true, keptFirst: true });
    await journalIndexerOf(t.db)!.drain();
    const [study] = await studyRow(first.studyInstanceUid!);
    expect(study).toMatchObject({ instanceCount: 1 });
  });
});
