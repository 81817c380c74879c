import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { runStorescu, runTool } from '@radflow/dicom/test-support';
import type { TBillStatus, TSettlementStatus } from '@radflow/core';
import { labAuditEvents, labBillTests, reportStatuses, studies } from '../../db/schema.js';
import type { DicomServices } from '../archive/dicom-services.js';
import {
  TEST_CALLED_AET,
  createArchiveWorldWithAeTitles,
  startTestDicomPort,
  stowBody,
} from '../../../test/archive/helpers.js';
import { fixturePath, readFixture } from '../../../test/archive/fixtures.js';
import { editedDicom } from '../../../test/archive/dicom-edit.js';
import { type TestApp, createTestApp, signIn } from '../../../test/test-app.js';
import {
  centerLab,
  findWorklist,
  insertLabBill,
  insertLabPatient,
  insertLabTest,
} from '../../../test/lab-worklist-data.js';

/**
 * Images that arrive with a bill line's accession number link themselves to the line (issue 25 §6):
 * the scanner asks the worklist (findscu -W), sends the images (storescu) and the line shows the
 * study, once; another center's accession number never links; Create Study from a bill links the
 * same way without the worklist flag.
 */

let t: TestApp;
let dicom: DicomServices;
let world: Awaited<ReturnType<typeof createArchiveWorldWithAeTitles>>;
const CR = 'cr_dx/cr_tiny_16x16.dcm';

beforeAll(async () => {
  t = await createTestApp();
  world = await createArchiveWorldWithAeTitles(t);
  dicom = await startTestDicomPort(t);
});
afterAll(async () => {
  await dicom?.close();
  await t?.close();
});

/** A scheduled DX line of center A's lab (or `centerId`'s), billed now. */
async function scheduledLine(
  centerId = world.centerA.id,
  state: { billStatus?: TBillStatus; settlementStatus?: TSettlementStatus } = {},
) {
  const lab = centerLab(world.group.id, centerId);
  const patient = await insertLabPatient(t.db, lab, { name: 'Sita Devi' });
  const test = await insertLabTest(t.db, lab, { testName: 'X-Ray Chest PA', labModality: 'DX' });
  const { lines } = await insertLabBill(t.db, lab, {
    patientId: patient.id,
    ...(state.billStatus ? { status: state.billStatus } : {}),
    lines: [{ test, ...(state.settlementStatus ? { settlementStatus: state.settlementStatus } : {}) }],
  });
  return lines[0]!;
}

const lineOf = async (id: number) =>
  (await t.db.select().from(labBillTests).where(eq(labBillTests.id, id)))[0]!;

const studyOf = async (uid: string) =>
  (
    await t.db
      .select()
      .from(studies)
      .where(and(eq(studies.groupId, world.group.id), eq(studies.studyInstanceUid, uid)))
  )[0];

