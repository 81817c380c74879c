import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import yazl from 'yazl';
import { UPLOAD_MAX_FILES_PER_REQUEST } from '@radflow/core';
import { reportStatuses, studies, studyEvents } from '../../db/schema.js';
import { type TestApp, createTestApp } from '../../../test/test-app.js';
import { LIVER, corpus, readFixture } from '../../../test/archive/fixtures.js';
import { createArchiveWorld, formBody } from '../../../test/archive/helpers.js';

let t: TestApp;
let world: Awaited<ReturnType<typeof createArchiveWorld>>;
beforeAll(async () => {
  t = await createTestApp();
  world = await createArchiveWorld(t);
});
afterAll(() => t.close());

type Client = typeof world.center.client;

function upload(
  client: Client,
  fields: Record<string, string>,
  files: Array<{ name: string; bytes: Uint8Array }>,
) {
  const { payload, contentType } = formBody(fields, files);
  return client.request({
    method: 'POST',
    url: '/api/dicom-web/upload',
    payload,
    headers: { 'content-type': contentType },
  });
}

async function makeZip(
  entries: Array<{ name: string; bytes: Uint8Array; store?: boolean }>,
): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  for (const e of entries) zip.addBuffer(Buffer.from(e.bytes), e.name, { compress: !e.store });
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

const validCreate = (center: number) => ({
  patientName: 'Asha Rao',
  uhid: 'UH-1',
  labModality: 'CT',
  patientAge: '42Y',
  patientSex: 'F',
  center,
  studyName: 'CT Abdomen',
  history: 'pain',
  invoiceNumber: 'INV-9',
});

describe('browser upload', () => {
  it('stores DICOM files and zip entries, refusing non-DICOM ones by name', async () => {
    const zip = await makeZip([
      { name: 'liver/ct_liver_02.dcm', bytes: readFixture(LIVER[1]!) },
      { name: 'liver/ct_liver_03.dcm', bytes: readFixture(LIVER[2]!), store: true },
      { name: 'liver/readme.txt', bytes: Buffer.from('not an image') },
      { name: 'liver/seg.dcm', bytes: readFixture(LIVER[3]!) },
    ]);
    const res = await upload(world.center.client, {}, [
      { name: 'ct_liver_01.dcm', bytes: readFixture(LIVER[0]!) },
      { name: 'study.zip', bytes: zip },
      { name: 'photo.jpg', bytes: readFixture('bad/not_dicom_jpeg.dcm') },
    ]);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ stored: 4, failed: 2 });
    expect(body.reportStatusIds).toHaveLength(1);
    const refused = body.files
      .filter((f: { ok: boolean }) => !f.ok)
      .map((f: { fileName: string }) => f.fileName);
    expect(refused).toEqual(['study.zip/liver/readme.txt', 'photo.jpg']);
    expect(body.files.find((f: { fileName: string }) => f.fileName === 'photo.jpg').reason).toMatch(
      /not dicom/i,
    );
    const [report] = await t.db
      .select()
      .from(reportStatuses)
      .where(eq(reportStatuses.id, body.reportStatusIds[0]));
    expect(report!.centerId).toBe(world.centerA.id);
    const [study] = await t.db.select().from(studies).where(eq(studies.id, report!.studyId));
    expect(study).toMatchObject({ seriesCount: 2, instanceCount: 4 });
  });

  it('roles and limits: doctor 403, foreign center 403, group user needs a center, too many files 413', async () => {
    const file = [{ name: 'a.dcm', bytes: readFixture(LIVER[0]!) }];
    expect((await upload(world.doctor.client, {}, file)).statusCode).toBe(403);
    expect((await upload(world.center.client, { centerId: String(world.centerB.id) }, file)).statusCode).toBe(
      403,
    );
    const noCenter = await upload(world.admin.client, {}, file);
    expect(noCenter.statusCode).toBe(400);
    expect(noCenter.json().additionalInfo).toBe('centerId');
    expect((await upload(world.admin.client, { centerId: String(world.centerB.id) }, file)).statusCode).toBe(
      200,
    );
    const many = Array.from({ length: UPLOAD_MAX_FILES_PER_REQUEST + 1 }, (_, i) => ({
      name: `${i}.txt`,
      bytes: Buffer.from('x'),
    }));
    const tooMany = await upload(world.center.client, {}, many);
    expect(tooMany.statusCode).toBe(413);
    expect(tooMany.json().errorDescription).toMatch(/UPLOAD_MAX_FILES_PER_REQUEST/);
    expect((await upload(world.center.client, {}, [])).statusCode).toBe(400);
  });
});

