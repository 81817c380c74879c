import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import pg from 'pg';
import { instanceIndexOf } from './client.js';
import type { IndexRow, InstanceIndex } from './instance-index.js';
import { PostgresInstanceIndex } from './instance-index-postgres.js';
import { ingestRefusals, instances, reportStatuses, series, studies, studyEvents } from './schema.js';
import { type TestApp, createTestApp, createTestCenter, createTestGroup } from '../../test/test-app.js';

/**
 * The index interface (instance-index.ts), on the engine of the run: PGlite in `npm test`,
 * PostgreSQL when DATABASE_URL is set (CI). Every way in writes through it, so its rules are
 * tested here once, on its own.
 */
let t: TestApp;
let index: InstanceIndex;
beforeAll(async () => {
  t = await createTestApp();
  index = instanceIndexOf(t.db);
});
afterAll(() => t.close());

let uid = 0;
const nextUid = () => `2.25.${Date.now()}${++uid}`;
const nothingToWaitFor = () => Promise.resolve();

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
    blobKey: `dicom/${center.groupId}/x/${study}/${sop}.dcm`,
    sizeBytes: 100,
    sha256: 'a'.repeat(64),
    metadata: '{"00080060":{"vr":"CS","Value":["CT"]}}',
    frames: [[1000, 524288]],
    source: 'STOW',
    callingAet: null,
    actorUserId: null,
    receivedAt: new Date(),
    ...over,
  };
}

async function newCenter(groupId?: number) {
  const group = groupId ?? (await createTestGroup(t.db)).id;
  const center = await createTestCenter(t.db, { groupId: group });
  return { id: center.id, groupId: group };
}

const studyOf = async (center: { groupId: number }, studyUid: string) =>
  (
    await t.db
      .select()
      .from(studies)
      .where(and(eq(studies.groupId, center.groupId), eq(studies.studyInstanceUid, studyUid)))
  )[0];

/** A report row holding a study without images (as Create Study leaves one). */
async function imagelessRow(center: { id: number; groupId: number }) {
  const [study] = await t.db
    .insert(studies)
    .values({ groupId: center.groupId, centerId: center.id, studyInstanceUid: nextUid() })
    .returning();
  const [report] = await t.db
    .insert(reportStatuses)
    .values({ studyId: study!.id, groupId: center.groupId, centerId: center.id, createdFromWebsite: true })
    .returning();
  return { studyId: study!.id, reportStatusId: report!.id };
}