/** A copy of the corpus CR with the worklist's accession number and study UID (dcmodify), sent by storescu. */
async function storeFromModality(callingAet: string, accessionNumber: string, studyInstanceUid: string) {
  const dir = await mkdtemp(path.join(tmpdir(), 'radflow-mwl-store-'));
  try {
    const file = path.join(dir, 'image.dcm');
    await copyFile(fixturePath(CR), file);
    const edit = await runTool('dcmodify', [
      '-nb',
      '-m',
      `(0008,0050)=${accessionNumber}`,
      '-m',
      `(0020,000d)=${studyInstanceUid}`,
      '-gse',
      '-gin',
      file,
    ]);
    expect(edit.exitCode, edit.stderr).toBe(0);
    const run = await runStorescu({
      host: '127.0.0.1',
      port: dicom.port,
      calledAet: TEST_CALLED_AET,
      callingAet,
      files: [file],
    });
    expect(run.exitCode, run.stderr).toBe(0);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

describe('images link themselves to their bill line', () => {
  it('findscu -W, then storescu with its accession number: the line shows the study, once', async () => {
    const line = await scheduledLine();
    const worklist = await findWorklist(dicom.port, world.aeA, [
      `AccessionNumber=${line.accessionNumber}`,
      'StudyInstanceUID',
    ]);
    expect(worklist.exitCode, worklist.output).toBe(0);
    expect(worklist.matches).toHaveLength(1);
    const uid = String(worklist.matches[0]!['0020000D']?.Value?.[0]);
    expect(uid).toBe(line.studyInstanceUid);

    await storeFromModality(world.aeA, line.accessionNumber, uid);
    const study = await studyOf(uid);
    expect(study).toMatchObject({ centerId: world.centerA.id, accessionNumber: line.accessionNumber });
    expect(await lineOf(line.id)).toMatchObject({ studyId: study!.id, uploadedThroughWorkList: true });
    const audit = await t.db
      .select()
      .from(labAuditEvents)
      .where(and(eq(labAuditEvents.entity, 'BILL_TEST'), eq(labAuditEvents.entityId, line.id)));
    expect(audit).toEqual([
      expect.objectContaining({
        action: 'STUDY_LINKED',
        labScope: 'CENTER',
        labOwnerId: world.centerA.id,
        actorEmail: world.aeA,
      }),
    ]);

    // A second study with the same accession number: the line keeps the first.
    await storeFromModality(world.aeA, line.accessionNumber, `${uid}.7`);
    expect((await studyOf(`${uid}.7`))?.id).toBeGreaterThan(study!.id);
    expect((await lineOf(line.id)).studyId).toBe(study!.id);
  });

  it("another center's images with this center's accession number never link", async () => {
    const line = await scheduledLine();
    await storeFromModality(world.aeB, line.accessionNumber, `${line.studyInstanceUid}.9`);
    expect(await studyOf(`${line.studyInstanceUid}.9`)).toMatchObject({ centerId: world.centerB.id });
    expect(await lineOf(line.id)).toMatchObject({ studyId: null, uploadedThroughWorkList: false });
  });

  it('STOW-RS links the same way', async () => {
    const stowed = await scheduledLine();
    const { payload, contentType } = stowBody([
      editedDicom(readFixture(CR), { AccessionNumber: stowed.accessionNumber }),
    ]);
    const res = await world.center.client.request({
      method: 'POST',
      url: '/api/dicomweb/studies',
      payload,
      headers: { 'content-type': contentType },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(await lineOf(stowed.id)).toMatchObject({
      studyId: expect.any(Number),
      uploadedThroughWorkList: true,
    });
  });
});

describe('Create Study from a bill line', () => {
  const typed = (centerId: number, extra: Record<string, unknown>) => ({
    patientName: 'Sita Devi',
    labModality: 'DX',
    patientAge: '40Y',
    patientSex: 'F',
    center: centerId,
    studyName: 'X-Ray Chest PA',
    ...extra,
  });

  it('links the line (not through the worklist) under the line’s own Study Instance UID', async () => {
    const line = await scheduledLine();
    const { browser } = await signIn(t, {
      roles: ['ROLE_LABS_RECEPTIONIST', 'ROLE_CENTER'],
      groupId: world.group.id,
      centerId: world.centerA.id,
    });
    const res = await browser.post(
      '/api/dicom-web/study/create-from-website',
      typed(world.centerA.id, { labBillTestId: line.id }),
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().studyInstanceUID).toBe(line.studyInstanceUid);
    const [row] = await t.db.select().from(reportStatuses).where(eq(reportStatuses.id, res.json().id));
    expect(await lineOf(line.id)).toMatchObject({ studyId: row!.studyId, uploadedThroughWorkList: false });

    // Images the scanner sends later under the worklist's UID join that study; the line stays as it is.
    await storeFromModality(world.aeA, line.accessionNumber, line.studyInstanceUid);
    expect(await lineOf(line.id)).toMatchObject({ studyId: row!.studyId, uploadedThroughWorkList: false });

    // Linked once: a second Create Study for the line is refused.
    const again = await browser.post(
      '/api/dicom-web/study/create-from-website',
      typed(world.centerA.id, { labBillTestId: line.id }),
    );
    expect(again.statusCode, again.body).toBe(409);
  });

  it("another center's line is not found (404), and nothing is created", async () => {
    const line = await scheduledLine(world.centerB.id);
    const before = await t.db.select({ id: studies.id }).from(studies);
    const res = await world.center.client.post(
      '/api/dicom-web/study/create-from-website',
      typed(world.centerA.id, { labBillTestId: line.id }),
    );
    expect(res.statusCode, res.body).toBe(404);
    expect(await t.db.select({ id: studies.id }).from(studies)).toHaveLength(before.length);
    expect((await lineOf(line.id)).studyId).toBeNull();
  });

  it.each([
    ['a cancelled bill', { billStatus: 'CANCELLED' }, 'This bill is cancelled'],
    ['a cancelled test', { settlementStatus: 'CANCEL' }, 'This test is cancelled'],
    ['a test refunded whole', { settlementStatus: 'FULL_REFUND' }, 'This test is refunded'],
  ] as const)(
    'a line on %s gets no study (409 with the reason), and nothing is created',
    async (_, state, reason) => {
      const line = await scheduledLine(world.centerA.id, state);
      const { browser } = await signIn(t, {
        roles: ['ROLE_LABS_RECEPTIONIST', 'ROLE_CENTER'],
        groupId: world.group.id,
        centerId: world.centerA.id,
      });
      const before = await t.db.select({ id: studies.id }).from(studies);
      const res = await browser.post(
        '/api/dicom-web/study/create-from-website',
        typed(world.centerA.id, { labBillTestId: line.id }),
      );
      expect(res.statusCode, res.body).toBe(409);
      expect(res.json().errorDescription).toBe(reason);
      expect(await t.db.select({ id: studies.id }).from(studies)).toHaveLength(before.length);
      expect((await lineOf(line.id)).studyId).toBeNull();
    },
  );
});
