import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FORWARDING_MESSAGES, MESSAGES, type TForwardStatusResponse, ZIP_MESSAGES } from '@radflow/core';
import { reportStatuses } from '../../db/schema.js';
import {
  type TestApp,
  createTestApp,
  createTestCenter,
  createTestGroup,
  createTestUser,
  setGroupPreference,
} from '../../../test/test-app.js';
import { createTestStudy, mapTestUser, signedIn } from '../../../test/worklist-test-data.js';

/**
 * Calls about one report row (zip link and zip job by report id, forwarding by report id) check the
 * row (`visibleReportRows`); calls about the DICOM study (DICOMweb) check the study (`visibleStudies`:
 * one visible row is enough). A split study has two rows of one archive study: a doctor assigned the
 * split child sees the child and the images, but not the parent row, which is another doctor's work.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

let world: Awaited<ReturnType<typeof createWorld>>;
async function createWorld() {
  const group = await createTestGroup(t.db);
  await setGroupPreference(t.db, group.id, 'GROUP_SWITCHES', { addForwardingPacsFeature: true });
  const center = await createTestCenter(t.db, { groupId: group.id });
  const otherCenter = await createTestCenter(t.db, { groupId: group.id });
  const parentDoctor = await createTestUser(t.db, { roles: ['ROLE_DOCTOR'], groupId: group.id });
  const childDoctor = await signedIn(t, { roles: ['ROLE_DOCTOR'], groupId: group.id });
  // Forwarding roles see whole centers; a tele user who is also a doctor, mapped to another center,
  // sees this center's rows only through the doctor grant: row by row.
  const teleDoctor = await signedIn(t, { roles: ['ROLE_TELE_RADIOLOGY', 'ROLE_DOCTOR'], groupId: group.id });
  const otherCenterUser = await createTestUser(t.db, {
    roles: ['ROLE_CENTER'],
    groupId: group.id,
    centerId: otherCenter.id,
  });
  await mapTestUser(t.db, teleDoctor.user.id, 'ROLE_CENTER', otherCenterUser.id);
  return { group, center, parentDoctor, childDoctor, teleDoctor };
}
beforeAll(async () => {
  world = await createWorld();
});

/** A study split in two rows: the parent assigned to `parentDoctor`, the child to `childDoctorId`. */
async function createSplitStudy(childDoctorId: number) {
  const base = { groupId: world.group.id, centerId: world.center.id };
  const { study, row: parent } = await createTestStudy(t.db, {
    ...base,
    row: { assignedToUserId: world.parentDoctor.id },
  });
  const [child] = await t.db
    .insert(reportStatuses)
    .values({
      ...base,
      studyId: study.id,
      patientName: parent.patientName,
      patientId: parent.patientId,
      splitFromReportStatusId: parent.id,
      assignedToUserId: childDoctorId,
    })
    .returning();
  if (!child) throw new Error('split child not created');
  return { study, parent, child };
}

describe('a split study: the child row is visible, its parent row is not', () => {
  it('the zip link and the zip job answer 404 for the parent; the child reaches the download rules', async () => {
    const { parent, child } = await createSplitStudy(world.childDoctor.user.id);
    const { browser } = world.childDoctor;

    const parentLink = await browser.get(`/api/dicom-web/zip-v2/complete/studies/link/${parent.id}`);
    expect(parentLink.statusCode, parentLink.body).toBe(404);
    expect(parentLink.json()).toMatchObject({ errorDescription: MESSAGES.notFound });
    // The child passes the row check and stops at the download rules (never fully uploaded).
    const childLink = await browser.get(`/api/dicom-web/zip-v2/complete/studies/link/${child.id}`);
    expect(childLink.statusCode, childLink.body).toBe(409);
    expect(childLink.json()).toMatchObject({ errorDescription: ZIP_MESSAGES.notUploaded });

    const run = (reportStatusId: number) =>
      browser.post('/api/batch/run', { jobName: 'ZIP_STUDY', reportStatusId });
    expect((await run(parent.id)).statusCode).toBe(404);
    const childRun = await run(child.id);
    expect(childRun.statusCode, childRun.body).toBe(409);
    expect(childRun.json()).toMatchObject({ errorDescription: ZIP_MESSAGES.notUploaded });
  });

  it('forwarding: the parent is 404 and left out of the status, the child is listed', async () => {
    const { parent, child } = await createSplitStudy(world.teleDoctor.user.id);
    const { browser } = world.teleDoctor;

    const status = await browser.get(`/api/forward/status?reportStatusIds=${parent.id},${child.id}`);
    expect(status.statusCode, status.body).toBe(200);
    expect(status.json<TForwardStatusResponse>().studies.map((s) => s.reportStatusId)).toEqual([child.id]);

    const sendParent = await browser.post('/api/forward/send', {
      reportStatusId: parent.id,
      pacsId: 999_999,
    });
    expect(sendParent.statusCode).toBe(404);
    expect(sendParent.json()).toMatchObject({ errorDescription: FORWARDING_MESSAGES.studyNotFound });
    // The child passes the row check and stops at the (unknown) destination instead.
    const sendChild = await browser.post('/api/forward/send', { reportStatusId: child.id, pacsId: 999_999 });
    expect(sendChild.statusCode).toBe(404);
    expect(sendChild.json()).toMatchObject({ errorDescription: FORWARDING_MESSAGES.pacsNotFound });
  });

  it('DICOMweb is about the archive study: the child row is enough to find it', async () => {
    const { study } = await createSplitStudy(world.childDoctor.user.id);
    const res = await world.childDoctor.browser.get(
      `/api/dicomweb/studies?StudyInstanceUID=${study.studyInstanceUid}`,
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(
      res.json<Array<Record<string, { Value: string[] }>>>().map((s) => s['0020000D']?.Value[0]),
    ).toEqual([study.studyInstanceUid]);
  });
});
