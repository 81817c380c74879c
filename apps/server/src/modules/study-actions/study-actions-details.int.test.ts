import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TUpdateStudyDetailsInput } from '@radflow/core';
import { studyTypes } from '../../db/schema.js';
import { expectStatus, studyActionFixtures } from '../../../test/study-actions.fixtures.js';
import { type TestApp, createTestApp, createTestUser } from '../../../test/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const { createWorld, createStudy, signIn, readEvents, snapshot } = studyActionFixtures(() => t);

const form: TUpdateStudyDetailsInput = {
  patientName: 'ROY^ANNA',
  patientAge: '034Y',
  patientId: 'P-9',
  patientSex: 'F',
  uhid: 'UH-1',
  accessionNumber: 'ACC-1',
  studyName: 'CT HEAD',
  referringPhysicianName: 'Dr Rao',
  history: 'Headache for 3 days',
  mobileNumber: '9876543210',
};

async function addStudyTypes(groupId: number, ...names: string[]) {
  await t.db.insert(studyTypes).values(names.map((name) => ({ groupId, name, modality: 'CT' })));
}

const updateDetails = (id: number) => `/api/report-status/update-details/${id}`;

describe('POST /report-status/update-details/{id} (spec-core §5 Edit details form)', () => {
  it("sends a CREATED study for reporting when a center user submits it ('Send for reporting')", async () => {
    const world = await createWorld();
    const row = await createStudy(world);
    const { browser, user } = await signIn(world, ['ROLE_CENTER']);
    const detail = expectStatus(await browser.post(updateDetails(row.id), form), 200);
    expect(detail).toMatchObject({
      status: 'HISTORY_CREATED',
      patientName: 'ROY^ANNA',
      patientAge: '034Y',
      patientSex: 'F',
      uhid: 'UH-1',
      accessionNumber: 'ACC-1',
      history: 'Headache for 3 days',
      mobileNumber: '9876543210',
    });
    const [event] = await readEvents(row.id);
    expect(event).toMatchObject({
      eventType: 'SENT_FOR_REPORTING',
      actorUserId: user.id,
      fromStatus: 'CREATED',
      toStatus: 'HISTORY_CREATED',
    });
    expect((event?.detail as { changed: string[] }).changed).toContain('history');
  });

  it('updates the details of an admin without changing the status', async () => {
    const world = await createWorld();
    const row = await createStudy(world);
    const { browser } = await signIn(world, ['ROLE_ADMIN']);
    expect(expectStatus(await browser.post(updateDetails(row.id), form), 200).status).toBe('CREATED');
    expect((await readEvents(row.id)).map((e) => [e.eventType, e.fromStatus, e.toStatus])).toEqual([
      ['DETAILS_UPDATED', 'CREATED', 'CREATED'],
    ]);
  });

  it('refuses each rule with a 400 naming the field, and changes nothing', async () => {
    const world = await createWorld();
    const row = await createStudy(world);
    const { browser } = await signIn(world, ['ROLE_CENTER']);
    const before = await snapshot(row.id);
    const cases: Array<[Partial<TUpdateStudyDetailsInput>, string]> = [
      [{ patientName: '' }, 'patientName'],
      [{ history: '  ' }, 'history'],
      [{ patientAge: '12345678901' }, 'patientAge'],
      [{ uhid: 'x'.repeat(21) }, 'uhid'],
      [{ accessionNumber: 'x'.repeat(41) }, 'accessionNumber'],
      [{ patientSex: 'O' as 'M' }, 'patientSex'],
      [{ mobileNumber: '5876543210' }, 'mobileNumber'],
      [{ mobileNumber: '' }, 'mobileNumber'],
    ];
    for (const [change, field] of cases) {
      const res = await browser.post(updateDetails(row.id), { ...form, ...change });
      expect(res.statusCode, JSON.stringify(change)).toBe(400);
      expect(res.body, JSON.stringify(change)).toContain(field);
    }
    expect(await snapshot(row.id)).toEqual(before);
    // 'Patient Number not available' lifts the mobile rule.
    expectStatus(
      await browser.post(updateDetails(row.id), {
        ...form,
        mobileNumber: '',
        patientNumberNotAvailable: true,
      }),
      200,
    );
  });

  it("asks 'Please select study type' when billing applies, and takes a study type of the group", async () => {
    const world = await createWorld({ needBilling: true });
    await addStudyTypes(world.group.id, 'CT Head', 'CT Chest');
    const row = await createStudy(world);
    const { browser } = await signIn(world, ['ROLE_CENTER']);
    const before = await snapshot(row.id);
    const missing = await browser.post(updateDetails(row.id), form);
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toMatchObject({
      errorDescription: 'Please select study type',
      additionalInfo: 'reportParts',
    });
    const unknown = await browser.post(updateDetails(row.id), { ...form, reportParts: ['MR Knee'] });
    expect(unknown.statusCode).toBe(400);
    expect(await snapshot(row.id)).toEqual(before);
    const detail = expectStatus(
      await browser.post(updateDetails(row.id), { ...form, reportParts: ['CT Head'] }),
      200,
    );
    expect(detail.reportStudyPart).toEqual(['CT Head']);
  });

  it("asks 'Please select a referring doctor' in the sharing mode, where patient fields are optional", async () => {
    const world = await createWorld({ sharingDetailBeforeSend: true });
    const row = await createStudy(world);
    const { browser } = await signIn(world, ['ROLE_CENTER_CUSTOMER']);
    const referring = await createTestUser(t.db, {
      roles: ['ROLE_REFERRING_DOCTOR'],
      groupId: world.group.id,
    });
    const bare = { mobileNumber: '', patientNumberNotAvailable: true };
    const refused = await browser.post(updateDetails(row.id), bare);
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ errorDescription: 'Please select a referring doctor' });
    const detail = expectStatus(
      await browser.post(updateDetails(row.id), { ...bare, referringDoctorEmail: referring.email }),
      200,
    );
    expect(detail).toMatchObject({ referringDoctor: referring.email, status: 'HISTORY_CREATED' });
  });

  it('keeps the history of a SIGNED_OFF study (409 on a change) and the study type of a LOCKED one for a center', async () => {
    const world = await createWorld();
    await addStudyTypes(world.group.id, 'CT Head', 'CT Chest');
    const signedOff = await createStudy(world, { status: 'SIGNED_OFF', history: 'Old history' });
    const locked = await createStudy(world, { status: 'LOCKED', history: 'Old', studyParts: ['CT Head'] });
    const { browser: center } = await signIn(world, ['ROLE_CENTER']);
    const before = await snapshot(signedOff.id);
    const res = await center.post(updateDetails(signedOff.id), form);
    expect(res.statusCode).toBe(409);
    expect(res.body).toContain('SIGNED_OFF');
    expect(await snapshot(signedOff.id)).toEqual(before);
    // The same form with the history left as it is goes through.
    expectStatus(await center.post(updateDetails(signedOff.id), { ...form, history: 'Old history' }), 200);

    const beforeLocked = await snapshot(locked.id);
    const typeChange = await center.post(updateDetails(locked.id), {
      ...form,
      history: 'Old',
      reportParts: ['CT Chest'],
    });
    expect(typeChange.statusCode).toBe(409);
    expect(typeChange.body).toContain('LOCKED');
    expect(await snapshot(locked.id)).toEqual(beforeLocked);
  });

  it('is 403 for a doctor and 409 on a DELETED study', async () => {
    const world = await createWorld();
    const { browser: doctor, user } = await signIn(world, ['ROLE_DOCTOR']);
    const row = await createStudy(world, { assignedToUserId: user.id });
    const deleted = await createStudy(world, { status: 'DELETED' });
    const { browser: center } = await signIn(world, ['ROLE_CENTER']);
    const before = await snapshot(row.id);
    expect((await doctor.post(updateDetails(row.id), form)).statusCode).toBe(403);
    expect(await snapshot(row.id)).toEqual(before);
    const res = await center.post(updateDetails(deleted.id), form);
    expect(res.statusCode).toBe(409);
    expect(res.body).toContain('DELETED');
  });
});