describe('Create Study, then the upload-study action', () => {
  it('answers 400 naming the field for each validation failure', async () => {
    const base = validCreate(world.centerA.id);
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ ...base, patientName: '' }, 'patientName'],
      [{ ...base, labModality: 'XX' }, 'labModality'],
      [{ ...base, patientAge: '' }, 'patientAge'],
      [{ ...base, patientAge: '12345678901' }, 'patientAge'],
      [{ ...base, patientSex: undefined }, 'patientSex'],
      [{ ...base, studyName: ' ' }, 'studyName'],
      [{ ...base, center: undefined }, 'center'],
      [{ ...base, uhid: 'x'.repeat(21) }, 'uhid'],
      [{ ...base, studyInstanceUID: 'abc' }, 'studyInstanceUID'],
    ];
    for (const [payload, field] of cases) {
      const res = await world.center.client.post('/api/dicom-web/study/create-from-website', payload);
      expect(res.statusCode, field).toBe(400);
      expect(res.json().additionalInfo, field).toBe(field);
    }
  });

  it('roles: doctor 403; a center user always gets their own center; a group user must name one of the group', async () => {
    expect(
      (
        await world.doctor.client.post(
          '/api/dicom-web/study/create-from-website',
          validCreate(world.centerA.id),
        )
      ).statusCode,
    ).toBe(403);
    const own = await world.center.client.post(
      '/api/dicom-web/study/create-from-website',
      validCreate(world.centerB.id),
    );
    expect(own.statusCode).toBe(200);
    const [row] = await t.db.select().from(reportStatuses).where(eq(reportStatuses.id, own.json().id));
    expect(row!.centerId).toBe(world.centerA.id);
    const other = await world.admin.client.post(
      '/api/dicom-web/study/create-from-website',
      validCreate(999_999),
    );
    expect(other.statusCode).toBe(403);
    const ok = await world.admin.client.post(
      '/api/dicom-web/study/create-from-website',
      validCreate(world.centerB.id),
    );
    expect(ok.statusCode).toBe(200);
    expect(ok.json().studyInstanceUID).toMatch(/^2\.25\.\d+$/);
  });

  it('creates the study and its report row, then attaches uploaded images to that same row', async () => {
    const world = await createArchiveWorld(t);
    const created = await world.center.client.post(
      '/api/dicom-web/study/create-from-website',
      validCreate(world.centerA.id),
    );
    expect(created.statusCode).toBe(200);
    const { id, studyInstanceUID, apiVersion } = created.json();
    expect(apiVersion).toBe(2);
    const [row] = await t.db.select().from(reportStatuses).where(eq(reportStatuses.id, id));
    expect(row).toMatchObject({
      status: 'CREATED',
      createdFromWebsite: true,
      uhid: 'UH-1',
      invoiceNumber: 'INV-9',
      studyName: 'CT Abdomen',
      history: 'pain',
    });
    const [study] = await t.db.select().from(studies).where(eq(studies.id, row!.studyId));
    expect(study).toMatchObject({
      studyInstanceUid: studyInstanceUID,
      patientName: 'Asha Rao',
      modalities: ['CT'],
      instanceCount: 0,
    });

    // The upload-study action: the images (of another UID) join this report row.
    const res = await upload(world.center.client, { reportStatusId: String(id) }, [
      { name: '1.dcm', bytes: readFixture(LIVER[0]!) },
      { name: '2.dcm', bytes: readFixture(LIVER[1]!) },
    ]);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ stored: 2, reportStatusIds: [id] });
    const [after] = await t.db.select().from(reportStatuses).where(eq(reportStatuses.id, id));
    const liverUid = corpus.find((f) => f.path === LIVER[0])!.study_instance_uid!;
    const [newStudy] = await t.db.select().from(studies).where(eq(studies.id, after!.studyId));
    expect(newStudy).toMatchObject({ studyInstanceUid: liverUid, instanceCount: 2 });
    expect(
      await t.db.select().from(reportStatuses).where(eq(reportStatuses.studyId, after!.studyId)),
    ).toHaveLength(1);
    // The imageless study is gone; the timeline tells.
    expect(await t.db.select().from(studies).where(eq(studies.id, row!.studyId))).toHaveLength(0);
    const events = await t.db.select().from(studyEvents).where(eq(studyEvents.reportStatusId, id));
    expect(events.map((e) => e.eventType)).toEqual(['STUDY_CREATED', 'IMAGES_ATTACHED']);

    // Images of yet another study are refused for this row now that it holds images.
    const wrong = await upload(world.center.client, { reportStatusId: String(id) }, [
      { name: 'mr.dcm', bytes: readFixture('mr/mr_small_64x64_explicit_le.dcm') },
    ]);
    expect(wrong.json()).toMatchObject({ stored: 0, failed: 1 });
    // Another center's user cannot attach to it.
    expect(
      (
        await upload(world.admin.client, { reportStatusId: '999999' }, [
          { name: 'a.dcm', bytes: readFixture(LIVER[2]!) },
        ])
      ).statusCode,
    ).toBe(404);
  });

  it('GET /api/centers: a center user sees their own, a group user the group', async () => {
    const mine = (await world.center.client.get('/api/centers')).json();
    expect(mine.map((c: { id: number }) => c.id)).toEqual([world.centerA.id]);
    const group = (await world.admin.client.get('/api/centers')).json();
    expect(group.map((c: { id: number }) => c.id).sort()).toEqual(
      [world.centerA.id, world.centerB.id].sort(),
    );
  });
});
