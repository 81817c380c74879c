import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { instances, reportStatuses, series, studies, studyEvents } from '../../db/schema.js';
import { ingestInstance } from './ingest.js';
import { type TestApp, createTestApp, createTestCenter, createTestGroup } from '../../../test/test-app.js';
import { LIVER, STORABLE, corpus, fixturePath, readFixture } from '../../../test/archive/fixtures.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

async function newCenter() {
  const group = await createTestGroup(t.db);
  return createTestCenter(t.db, { groupId: group.id });
}

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

describe('ingestInstance over the sample corpus', () => {
  it('stores every readable file byte-for-byte and refuses every invalid one with a reason', async () => {
    const center = await newCenter();
    // Some files are other encodings of one SOP instance: the first stored copy stays (DECISIONS.md
    // "instance ownership"), a later one is answered keptFirst.
    const firstSha = new Map<string, string>();
    for (const file of corpus) {
      const result = await ingestInstance(
        t.app.ctx,
        { filePath: fixturePath(file.path) },
        {
          centerId: center.id,
          source: 'UPLOAD',
        },
      );
      if (STORABLE.has(file.expected)) {
        expect(result, file.path).toMatchObject({ ok: true });
        if (!result.ok) continue;
        const [row] = await t.db
          .select()
          .from(instances)
          .where(
            and(eq(instances.studyId, result.studyId), eq(instances.sopInstanceUid, result.sopInstanceUid)),
          );
        expect(row, file.path).toBeDefined();
        const key = `${result.studyInstanceUid}/${result.sopInstanceUid}`;
        const expected = firstSha.get(key) ?? file.sha256;
        firstSha.set(key, expected);
        expect(result.keptFirst, file.path).toBe(expected !== file.sha256);
        const stored = await t.blobs.read(row!.blobKey);
        expect(sha256(stored), file.path).toBe(expected);
        expect(row!.sha256).toBe(expected);
      } else {
        expect(result, file.path).toMatchObject({ ok: false });
        if (result.ok) continue;
        expect(result.reason.length, file.path).toBeGreaterThan(5);
        expect(['NOT_DICOM', 'INVALID']).toContain(result.failureCode);
      }
    }
    // The fixture files are copied, never moved.
    expect(readFixture(LIVER[0]!).length).toBeGreaterThan(0);
  });
});

