import { startTestDicomPort } from '../../../test/archive/helpers.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import type { TCenter } from '@radflow/core';
import { runEchoscu, runStorescu } from '@radflow/dicom/test-support';
import { studies } from '../../db/schema.js';
import type { DicomServices } from './dicom-services.js';
import { type TestApp, type TestClient, createTestApp, createTestGroup } from '../../../test/test-app.js';
import { signedIn } from '../../../test/worklist-test-data.js';
import { LIVER, corpus, fixturePath } from '../../../test/archive/fixtures.js';

/*
 * The DICOM port picks the center by the calling AE title. A change an admin makes in Manage
 * centers holds for the next association at once: a modality whose title was just added is not
 * turned away by a remembered "unknown", and a title moved to another center sends its next
 * study there, not to the center that had it a moment ago.
 */

let t: TestApp;
let dicom: DicomServices;
let admin: TestClient;
let groupId: number;

beforeAll(async () => {
  t = await createTestApp();
  groupId = (await createTestGroup(t.db)).id;
  admin = (await signedIn(t, { roles: ['ROLE_GROUP'], groupId })).browser;
  dicom = await startTestDicomPort(t);
});
afterAll(async () => {
  await dicom?.close();
  await t.close();
});

const peer = () => ({ host: '127.0.0.1', port: dicom.port, calledAet: 'RADFLOW' });
const suffix = Math.random().toString(36).slice(2, 7).toUpperCase();

async function saveCenter(name: string, aeTitles: string[], id?: number): Promise<TCenter> {
  const body = { name, email: `${name.toLowerCase()}@centers.example`, aeTitles };
  const res = id
    ? await admin.request({ method: 'PUT', url: `/api/admin/centers/${id}`, payload: body })
    : await admin.post('/api/admin/centers', body);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<TCenter>();
}

describe('AE title changes reach the DICOM port at once', () => {
  it('a title added to a center is accepted on the next association', async () => {
    const first = `CT${suffix}`;
    const added = `MR${suffix}`;
    const center = await saveCenter('Northside', [first]);
    expect((await runEchoscu({ ...peer(), callingAet: added })).exitCode).not.toBe(0);
    await saveCenter('Northside', [first, added], center.id);
    expect((await runEchoscu({ ...peer(), callingAet: added })).exitCode).toBe(0);
  });

  it('a title moved to another center sends the next study there', async () => {
    const moving = `US${suffix}`;
    const from = await saveCenter('Eastside', [moving]);
    expect((await runEchoscu({ ...peer(), callingAet: moving })).exitCode).toBe(0);
    await saveCenter('Eastside', [], from.id);
    const to = await saveCenter('Westside', [moving]);
    const run = await runStorescu({ ...peer(), callingAet: moving, files: [fixturePath(LIVER[0]!)] });
    expect(run.exitCode, run.stderr).toBe(0);
    const uid = corpus.find((f) => f.path === LIVER[0])!.study_instance_uid!;
    const [study] = await t.db
      .select({ centerId: studies.centerId })
      .from(studies)
      .where(and(eq(studies.groupId, groupId), eq(studies.studyInstanceUid, uid)));
    expect(study?.centerId).toBe(to.id);
  });
});