describe(`the instance index (${process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite'})`, () => {
  it('creates the instances of a batch in one transaction; outcomes in the order given', async () => {
    const center = await newCenter();
    const [a, b] = [nextUid(), nextUid()];
    // Two studies interleaved: the index writes them in its lock order, the answer keeps ours.
    const rows = [row(center, b), row(center, a), row(center, b, { seriesInstanceUid: `${b}.2` })];
    const batch = await index.createInstances(rows, nothingToWaitFor);
    await index.makeDurable(batch);
    expect(batch.outcomes.map((o) => o.disposition)).toEqual(['STORED', 'STORED', 'STORED']);
    const studyA = await studyOf(center, a);
    const studyB = await studyOf(center, b);
    expect(batch.outcomes.map((o) => o.studyId)).toEqual([studyB!.id, studyA!.id, studyB!.id]);
    expect(studyB).toMatchObject({ instanceCount: 2, seriesCount: 2, sizeBytes: 200, modalities: ['CT'] });
    expect(studyA).toMatchObject({ instanceCount: 1, seriesCount: 1 });
    const reports = await t.db.select().from(reportStatuses).where(eq(reportStatuses.studyId, studyB!.id));
    expect(reports.map((r) => r.id)).toEqual([batch.outcomes[0]!.reportStatusId]);
    const events = await t.db
      .select()
      .from(studyEvents)
      .where(eq(studyEvents.reportStatusId, reports[0]!.id));
    expect(events.map((e) => e.eventType)).toEqual(['STUDY_CREATED']);
  });

  it("admission facts: the study's center and a stored SOP instance's hash, from committed rows", async () => {
    const center = await newCenter();
    const study = nextUid();
    const first = row(center, study, { sha256: 'b'.repeat(64) });
    const key = (r: IndexRow) => ({
      groupId: r.groupId,
      studyInstanceUid: r.studyInstanceUid,
      sopInstanceUid: r.sopInstanceUid,
    });
    expect(await index.admissionFacts(key(first))).toBeUndefined();
    await index.makeDurable(await index.createInstances([first], nothingToWaitFor));
    expect(await index.admissionFacts(key(first))).toEqual({ centerId: center.id, sha256: 'b'.repeat(64) });
    const other = row(center, study);
    expect(await index.admissionFacts(key(other))).toEqual({ centerId: center.id, sha256: null });
    const elsewhere = await newCenter();
    expect(await index.admissionFacts({ ...key(first), groupId: elsewhere.groupId })).toBeUndefined();
  });

  it('binds every value as a parameter: quotes, backslashes, SQL and non-Latin text read back exactly', async () => {
    const center = await newCenter();
    const study = nextUid();
    const awkward = `O'Brien\\x'); drop table studies; -- 山田^太郎 \\' $1 E'\\\\'`;
    const instance = row(center, study, {
      study: { ...row(center, study).study, patientName: awkward, studyDescription: "it's \\n" },
      seriesDescription: awkward,
      metadata: JSON.stringify({ '00100010': { vr: 'PN', Value: [{ Alphabetic: awkward }] } }),
    });
    await index.createInstances([instance], nothingToWaitFor);
    const saved = await studyOf(center, study);
    expect(saved).toMatchObject({ patientName: awkward, studyDescription: "it's \\n" });
    const [seriesRow] = await t.db.select().from(series).where(eq(series.studyId, saved!.id));
    expect(seriesRow?.seriesDescription).toBe(awkward);
    const [stored] = await t.db
      .select()
      .from(instances)
      .where(eq(instances.sopInstanceUid, instance.sopInstanceUid));
    expect(stored?.metadata).toEqual({ '00100010': { vr: 'PN', Value: [{ Alphabetic: awkward }] } });
    expect(stored?.frames).toEqual([[1000, 524288]]);
  });

  it('a re-sent instance keeps its first copy: SAME for the same bytes, KEPT_FIRST for others', async () => {
    const center = await newCenter();
    const study = nextUid();
    const first = row(center, study);
    await index.createInstances([first], nothingToWaitFor);
    const again = await index.createInstances(
      [
        { ...first, blobKey: `${first.blobKey}.2` },
        { ...first, blobKey: `${first.blobKey}.3`, sha256: 'b'.repeat(64) },
      ],
      nothingToWaitFor,
    );
    expect(again.outcomes.map((o) => o.disposition)).toEqual(['SAME', 'KEPT_FIRST']);
    const saved = await studyOf(center, study);
    expect(saved?.instanceCount).toBe(1);
    const [stored] = await t.db
      .select()
      .from(instances)
      .where(eq(instances.sopInstanceUid, first.sopInstanceUid));
    expect(stored?.blobKey).toBe(first.blobKey);
  });

  it("another center's study is refused and audited; nothing is attached", async () => {
    const owner = await newCenter();
    const other = await newCenter(owner.groupId);
    const study = nextUid();
    await index.createInstances([row(owner, study)], nothingToWaitFor);
    const intruder = row(other, study, {
      study: { ...row(other, study).study, patientName: 'Changed^Name' },
    });
    const batch = await index.createInstances([intruder], nothingToWaitFor);
    expect(batch.outcomes[0]).toMatchObject({ disposition: 'FOREIGN', reportStatusId: null });
    const saved = await studyOf(owner, study);
    expect(saved).toMatchObject({ instanceCount: 1, patientName: 'Rao^Anil', centerId: owner.id });
    const refusals = await t.db
      .select()
      .from(ingestRefusals)
      .where(eq(ingestRefusals.sopInstanceUid, intruder.sopInstanceUid));
    expect(refusals).toHaveLength(1);
    expect(refusals[0]).toMatchObject({ centerId: other.id, reason: 'FOREIGN_STUDY' });
  });

  it('commits only when beforeCommit resolves: a rejection rolls the whole batch back', async () => {
    const center = await newCenter();
    const study = nextUid();
    await expect(
      index.createInstances([row(center, study), row(center, study)], () =>
        Promise.reject(new Error('disk full')),
      ),
    ).rejects.toThrow('disk full');
    expect(await studyOf(center, study)).toBeUndefined();
  });

  it('one failing row rolls its batch back: nothing of it is committed', async () => {
    const center = await newCenter();
    const study = nextUid();
    await expect(
      index.createInstances(
        [row(center, study), row(center, study, { metadata: 'not json' })],
        nothingToWaitFor,
      ),
    ).rejects.toThrow(/json/i);
    expect(await studyOf(center, study)).toBeUndefined();
    // The index is usable afterwards.
    const batch = await index.createInstances([row(center, study)], nothingToWaitFor);
    expect(batch.outcomes[0]?.disposition).toBe('STORED');
  });

  it('plans its statements once per session, not once per instance', async () => {
    // A custom plan per execution cost the study statement ~0.7 ms of PGlite's CPU per instance
    // (ARCHIVE.md "index write"). On PostgreSQL a pool of one connection, so that the session
    // asked is the one that ran them.
    const pool = process.env.DATABASE_URL
      ? new pg.Pool({ ...(t.db as unknown as { $client: pg.Pool }).$client.options, max: 1 })
      : undefined;
    try {
      const session = pool ? new PostgresInstanceIndex(pool) : index;
      const center = await newCenter();
      const study = nextUid();
      for (let i = 0; i < 8; i++)
        await session.makeDurable(await session.createInstances([row(center, study)], nothingToWaitFor));
      const plans = `select name, custom_plans::integer as custom, generic_plans::integer as generic
        from pg_prepared_statements where name in ('radflow_index_study', 'radflow_index_instance')
        order by name`;
      const found = pool
        ? (await pool.query<{ name: string; custom: number; generic: number }>(plans)).rows
        : (
            (await t.db.execute(sql.raw(plans))) as unknown as {
              rows: Array<{ name: string; custom: number; generic: number }>;
            }
          ).rows;
      expect(found.map((p) => [p.name, p.custom, p.generic >= 8])).toEqual([
        ['radflow_index_instance', 0, true],
        ['radflow_index_study', 0, true],
      ]);
    } finally {
      await pool?.end();
    }
  });

  describe('sent for a report row (the upload-study action)', () => {
    it('an imageless row is repointed to the instance study, whose empty study is removed', async () => {
      const center = await newCenter();
      const target = await imagelessRow(center);
      const study = nextUid();
      const batch = await index.createInstances(
        [row(center, study, { reportStatusId: target.reportStatusId, actorUserId: null, callingAet: null })],
        nothingToWaitFor,
      );
      const saved = await studyOf(center, study);
      expect(batch.outcomes[0]).toEqual({
        disposition: 'STORED',
        studyId: saved!.id,
        reportStatusId: target.reportStatusId,
        joinedExisting: false,
      });
      const [report] = await t.db
        .select()
        .from(reportStatuses)
        .where(eq(reportStatuses.id, target.reportStatusId));
      expect(report?.studyId).toBe(saved!.id);
      expect(await t.db.select().from(studies).where(eq(studies.id, target.studyId))).toHaveLength(0);
      const events = await t.db
        .select()
        .from(studyEvents)
        .where(eq(studyEvents.reportStatusId, target.reportStatusId));
      expect(events.map((e) => [e.eventType, e.detail])).toEqual([
        ['IMAGES_ATTACHED', { fromStudyId: target.studyId, toStudyId: saved!.id, studyInstanceUid: study }],
      ]);
      // No second row for the study.
      expect(
        await t.db.select().from(reportStatuses).where(eq(reportStatuses.studyId, saved!.id)),
      ).toHaveLength(1);
    });

    it('files of a study that has a row join that row; the row sent for keeps its own study', async () => {
      const center = await newCenter();
      const study = nextUid();
      const first = await index.createInstances([row(center, study)], nothingToWaitFor);
      const target = await imagelessRow(center);
      const batch = await index.createInstances(
        [row(center, study, { reportStatusId: target.reportStatusId })],
        nothingToWaitFor,
      );
      expect(batch.outcomes[0]).toMatchObject({
        disposition: 'STORED',
        reportStatusId: first.outcomes[0]!.reportStatusId,
        joinedExisting: true,
      });
      const [report] = await t.db
        .select()
        .from(reportStatuses)
        .where(eq(reportStatuses.id, target.reportStatusId));
      expect(report?.studyId).toBe(target.studyId);
      expect((await studyOf(center, study))?.instanceCount).toBe(2);
    });

    it('a row of another group, or of another study with images, takes nothing and nothing is written', async () => {
      const center = await newCenter();
      const stranger = await newCenter();
      const foreignRow = await imagelessRow(stranger);
      const filled = nextUid();
      const { outcomes } = await index.createInstances([row(center, filled)], nothingToWaitFor);
      const study = nextUid();
      const batch = await index.createInstances(
        [
          row(center, study, { reportStatusId: foreignRow.reportStatusId }),
          row(center, study, { reportStatusId: outcomes[0]!.reportStatusId }),
          row(center, filled, { reportStatusId: outcomes[0]!.reportStatusId }),
        ],
        nothingToWaitFor,
      );
      expect(batch.outcomes.map((o) => o.disposition)).toEqual(['NO_SUCH_REPORT', 'OTHER_STUDY', 'STORED']);
      expect(batch.outcomes[0]).toMatchObject({ studyId: null, reportStatusId: null });
      expect(await studyOf(center, study)).toBeUndefined();
      expect((await studyOf(center, filled))?.instanceCount).toBe(2);
    });
  });
});
