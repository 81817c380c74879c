import { createHash } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import type { TStudyEvent, TStudyListPage } from '@radflow/core';
import { runStorescu } from '@radflow/dicom/test-support';
import { parseInstance } from '@radflow/dicom/ingest';
import { instances, reportStatuses, reports, studies } from '../../db/schema.js';
import type { DicomServices } from './dicom-services.js';
import { reportingCalls, saved } from '../../../test/reporting.fixtures.js';
import type { TestClient } from '../../../test/test-app.js';
import { type TestApp, createTestApp, signIn } from '../../../test/test-app.js';
import { list } from '../../../test/worklist-test-data.js';
import { LIVER, corpus, readFixture } from '../../../test/archive/fixtures.js';
import {
  createArchiveWorldWithAeTitles,
  formBody,
  stowBody,
  startTestDicomPort,
} from '../../../test/archive/helpers.js';

/*
 * A study belongs to the center that first stored it (archive DECISIONS.md "instance ownership"):
 * another center of the group can neither replace one of its instances nor add one, by any way in;
 * the center itself cannot replace an instance by re-sending it (the first version is kept).
 */

let t: TestApp;
let dicom: DicomServices;
let tmp: string;
beforeAll(async () => {
  t = await createTestApp();
  dicom = await startTestDicomPort(t);
  tmp = await mkdtemp(path.join(os.tmpdir(), 'ownership-'));
});
afterAll(async () => {
  await dicom?.close();
  await t.close();
  await rm(tmp, { recursive: true, force: true });
});

const { lock, signOff, readReports, addendum: addendumOf } = reportingCalls(() => t);
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const seq = (body: Record<string, { Value?: unknown[] }>, tag: string) =>
  (body[tag]?.Value ?? []) as Array<Record<string, { Value?: unknown[] }>>;
const LIVER_UID = corpus.find((f) => f.path === LIVER[0])!.study_instance_uid!;
const TAMPERED = 'TAMPERED^BY^CENTERB';

/** The file with its Patient Name overwritten in place (same length), so its bytes and metadata differ. */
function tampered(bytes: Uint8Array): Uint8Array {
  const name = parseInstance(bytes).index.patientName!;
  const out = Buffer.from(bytes);
  const at = out.indexOf(Buffer.from(name, 'latin1'));
  expect(at).toBeGreaterThan(0);
  out.write(TAMPERED.slice(0, name.length).padEnd(name.length, ' '), at, 'latin1');
  return new Uint8Array(out);
}

/** Two centers of one group, their users, and an AE title for each center. */
async function twoCenters() {
  const world = await createArchiveWorldWithAeTitles(t);
  const { user: userB, browser: centerB } = await signIn(t, {
    roles: ['ROLE_CENTER'],
    groupId: world.group.id,
    centerId: world.centerB.id,
  });
  return { ...world, centerBUser: { user: userB, client: centerB } };
}

function stow(client: TestClient, parts: Uint8Array[], url = '/api/dicomweb/studies') {
  const { payload, contentType } = stowBody(parts);
  return client.request({ method: 'POST', url, payload, headers: { 'content-type': contentType } });
}

/** storescu of one file (debug output: the response's status and Error Comment are printed). */
async function cStore(callingAet: string, bytes: Uint8Array) {
  const file = path.join(tmp, `${Math.random().toString(36).slice(2)}.dcm`);
  await writeFile(file, bytes);
  return runStorescu({
    host: '127.0.0.1',
    port: dicom.port,
    calledAet: 'RADFLOW',
    callingAet,
    files: [file],
    extraArgs: ['-d'],
  });
}

/** The stored instance of the group's liver study: its row, and the sha256 of its blob. */
async function storedInstance(groupId: number, sopInstanceUid: string) {
  const [row] = await t.db
    .select({ instance: instances, centerId: studies.centerId })
    .from(instances)
    .innerJoin(studies, eq(studies.id, instances.studyId))
    .where(
      and(
        eq(studies.groupId, groupId),
        eq(studies.studyInstanceUid, LIVER_UID),
        eq(instances.sopInstanceUid, sopInstanceUid),
      ),
    );
  if (!row) return null;
  return { ...row, blobSha: sha256(await t.blobs.read(row.instance.blobKey)) };
}

async function refusals(groupId: number) {
  const result = await t.db.execute(
    sql`select * from ingest_refusals where group_id = ${groupId} order by id`,
  );
  return (result as unknown as { rows: Array<Record<string, unknown>> }).rows;
}

