import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, isNull } from 'drizzle-orm';
import yazl from 'yazl';
import { reportStatuses, studies, studyEvents } from '../../db/schema.js';
import { type TestApp, createTestApp } from '../../../test/test-app.js';
import { LIVER, corpus, readFixture } from '../../../test/archive/fixtures.js';
import { createArchiveWorld, formBody, stowBody } from '../../../test/archive/helpers.js';

/**
 * Issue 21 §3: one worklist row per study per center (a split aside), whichever way the study's
 * files come: Create Study with files, browser upload, zip, STOW-RS, C-STORE; also two at once.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

type World = Awaited<ReturnType<typeof createArchiveWorld>>;
type Client = World['center']['client'];

const uidOf = (fixture: string) => corpus.find((f) => f.path === fixture)!.study_instance_uid!;
const LIVER_UID = uidOf(LIVER[0]!);
/** A secondary capture: its header says OT. */
const SC = 'special/sc_rgb_odd_3x3.dcm';
const MR = 'mr/mr_small_64x64_explicit_le.dcm';

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

const files = (...fixtures: string[]) =>
  fixtures.map((f) => ({ name: f.split('/').pop()!, bytes: readFixture(f) }));

const typed = (center: number, extra: Record<string, unknown> = {}) => ({
  patientName: 'Typed Name',
  labModality: 'MR',
  patientAge: '42Y',
  patientSex: 'F',
  center,
  studyName: 'Typed study',
  ...extra,
});

const createStudy = (client: Client, body: Record<string, unknown>) =>
  client.post('/api/dicom-web/study/create-from-website', body);

/** The rows (splits aside) of the group's study with this UID. */
async function rowsOf(world: World, studyInstanceUid: string) {
  return t.db
    .select({
      id: reportStatuses.id,
      patientName: reportStatuses.patientName,
      studyName: reportStatuses.studyName,
      centerId: reportStatuses.centerId,
    })
    .from(reportStatuses)
    .innerJoin(studies, eq(studies.id, reportStatuses.studyId))
    .where(
      and(
        eq(studies.groupId, world.group.id),
        eq(studies.studyInstanceUid, studyInstanceUid),
        isNull(reportStatuses.splitFromReportStatusId),
      ),
    );
}

async function makeZip(entries: Array<{ name: string; bytes: Uint8Array }>): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  for (const e of entries) zip.addBuffer(Buffer.from(e.bytes), e.name);
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

