import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tabsForList } from '@radflow/core';
import {
  type TestApp,
  type TestClient,
  createTestApp,
  createTestCenter,
  createTestGroup,
} from '../../../test/test-app.js';
import { createTestStudy, idsOf, list, mapTestUser, signedIn } from '../../../test/worklist-test-data.js';

/**
 * Who sees what (issue 4 §1, spec-core §6), through the list calls and the archive: each role with
 * rows it must see and rows it must not, in one group with two centers, plus a row of another group
 * that nobody here may see.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const STUDIES = '/api/dicom-web/studies/';
const REPORTS = '/api/report-status/';

/** A group of its own with one center, for a case that adds rows. */
async function ownGroup() {
  const own = await createTestGroup(t.db);
  return { own, center: await createTestCenter(t.db, { groupId: own.id }) };
}

/** Study instance UIDs the archive's QIDO-RS search answers the caller. */
async function archiveUids(browser: TestClient): Promise<string[]> {
  const res = await browser.get('/api/dicomweb/studies', { accept: 'application/dicom+json' });
  expect(res.statusCode, res.body).toBe(200);
  const found = res.json<Array<Record<string, { Value?: string[] }>>>();
  return found.map((d) => d['0020000D']?.Value?.[0] ?? '').sort();
}

describe('who sees what', () => {
  let group: { id: number };
  let north: { id: number };
  let south: { id: number };
  let doctorA: Awaited<ReturnType<typeof signedIn>>;
  let doctorB: Awaited<ReturnType<typeof signedIn>>;
  const rows: Record<string, { id: number; uid: string }> = {};

  beforeAll(async () => {
    group = await createTestGroup(t.db);
    north = await createTestCenter(t.db, { groupId: group.id, name: 'North' });
    south = await createTestCenter(t.db, { groupId: group.id, name: 'South' });
    doctorA = await signedIn(t, { roles: ['ROLE_DOCTOR'], groupId: group.id });
    doctorB = await signedIn(t, { roles: ['ROLE_DOCTOR'], groupId: group.id });
    const at = (centerId: number, row: Parameters<typeof createTestStudy>[1]['row']) =>
      createTestStudy(t.db, { groupId: group.id, centerId, row }).then(({ row: r, study }) => ({
        id: r.id,
        uid: study.studyInstanceUid,
      }));
    rows.assignedA = await at(north.id, { status: 'HISTORY_CREATED', assignedToUserId: doctorA.user.id });
    rows.lockedByA = await at(south.id, { status: 'LOCKED', lockedByUserId: doctorA.user.id });
    rows.assignedB = await at(north.id, { status: 'HISTORY_CREATED', assignedToUserId: doctorB.user.id });
    rows.signedOffB = await at(south.id, { status: 'SIGNED_OFF', assignedToUserId: doctorB.user.id });
    rows.pool = await at(north.id, { status: 'CREATED' });
    rows.poolSent = await at(south.id, { status: 'HISTORY_CREATED' });
    rows.unassignedSignedOff = await at(north.id, { status: 'SIGNED_OFF' });
    rows.deletedNorth = await at(north.id, { status: 'DELETED', deletedAt: new Date() });
    const elsewhere = await createTestGroup(t.db);
    const farCenter = await createTestCenter(t.db, { groupId: elsewhere.id });
    const far = await createTestStudy(t.db, { groupId: elsewhere.id, centerId: farCenter.id });
    rows.otherGroup = { id: far.row.id, uid: far.study.studyInstanceUid };
  });

  const idsFor = (...keys: string[]) => keys.map((k) => rows[k]?.id as number).sort((a, b) => a - b);
  const uidsFor = (...keys: string[]) => keys.map((k) => rows[k]?.uid as string).sort();

  it("shows a doctor what is assigned to or locked by them plus the pool, never another doctor's", async () => {
    const page = await list(doctorA.browser, STUDIES);
    expect(idsOf(page)).toEqual(idsFor('assignedA', 'lockedByA', 'pool', 'poolSent'));
    expect(page.totalElements).toBe(4);
    // The same rule guards the archive: the images of another doctor's study do not exist for them.
    expect(await archiveUids(doctorA.browser)).toEqual(uidsFor('assignedA', 'lockedByA', 'pool', 'poolSent'));
    expect(idsOf(await list(doctorB.browser, STUDIES))).toEqual(
      idsFor('assignedB', 'signedOffB', 'pool', 'poolSent'),
    );
  });

  it("narrows a doctor's tabs inside that scope: Pending, Signed Off, Urgent", async () => {
    const [, pending, signedOff] = tabsForList('doctor');
    expect(idsOf(await list(doctorB.browser, STUDIES, { ...pending?.filter }))).toEqual(
      idsFor('assignedB', 'pool', 'poolSent'),
    );
    expect(idsOf(await list(doctorB.browser, STUDIES, { ...signedOff?.filter }))).toEqual(
      idsFor('signedOffB'),
    );
  });

  it("shows a doctor with doctors in their user map those doctors' studies too", async () => {
    const lead = await signedIn(t, { roles: ['ROLE_DOCTOR'], groupId: group.id });
    await mapTestUser(t.db, lead.user.id, 'ROLE_DOCTOR', doctorB.user.id);
    expect(idsOf(await list(lead.browser, STUDIES))).toEqual(
      idsFor('assignedB', 'signedOffB', 'pool', 'poolSent'),
    );
  });

  it('shows a typist the studies of the doctors they work for, and only those', async () => {
    const typist = await signedIn(t, { roles: ['ROLE_TYPIST'], groupId: group.id });
    expect((await list(typist.browser, STUDIES)).totalElements).toBe(0);
    await mapTestUser(t.db, typist.user.id, 'ROLE_DOCTOR', doctorA.user.id);
    expect(idsOf(await list(typist.browser, STUDIES))).toEqual(idsFor('assignedA', 'lockedByA'));
    expect(await archiveUids(typist.browser)).toEqual(uidsFor('assignedA', 'lockedByA'));

    const chosen = await list(typist.browser, STUDIES, { contextDoctor: doctorA.user.email });
    expect(idsOf(chosen)).toEqual(idsFor('assignedA', 'lockedByA'));
    // 'ME' is the chosen doctor for a typist working for them.
    const mine = await list(typist.browser, STUDIES, {
      contextDoctor: doctorA.user.email,
      assignedTos: ['ME'],
    });
    expect(idsOf(mine)).toEqual(idsFor('assignedA'));

    const other = await typist.browser.post(STUDIES, { contextDoctor: doctorB.user.email });
    expect(other.statusCode).toBe(403);
    expect(other.body).toContain('contextDoctor');
  });

  it('shows a referring doctor what was shared with them', async () => {
    const { own, center } = await ownGroup();
    const referring = await signedIn(t, { roles: ['ROLE_REFERRING_DOCTOR'], groupId: own.id });
    await createTestStudy(t.db, { groupId: own.id, centerId: center.id, row: { status: 'SIGNED_OFF' } });
    const shared = await createTestStudy(t.db, {
      groupId: own.id,
      centerId: center.id,
      row: { status: 'SIGNED_OFF', referringDoctorUserId: referring.user.id },
    });
    const page = await list(referring.browser, STUDIES);
    expect(idsOf(page)).toEqual([shared.row.id]);
    expect(page.content[0]?.referringDoctor).toBe(referring.user.email);
    expect(await archiveUids(referring.browser)).toEqual([shared.study.studyInstanceUid]);
  });

  it('shows an auditor what is assigned to them for audit', async () => {
    const { own, center } = await ownGroup();
    const auditor = await signedIn(t, { roles: ['ROLE_AUDITOR'], groupId: own.id });
    const doctor = await signedIn(t, { roles: ['ROLE_DOCTOR'], groupId: own.id });
    await createTestStudy(t.db, {
      groupId: own.id,
      centerId: center.id,
      row: { status: 'SIGNED_OFF', assignedToUserId: doctor.user.id },
    });
    const audited = await createTestStudy(t.db, {
      groupId: own.id,
      centerId: center.id,
      row: { status: 'SIGNED_OFF', assignedToUserId: doctor.user.id, auditorUserId: auditor.user.id },
    });
    const page = await list(auditor.browser, STUDIES);
    expect(idsOf(page)).toEqual([audited.row.id]);
    expect(page.content[0]).toMatchObject({ auditor: auditor.user.email, assignedTo: doctor.user.email });
  });

  it("shows a customer the studies of their mobile number (the patient's or one shared with), in the archive", async () => {
    const mobile = `9${String(Date.now()).slice(-9)}`;
    const { own, center } = await ownGroup();
    const customer = await signedIn(t, { roles: ['ROLE_CUSTOMER'], groupId: own.id, mobileNumber: mobile });
    const patients = await createTestStudy(t.db, {
      groupId: own.id,
      centerId: center.id,
      row: { status: 'SIGNED_OFF', mobileNumber: mobile },
    });
    const sharedWith = await createTestStudy(t.db, {
      groupId: own.id,
      centerId: center.id,
      row: { status: 'SIGNED_OFF', sharedNumbers: ['9000000001', mobile] },
    });
    await createTestStudy(t.db, {
      groupId: own.id,
      centerId: center.id,
      row: { mobileNumber: '9000000002' },
    });
    expect(await archiveUids(customer.browser)).toEqual(
      [patients.study.studyInstanceUid, sharedWith.study.studyInstanceUid].sort(),
    );
    // Their screen is /manage-customer-report; the two study lists are not theirs.
    expect((await customer.browser.post(STUDIES, {})).statusCode).toBe(403);
    expect((await customer.browser.post(REPORTS, {})).statusCode).toBe(403);
  });

  it('shows a viewer nothing in the archive', async () => {
    const viewer = await signedIn(t, { roles: ['ROLE_VIEWER'], groupId: group.id });
    expect(await archiveUids(viewer.browser)).toEqual([]);
  });

  it("shows center backup its center's studies, deleted ones included, and center share-all every center's", async () => {
    const backup = await signedIn(t, {
      roles: ['ROLE_CENTER_BACKUP'],
      groupId: group.id,
      centerId: north.id,
    });
    expect(idsOf(await list(backup.browser, REPORTS))).toEqual(
      idsFor('assignedA', 'assignedB', 'pool', 'unassignedSignedOff', 'deletedNorth'),
    );
    const shareAll = await signedIn(t, {
      roles: ['ROLE_CENTER_SHARE_ALL'],
      groupId: group.id,
      centerId: north.id,
    });
    const everyCenter = await list(shareAll.browser, REPORTS, { size: 50 });
    expect(everyCenter.content.map((r) => r.radiologyCenter)).toContain('South');
    expect(idsOf(everyCenter)).not.toContain(rows.otherGroup?.id);
    expect(idsOf(everyCenter)).toEqual(
      expect.arrayContaining(idsFor('lockedByA', 'signedOffB', 'deletedNorth')),
    );
  });

  it("shows a tele-radiology user their mapped centers' studies", async () => {
    const tele = await signedIn(t, { roles: ['ROLE_TELE_RADIOLOGY'], groupId: group.id });
    const southCenterUser = await signedIn(t, {
      roles: ['ROLE_CENTER'],
      groupId: group.id,
      centerId: south.id,
    });
    await mapTestUser(t.db, tele.user.id, 'ROLE_CENTER', southCenterUser.user.id);
    expect(idsOf(await list(tele.browser, REPORTS))).toEqual(idsFor('lockedByA', 'signedOffB', 'poolSent'));
  });
});