async function timeline(client: TestClient, id: number): Promise<TStudyEvent[]> {
  const res = await client.get(`/api/report-status/timeline/${id}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<TStudyEvent[]>();
}

/** Center A stores the liver's first slice by STOW-RS; a doctor reports and signs it off. */
async function signedOffStudyOfA(world: Awaited<ReturnType<typeof twoCenters>>) {
  const first = await stow(world.center.client, [readFixture(LIVER[0]!)]);
  expect(first.statusCode, first.body).toBe(200);
  const [row] = await t.db
    .select({ id: reportStatuses.id })
    .from(reportStatuses)
    .innerJoin(studies, eq(studies.id, reportStatuses.studyId))
    .where(and(eq(studies.groupId, world.group.id), eq(studies.studyInstanceUid, LIVER_UID)));
  await t.db.update(reportStatuses).set({ status: 'HISTORY_CREATED' }).where(eq(reportStatuses.id, row!.id));
  saved(await lock(world.doctor.client, row!.id));
  const done = saved(await signOff(world.doctor.client, row!.id, { content: '<p>Liver normal.</p>' }));
  expect(done.status).toBe('SIGNED_OFF');
  return row!.id;
}

describe('a study belongs to the center that first stored it', () => {
  it("C-STORE from center B's AE with the UIDs of A's signed-off study is refused; A's file is unchanged and the attempt audited", async () => {
    const world = await twoCenters();
    const rowId = await signedOffStudyOfA(world);
    const sop = corpus.find((f) => f.path === LIVER[0])!.sop_instance_uid!;
    const before = await storedInstance(world.group.id, sop);

    // The same SOP Instance UID with other bytes, and a new instance of the same study.
    const replace = await cStore(world.aeB, tampered(readFixture(LIVER[0]!)));
    expect(replace.stderr + replace.stdout).toMatch(/belongs to another center/);
    expect(replace.stderr + replace.stdout).toMatch(/DIMSE Status\s*:\s*0x0124/);
    const add = await cStore(world.aeB, readFixture(LIVER[1]!));
    expect(add.stderr + add.stdout).toMatch(/belongs to another center/);

    const after = await storedInstance(world.group.id, sop);
    expect(after?.blobSha).toBe(before?.blobSha);
    expect(after?.instance.metadata).toEqual(before?.instance.metadata);
    expect(JSON.stringify(after?.instance.metadata)).not.toContain('TAMPERED');
    expect(after?.centerId).toBe(world.centerA.id);
    const [study] = await t.db
      .select()
      .from(studies)
      .where(and(eq(studies.groupId, world.group.id), eq(studies.studyInstanceUid, LIVER_UID)));
    expect(study?.instanceCount).toBe(1);

    const audit = await refusals(world.group.id);
    expect(audit).toHaveLength(2);
    expect(audit[0]).toMatchObject({
      center_id: world.centerB.id,
      study_id: study!.id,
      study_instance_uid: LIVER_UID,
      sop_instance_uid: sop,
      source: 'DIMSE',
      calling_aet: world.aeB,
    });
    // A's timeline says that another center's images were refused.
    const events = await timeline(world.center.client, rowId);
    expect(events.map((e) => e.eventType)).toContain('FOREIGN_IMAGES_REFUSED');
  });

  it("STOW-RS from center B (session or token) into A's study fails with the reason; nothing is attached", async () => {
    const world = await twoCenters();
    const rowId = await signedOffStudyOfA(world);
    const sop = corpus.find((f) => f.path === LIVER[0])!.sop_instance_uid!;
    const before = await storedInstance(world.group.id, sop);

    const res = await stow(world.centerBUser.client, [tampered(readFixture(LIVER[0]!))]);
    expect(res.statusCode, res.body).toBe(409);
    const [failed] = seq(res.json(), '00081198');
    expect(failed?.['00081155']?.Value).toEqual([sop]);
    expect(failed?.['00081150']?.Value).toHaveLength(1);
    expect(failed?.['00081197']?.Value).toEqual([0x0124]);
    expect(String(failed?.['00000902']?.Value?.[0])).toMatch(/belongs to another center/);

    const token = (await world.centerBUser.client.get('/api/user/token')).json().token as string;
    const { payload, contentType } = stowBody([readFixture(LIVER[1]!)]);
    const byToken = await t.app.inject({
      method: 'POST',
      url: `/api/dicomweb/studies/${LIVER_UID}`,
      payload,
      headers: { 'content-type': contentType, authorization: `Bearer ${token}` },
    });
    expect(byToken.statusCode, byToken.body).toBe(409);
    expect(String(seq(byToken.json(), '00081198')[0]?.['00000902']?.Value?.[0])).toMatch(
      /belongs to another center/,
    );

    const after = await storedInstance(world.group.id, sop);
    expect(after?.blobSha).toBe(before?.blobSha);
    expect(after?.instance.metadata).toEqual(before?.instance.metadata);
    expect(
      await storedInstance(world.group.id, corpus.find((f) => f.path === LIVER[1])!.sop_instance_uid!),
    ).toBeNull();
    const audit = await refusals(world.group.id);
    expect(audit.map((r) => [r.center_id, r.source, r.actor_user_id])).toEqual([
      [world.centerB.id, 'STOW', world.centerBUser.user.id],
      [world.centerB.id, 'STOW', world.centerBUser.user.id],
    ]);
    // A's timeline: one event for the hour, naming no user of the other center.
    const refused = (await timeline(world.center.client, rowId)).filter(
      (e) => e.eventType === 'FOREIGN_IMAGES_REFUSED',
    );
    expect(refused).toHaveLength(1);
    expect(refused[0]).toMatchObject({ actorEmail: null, actorName: null, actorLabel: 'Another center' });
  });

  it("a STOW by A cannot append an instance to B's study either", async () => {
    const world = await twoCenters();
    const first = await stow(world.centerBUser.client, [readFixture(LIVER[0]!)]);
    expect(first.statusCode).toBe(200);
    const res = await stow(world.center.client, [readFixture(LIVER[1]!)]);
    expect(res.statusCode, res.body).toBe(409);
    const [study] = await t.db
      .select()
      .from(studies)
      .where(and(eq(studies.groupId, world.group.id), eq(studies.studyInstanceUid, LIVER_UID)));
    expect(study).toMatchObject({ centerId: world.centerB.id, instanceCount: 1 });
  });

  it("browser upload and the upload-study action from B cannot reach A's study", async () => {
    const world = await twoCenters();
    await signedOffStudyOfA(world);
    const upload = (client: TestClient, fields: Record<string, string>, bytes: Uint8Array) => {
      const { payload, contentType } = formBody(fields, [{ name: 'x.dcm', bytes }]);
      return client.request({
        method: 'POST',
        url: '/api/dicom-web/upload',
        payload,
        headers: { 'content-type': contentType },
      });
    };
    const plain = await upload(world.centerBUser.client, {}, readFixture(LIVER[1]!));
    expect(plain.statusCode, plain.body).toBe(200);
    expect(plain.json()).toMatchObject({ stored: 0, failed: 1 });
    expect(plain.json().files[0].reason).toMatch(/belongs to another center/);

    // Create Study with A's Study Instance UID cannot take the study over.
    const claim = await world.centerBUser.client.post('/api/dicom-web/study/create-from-website', {
      patientName: 'B Patient',
      labModality: 'CT',
      patientAge: '40Y',
      patientSex: 'F',
      center: world.centerB.id,
      studyName: 'CT',
      studyInstanceUID: LIVER_UID,
    });
    expect(claim.statusCode, claim.body).toBe(409);

    // B's own study created from the website, then A's images uploaded "into" it.
    const created = await world.centerBUser.client.post('/api/dicom-web/study/create-from-website', {
      patientName: 'B Patient',
      labModality: 'CT',
      patientAge: '40Y',
      patientSex: 'F',
      center: world.centerB.id,
      studyName: 'CT',
    });
    expect(created.statusCode, created.body).toBe(200);
    const attach = await upload(
      world.centerBUser.client,
      { reportStatusId: String(created.json().id) },
      readFixture(LIVER[2]!),
    );
    expect(attach.statusCode, attach.body).toBe(200);
    expect(attach.json()).toMatchObject({ stored: 0, failed: 1 });
    const [bRow] = await t.db.select().from(reportStatuses).where(eq(reportStatuses.id, created.json().id));
    const [bStudy] = await t.db.select().from(studies).where(eq(studies.id, bRow!.studyId));
    expect(bStudy?.studyInstanceUid).not.toBe(LIVER_UID);
    const [study] = await t.db
      .select()
      .from(studies)
      .where(and(eq(studies.groupId, world.group.id), eq(studies.studyInstanceUid, LIVER_UID)));
    expect(study).toMatchObject({ centerId: world.centerA.id, instanceCount: 1 });
    expect(await refusals(world.group.id)).toHaveLength(2);
  });
});

describe('the same center re-sending an instance', () => {
  it('identical bytes are idempotent; other bytes keep the first version and the answer says so (STOW-RS)', async () => {
    const world = await twoCenters();
    const bytes = readFixture(LIVER[0]!);
    const sop = corpus.find((f) => f.path === LIVER[0])!.sop_instance_uid!;
    expect((await stow(world.center.client, [bytes])).statusCode).toBe(200);
    const before = await storedInstance(world.group.id, sop);

    const again = await stow(world.center.client, [bytes]);
    expect(again.statusCode, again.body).toBe(200);
    expect(seq(again.json(), '00081199')[0]?.['00081196']).toBeUndefined();

    const other = await stow(world.center.client, [tampered(bytes)]);
    expect(other.statusCode, other.body).toBe(202);
    const [ref] = seq(other.json(), '00081199');
    expect(ref?.['00081155']?.Value).toEqual([sop]);
    expect(ref?.['00081196']?.Value).toHaveLength(1);
    expect(String(ref?.['00000902']?.Value?.[0])).toMatch(/first version kept/);

    const after = await storedInstance(world.group.id, sop);
    expect(after?.blobSha).toBe(before?.blobSha);
    expect(after?.instance.metadata).toEqual(before?.instance.metadata);
    expect(after?.instance.id).toBe(before?.instance.id);
    const [study] = await t.db.select().from(studies).where(eq(studies.id, before!.instance.studyId));
    expect(study).toMatchObject({ instanceCount: 1, sizeBytes: bytes.length });
    expect(await refusals(world.group.id)).toHaveLength(0);
  });

  it('identical bytes are idempotent; other bytes keep the first version and the answer says so (C-STORE)', async () => {
    const world = await twoCenters();
    const bytes = readFixture(LIVER[0]!);
    const sop = corpus.find((f) => f.path === LIVER[0])!.sop_instance_uid!;
    const first = await cStore(world.aeA, bytes);
    expect(first.stdout + first.stderr).toMatch(/DIMSE Status\s*:\s*0x0000/);
    const before = await storedInstance(world.group.id, sop);

    const again = await cStore(world.aeA, bytes);
    expect(again.stdout + again.stderr).toMatch(/DIMSE Status\s*:\s*0x0000/);
    const other = await cStore(world.aeA, tampered(bytes));
    expect(other.stdout + other.stderr).toMatch(/DIMSE Status\s*:\s*0xb006/i);
    expect(other.stdout + other.stderr).toMatch(/first version kept/);

    const after = await storedInstance(world.group.id, sop);
    expect(after?.blobSha).toBe(before?.blobSha);
    expect(after?.instance.metadata).toEqual(before?.instance.metadata);
  });
});

describe('images arriving after sign-off', () => {
  it('are stored, flag the row in the lists and the timeline, and leave the report unchanged', async () => {
    const world = await twoCenters();
    const rowId = await signedOffStudyOfA(world);
    const reportsBefore = await readReports(world.doctor.client, rowId);
    const reportRowsBefore = await t.db.select().from(reports).where(eq(reports.reportStatusId, rowId));
    const rowOf = (page: TStudyListPage) => page.content.find((r) => r.id === rowId);
    const lists = [
      [world.center.client, '/api/report-status/'],
      [world.admin.client, '/api/report-status/'],
      [world.admin.client, '/api/dicom-web/studies/'],
      [world.doctor.client, '/api/dicom-web/studies/'],
    ] as const;
    expect(rowOf(await list(world.center.client, '/api/report-status/'))?.newImagesAfterSignOffAt).toBeNull();

    const res = await stow(world.center.client, [readFixture(LIVER[1]!), readFixture(LIVER[2]!)]);
    expect(res.statusCode, res.body).toBe(200);
    const [study] = await t.db
      .select()
      .from(studies)
      .where(and(eq(studies.groupId, world.group.id), eq(studies.studyInstanceUid, LIVER_UID)));
    expect(study?.instanceCount).toBe(3);

    for (const [client, url] of lists) {
      const row = rowOf(await list(client, url));
      expect(row?.status).toBe('SIGNED_OFF');
      expect(row?.newImagesAfterSignOffAt).not.toBeNull();
    }
    const flagged = (await timeline(world.center.client, rowId)).filter(
      (e) => e.eventType === 'NEW_IMAGES_AFTER_SIGN_OFF',
    );
    expect(flagged).toHaveLength(1);

    expect(await readReports(world.doctor.client, rowId)).toEqual(reportsBefore);
    expect(await t.db.select().from(reports).where(eq(reports.reportStatusId, rowId))).toEqual(
      reportRowsBefore,
    );
    const [row] = await t.db.select().from(reportStatuses).where(eq(reportStatuses.id, rowId));
    expect(row?.status).toBe('SIGNED_OFF');

    // A later sign-off (an addendum) covers them: the flag goes; images after it flag the row again.
    const addendum = await addendumOf(world.doctor.client, rowId, '<p>Slices 2 and 3 seen.</p>');
    expect(addendum.statusCode, addendum.body).toBe(200);
    expect(rowOf(await list(world.center.client, '/api/report-status/'))?.newImagesAfterSignOffAt).toBeNull();
    expect((await stow(world.center.client, [readFixture(LIVER[3]!)])).statusCode).toBe(200);
    expect(
      rowOf(await list(world.center.client, '/api/report-status/'))?.newImagesAfterSignOffAt,
    ).not.toBeNull();
    const events = (await timeline(world.center.client, rowId)).map((e) => e.eventType);
    expect(events.filter((e) => e === 'NEW_IMAGES_AFTER_SIGN_OFF')).toHaveLength(2);
  });
});