describe('POST /tele-pricing/add-study-part {reportStatusId, reportParts}', () => {
  it('sets the study types for a tele-radiology user, with a timeline row', async () => {
    const world = await createWorld();
    await addStudyTypes(world.group.id, 'CT Head', 'CT Chest');
    const row = await createStudy(world, { status: 'SIGNED_OFF' });
    const { browser } = await signIn(world, ['ROLE_TELE_RADIOLOGY']);
    const detail = expectStatus(
      await browser.post('/api/tele-pricing/add-study-part', {
        reportStatusId: row.id,
        reportParts: ['CT Head', 'CT Chest'],
      }),
      200,
    );
    expect(detail.reportStudyPart).toEqual(['CT Head', 'CT Chest']);
    expect((await readEvents(row.id)).map((e) => [e.eventType, e.detail])).toEqual([
      ['STUDY_PARTS_UPDATED', { from: [], to: ['CT Head', 'CT Chest'] }],
    ]);
  });

  it('is 403 for a doctor, 409 for a center on SIGNED_OFF, 400 for an unknown type', async () => {
    const world = await createWorld();
    await addStudyTypes(world.group.id, 'CT Head');
    const { browser: doctor, user } = await signIn(world, ['ROLE_DOCTOR']);
    const row = await createStudy(world, { status: 'SIGNED_OFF', assignedToUserId: user.id });
    const { browser: center } = await signIn(world, ['ROLE_CENTER']);
    const { browser: biller } = await signIn(world, ['ROLE_BILLER']);
    const before = await snapshot(row.id);
    const body = (reportParts: string[]) => ({ reportStatusId: row.id, reportParts });
    expect((await doctor.post('/api/tele-pricing/add-study-part', body(['CT Head']))).statusCode).toBe(403);
    const conflict = await center.post('/api/tele-pricing/add-study-part', body(['CT Head']));
    expect(conflict.statusCode).toBe(409);
    expect(conflict.body).toContain('SIGNED_OFF');
    expect((await biller.post('/api/tele-pricing/add-study-part', body(['MR Knee']))).statusCode).toBe(400);
    expect((await biller.post('/api/tele-pricing/add-study-part', body([]))).statusCode).toBe(400);
    expect(await snapshot(row.id)).toEqual(before);
  });
});

describe('GET /user/study-type', () => {
  it("lists the caller's group's study types", async () => {
    const world = await createWorld();
    await addStudyTypes(world.group.id, 'CT Head');
    await addStudyTypes((await createWorld()).group.id, 'Other group type');
    const { browser } = await signIn(world, ['ROLE_CENTER']);
    const res = await browser.get('/api/user/study-type');
    expect(res.statusCode).toBe(200);
    expect(res.json<Array<{ name: string }>>().map((s) => s.name)).toEqual(['CT Head']);
  });
});