describe('files of a study that already has a row', () => {
  it('through Create Study (a new row, then its files): the files join the existing row, which keeps its identity', async () => {
    const world = await createArchiveWorld(t);
    const first = await upload(world.center.client, {}, files(LIVER[0]!));
    expect(first.statusCode, first.body).toBe(200);
    const [existing] = first.json().reportStatusIds as number[];

    const created = await createStudy(world.center.client, typed(world.centerA.id));
    expect(created.statusCode, created.body).toBe(200);
    const placeholder = created.json().id as number;
    const res = await upload(world.center.client, { reportStatusId: String(placeholder) }, files(LIVER[1]!));
    expect(res.statusCode, res.body).toBe(200);

    expect(await rowsOf(world, LIVER_UID)).toEqual([
      expect.objectContaining({ id: existing, patientName: 'JANCT000' }),
    ]);
    expect(res.json()).toMatchObject({ stored: 1, reportStatusIds: [existing] });
    expect(res.json().files[0].reason).toBe(
      `Joined the existing study (row ${existing}): its details were kept`,
    );
    // The new row keeps its own imageless study: it never pointed at the existing one.
    const [row] = await t.db.select().from(reportStatuses).where(eq(reportStatuses.id, placeholder));
    const [own] = await t.db.select().from(studies).where(eq(studies.id, row!.studyId));
    expect(own).toMatchObject({ instanceCount: 0 });
    expect(own!.studyInstanceUid).not.toBe(LIVER_UID);
  });

  it('Create Study naming the UID: joinExisting answers the existing row unchanged; without it 409; another center 409', async () => {
    const world = await createArchiveWorld(t);
    const first = await upload(world.center.client, {}, files(LIVER[0]!));
    const [existing] = first.json().reportStatusIds as number[];

    const joined = await createStudy(
      world.center.client,
      typed(world.centerA.id, { studyInstanceUID: LIVER_UID, joinExisting: true }),
    );
    expect(joined.statusCode, joined.body).toBe(200);
    expect(joined.json()).toMatchObject({ id: existing, studyInstanceUID: LIVER_UID, joinedExisting: true });
    expect(await rowsOf(world, LIVER_UID)).toEqual([
      expect.objectContaining({ id: existing, patientName: 'JANCT000', studyName: '' }),
    ]);
    const [study] = await t.db
      .select()
      .from(studies)
      .where(and(eq(studies.groupId, world.group.id), eq(studies.studyInstanceUid, LIVER_UID)));
    expect(study).toMatchObject({ patientName: 'JANCT000', modalities: ['CT'] });

    const plain = await createStudy(
      world.center.client,
      typed(world.centerA.id, { studyInstanceUID: LIVER_UID }),
    );
    expect(plain.statusCode).toBe(409);

    const foreign = await createStudy(
      world.admin.client,
      typed(world.centerB.id, { studyInstanceUID: LIVER_UID, joinExisting: true }),
    );
    expect(foreign.statusCode).toBe(409);
    expect(await rowsOf(world, LIVER_UID)).toHaveLength(1);
  });

  it('a browser upload, a STOW-RS request and a zip of the same study all land on its one row', async () => {
    const world = await createArchiveWorld(t);
    const created = await createStudy(
      world.center.client,
      typed(world.centerA.id, { studyInstanceUID: LIVER_UID, joinExisting: true }),
    );
    expect(created.json()).toMatchObject({ joinedExisting: false });
    const id = created.json().id as number;
    const plain = await upload(world.center.client, {}, files(LIVER[0]!));
    const zip = await upload(world.center.client, {}, [
      { name: 'liver.zip', bytes: await makeZip(files(LIVER[1]!, LIVER[2]!)) },
    ]);
    const stow = stowBody([readFixture(LIVER[3]!)]);
    const stowed = await world.center.client.request({
      method: 'POST',
      url: '/api/dicomweb/studies',
      payload: stow.payload,
      headers: { 'content-type': stow.contentType },
    });
    expect(stowed.statusCode, stowed.body).toBe(200);
    expect(plain.json().reportStatusIds).toEqual([id]);
    expect(zip.json().reportStatusIds).toEqual([id]);
    const [study] = await t.db
      .select()
      .from(studies)
      .where(and(eq(studies.groupId, world.group.id), eq(studies.studyInstanceUid, LIVER_UID)));
    expect(study).toMatchObject({ instanceCount: 4 });
    expect(await rowsOf(world, LIVER_UID)).toEqual([
      expect.objectContaining({ id, patientName: 'Typed Name' }),
    ]);
  });
});

describe('a folder or zip of several studies', () => {
  it('makes one row per study, and a study already there keeps its row', async () => {
    const world = await createArchiveWorld(t);
    const first = await upload(world.center.client, {}, files(MR));
    const [mrRow] = first.json().reportStatusIds as number[];
    const zip = await makeZip(files(LIVER[0]!, LIVER[1]!, MR, SC));
    const res = await upload(world.center.client, {}, [{ name: 'three.zip', bytes: zip }]);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().stored).toBe(4);
    expect(res.json().reportStatusIds).toHaveLength(3);
    expect(res.json().reportStatusIds).toContain(mrRow);
    for (const uid of [LIVER_UID, uidOf(MR), uidOf(SC)]) expect(await rowsOf(world, uid)).toHaveLength(1);
  });
});