describe('one study from several instances', () => {
  it('the liver study (3 CT + SEG) is one study with 2 series, counts and one report row', async () => {
    const center = await newCenter();
    const results = [];
    for (const file of LIVER) {
      results.push(
        await ingestInstance(
          t.app.ctx,
          { bytes: readFixture(file) },
          { centerId: center.id, source: 'STOW' },
        ),
      );
    }
    expect(results.every((r) => r.ok && !r.duplicate)).toBe(true);
    const studyId = results[0]!.ok ? results[0]!.studyId : 0;
    const [study] = await t.db.select().from(studies).where(eq(studies.id, studyId));
    expect(study).toMatchObject({
      seriesCount: 2,
      instanceCount: 4,
      centerId: center.id,
      modalities: ['CT', 'SEG'],
    });
    const total = LIVER.reduce((n, f) => n + readFixture(f).length, 0);
    expect(study!.sizeBytes).toBe(total);
    const seriesRows = await t.db.select().from(series).where(eq(series.studyId, studyId));
    expect(seriesRows.map((s) => s.instanceCount).sort()).toEqual([1, 3]);
    const reports = await t.db.select().from(reportStatuses).where(eq(reportStatuses.studyId, studyId));
    expect(reports).toHaveLength(1);
    expect(reports[0]).toMatchObject({ status: 'CREATED', groupId: center.groupId, centerId: center.id });
    const events = await t.db
      .select()
      .from(studyEvents)
      .where(eq(studyEvents.reportStatusId, reports[0]!.id));
    expect(events.map((e) => e.eventType)).toEqual(['STUDY_CREATED']);

    // Re-sending is idempotent: acknowledged as duplicate, counts unchanged.
    const again = await ingestInstance(
      t.app.ctx,
      { bytes: readFixture(LIVER[1]!) },
      { centerId: center.id, source: 'DIMSE' },
    );
    expect(again).toMatchObject({ ok: true, duplicate: true, studyId });
    const [after] = await t.db.select().from(studies).where(eq(studies.id, studyId));
    expect(after).toMatchObject({ seriesCount: 2, instanceCount: 4, sizeBytes: total });
  });

  it('concurrent ingests of one new study end with one study and one report row', async () => {
    const center = await newCenter();
    const files = [...LIVER, ...LIVER];
    const results = await Promise.all(
      files.map((f) =>
        ingestInstance(t.app.ctx, { bytes: readFixture(f) }, { centerId: center.id, source: 'STOW' }),
      ),
    );
    expect(results.every((r) => r.ok)).toBe(true);
    expect(results.filter((r) => r.ok && r.duplicate)).toHaveLength(4);
    const ids = new Set(results.map((r) => (r.ok ? r.studyId : 0)));
    expect(ids.size).toBe(1);
    const [studyId] = [...ids];
    const [study] = await t.db.select().from(studies).where(eq(studies.id, studyId!));
    expect(study).toMatchObject({ seriesCount: 2, instanceCount: 4 });
    const reports = await t.db.select().from(reportStatuses).where(eq(reportStatuses.studyId, studyId!));
    expect(reports).toHaveLength(1);
  });

  it('a re-sent instance naming another series keeps its first copy; nothing moves or is counted twice', async () => {
    const center = await newCenter();
    const original = readFixture(LIVER[0]!);
    const first = await ingestInstance(
      t.app.ctx,
      { bytes: original },
      { centerId: center.id, source: 'STOW' },
    );
    if (!first.ok) throw new Error(first.reason);
    // The same instance with another Series Instance UID of the same length (last digit changed).
    const bytes = Buffer.from(original);
    const uid = Buffer.from(first.seriesInstanceUid, 'latin1');
    const at = bytes.indexOf(uid);
    expect(at).toBeGreaterThan(0);
    expect(bytes.indexOf(uid, at + 1)).toBe(-1);
    const last = at + uid.length - 1;
    bytes[last] = bytes[last] === 0x31 ? 0x32 : 0x31;
    const again = await ingestInstance(t.app.ctx, { bytes }, { centerId: center.id, source: 'STOW' });
    if (!again.ok) throw new Error(again.reason);
    expect(again).toMatchObject({
      duplicate: true,
      keptFirst: true,
      studyId: first.studyId,
      sopInstanceUid: first.sopInstanceUid,
    });

    const rows = await t.db.select().from(series).where(eq(series.studyId, first.studyId));
    expect(rows.map((r) => [r.seriesInstanceUid, r.instanceCount])).toEqual([[first.seriesInstanceUid, 1]]);
    const [study] = await t.db.select().from(studies).where(eq(studies.id, first.studyId));
    expect(study).toMatchObject({ instanceCount: 1, seriesCount: 1, sizeBytes: original.length });
    const stored = await t.db.select().from(instances).where(eq(instances.studyId, first.studyId));
    expect(stored).toHaveLength(1);
    expect(sha256(await t.blobs.read(stored[0]!.blobKey))).toBe(sha256(original));
  });

  it('fills worklist fields, PS3.18 metadata with BulkDataURIs and frame ranges', async () => {
    const center = await newCenter();
    const result = await ingestInstance(
      t.app.ctx,
      { bytes: readFixture('transfer_syntax/ct_explicit_vr_le.dcm') },
      { centerId: center.id, source: 'STOW' },
    );
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const [row] = await t.db
      .select()
      .from(instances)
      .where(and(eq(instances.studyId, result.studyId), eq(instances.sopInstanceUid, result.sopInstanceUid)));
    const metadata = row!.metadata as Record<string, { BulkDataURI?: string }>;
    expect(metadata['7FE00010']?.BulkDataURI).toBe(
      `/api/dicomweb/studies/${result.studyInstanceUid}/series/${result.seriesInstanceUid}/instances/${result.sopInstanceUid}/bulk/7FE00010`,
    );
    expect(row!.frames).toHaveLength(1);
    const [offset, length] = row!.frames![0]!;
    const bytes = readFixture('transfer_syntax/ct_explicit_vr_le.dcm');
    expect(offset + length).toBeLessThanOrEqual(bytes.length);
    expect(length).toBe((row!.rows ?? 0) * (row!.columns ?? 0) * 2);
    const [study] = await t.db.select().from(studies).where(eq(studies.id, result.studyId));
    expect(study!.patientName).not.toBe('');
    expect(study!.modalities).toEqual(['CT']);
  });

  it('refuses a center that does not exist without storing anything', async () => {
    const result = await ingestInstance(
      t.app.ctx,
      { bytes: readFixture(LIVER[0]!) },
      { centerId: 999_999, source: 'STOW' },
    );
    expect(result).toMatchObject({ ok: false, failureCode: 'REFUSED' });
  });
});