describe('two at once', () => {
  it('two Create Studies of the same new study, and two uploads of its files, make one row', async () => {
    const world = await createArchiveWorld(t);
    const body = typed(world.centerA.id, { studyInstanceUID: LIVER_UID, joinExisting: true });
    const [a, b] = await Promise.all([
      createStudy(world.center.client, body),
      createStudy(world.center.client, body),
    ]);
    expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
    expect(a.json().id).toBe(b.json().id);
    expect([a.json().joinedExisting, b.json().joinedExisting].sort()).toEqual([false, true]);
    const id = a.json().id as number;
    const [u1, u2] = await Promise.all([
      upload(world.center.client, { reportStatusId: String(id) }, files(LIVER[0]!, LIVER[1]!)),
      upload(world.center.client, { reportStatusId: String(id) }, files(LIVER[1]!, LIVER[2]!)),
    ]);
    expect(u1.json().reportStatusIds).toEqual([id]);
    expect(u2.json().reportStatusIds).toEqual([id]);
    expect(await rowsOf(world, LIVER_UID)).toHaveLength(1);
  });

  it('two Create Studies (new rows) whose files are the same new study, uploaded at once, make one row', async () => {
    const world = await createArchiveWorld(t);
    const [a, b] = await Promise.all([
      createStudy(world.center.client, typed(world.centerA.id)),
      createStudy(world.center.client, typed(world.centerA.id, { patientName: 'Other Name' })),
    ]);
    const [u1, u2, u3] = await Promise.all([
      upload(world.center.client, { reportStatusId: String(a.json().id) }, files(LIVER[0]!)),
      upload(world.center.client, { reportStatusId: String(b.json().id) }, files(LIVER[1]!)),
      upload(world.center.client, {}, files(LIVER[2]!)),
    ]);
    for (const res of [u1, u2, u3]) expect(res.json().stored, res.body).toBe(1);
    const rows = await rowsOf(world, LIVER_UID);
    expect(rows).toHaveLength(1);
    for (const res of [u1, u2, u3]) expect(res.json().reportStatusIds).toEqual([rows[0]!.id]);
  });

  it('the database refuses a second row for a study; a split child is allowed', async () => {
    const world = await createArchiveWorld(t);
    const created = await createStudy(world.center.client, typed(world.centerA.id));
    const [row] = await t.db.select().from(reportStatuses).where(eq(reportStatuses.id, created.json().id));
    const base = { studyId: row!.studyId, groupId: world.group.id, centerId: world.centerA.id };
    await expect(t.db.insert(reportStatuses).values(base)).rejects.toThrow();
    await t.db.insert(reportStatuses).values({ ...base, splitFromReportStatusId: row!.id });
  });
});

describe('the typed details stay', () => {
  it("Create Study with the header's UID: the typed name, study name and modality (MR over the header's OT) are the row's", async () => {
    const world = await createArchiveWorld(t);
    const created = await createStudy(
      world.center.client,
      typed(world.centerA.id, { studyInstanceUID: uidOf(SC), joinExisting: true }),
    );
    const id = created.json().id as number;
    const res = await upload(world.center.client, { reportStatusId: String(id) }, files(SC));
    expect(res.json()).toMatchObject({ stored: 1, reportStatusIds: [id] });
    const detail = await world.center.client.get(`/api/report-status/id/${id}`);
    expect(detail.statusCode, detail.body).toBe(200);
    expect(detail.json()).toMatchObject({
      patientName: 'Typed Name',
      studyName: 'Typed study',
      modality: 'MR',
      patientAge: '42Y',
      patientSex: 'F',
    });
    const events = await t.db.select().from(studyEvents).where(eq(studyEvents.reportStatusId, id));
    expect(events.map((e) => e.eventType)).toEqual(['STUDY_CREATED']);
  });

  it("Create Study without a UID, then its files (the row takes the files' study): the typed modality stays", async () => {
    const world = await createArchiveWorld(t);
    const created = await createStudy(world.center.client, typed(world.centerA.id));
    const id = created.json().id as number;
    const res = await upload(world.center.client, { reportStatusId: String(id) }, files(SC));
    expect(res.json()).toMatchObject({ stored: 1, reportStatusIds: [id] });
    const detail = await world.center.client.get(`/api/report-status/id/${id}`);
    expect(detail.json()).toMatchObject({ patientName: 'Typed Name', modality: 'MR' });
  });
});
