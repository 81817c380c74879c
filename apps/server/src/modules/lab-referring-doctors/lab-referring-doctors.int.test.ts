import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  REFERRING_DOCTOR_MESSAGES as M,
  type TReferringDoctor,
  type TReferringDoctorPage,
  type TRole,
  unknownDepartmentMessage,
} from '@radflow/core';
import { labAuditEvents, labReferringDoctors } from '../../db/schema.js';
import { savePreferenceSection } from '../preferences/preferences.js';
import {
  type TestApp,
  type TestClient,
  createTestApp,
  createTestCenter,
  createTestGroup,
} from '../../../test/test-app.js';
import { signedIn } from '../../../test/worklist-test-data.js';

/**
 * POST/PUT /api/lab/referring-doctor and POST /api/lab/referring-doctor/search (spec-lab §4, §5
 * Referring doctor, §7): created active, department None is none, one of the lab's referring doctor
 * departments and fixed once set, no lost update, one lab never seeing another's doctors.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const newLab = async (departments: string[] = ['CARDIOLOGY', 'ORTHOPAEDICS']) => {
  const groupId = (await createTestGroup(t.db)).id;
  const centerId = (await createTestCenter(t.db, { groupId })).id;
  // The center keeps its lab departments (settings LAB_DEPARTMENTS, a center section).
  await savePreferenceSection(t.db, {
    ownerId: centerId,
    scope: 'CENTER',
    section: 'LAB_DEPARTMENTS',
    value: { labDepartmentList: ['RADIOLOGY'], referringDoctorDepartmentList: departments },
    updatedBy: 'test',
  });
  return { groupId, centerId };
};
const as = async (roles: TRole[], lab: { groupId: number; centerId: number | null }) =>
  (await signedIn(t, { roles, groupId: lab.groupId, centerId: lab.centerId })).browser;
const put = (browser: TestClient, payload: unknown) =>
  browser.request({ method: 'PUT', url: '/api/lab/referring-doctor', payload: payload as object });
const create = async (browser: TestClient, body: Record<string, unknown>) => {
  const res = await browser.post('/api/lab/referring-doctor', body);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<TReferringDoctor>();
};
const search = async (browser: TestClient, body: unknown) => {
  const res = await browser.post('/api/lab/referring-doctor/search', body);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<TReferringDoctorPage>();
};
const doctorsOf = (lab: { centerId: number }) =>
  t.db
    .select()
    .from(labReferringDoctors)
    .where(and(eq(labReferringDoctors.labScope, 'CENTER'), eq(labReferringDoctors.labOwnerId, lab.centerId)));

describe('creating a referring doctor', () => {
  it('is active, department None is none, a lab department is kept; an audit row each', async () => {
    const lab = await newLab();
    const desk = await as(['ROLE_LABS_RECEPTIONIST'], lab);
    const rao = await create(desk, {
      name: ' Dr Anand Rao ',
      mobileNumber: '9876543210',
      department: 'None',
    });
    expect(rao).toMatchObject({ name: 'Dr Anand Rao', department: null, active: true, version: 1 });
    const sen = await create(desk, { name: 'Dr Bela Sen', department: 'cardiology', active: true });
    expect(sen).toMatchObject({ department: 'CARDIOLOGY', mobileNumber: null });
    const events = await t.db
      .select()
      .from(labAuditEvents)
      .where(and(eq(labAuditEvents.entity, 'REFERRING_DOCTOR'), eq(labAuditEvents.entityId, sen.id)));
    expect(events).toMatchObject([{ action: 'CREATED', actorEmail: expect.any(String) }]);
  });

  it.each([
    ['inactive at creation', { name: 'Dr X', active: false }, M.cannotDeactivateAtCreation, 'active'],
    ['no name', { name: ' ' }, M.nameRequired, 'name'],
    ['a bad mobile', { name: 'Dr X', mobileNumber: '12345' }, M.mobileInvalid, 'mobileNumber'],
    [
      'a department the lab does not list',
      { name: 'Dr X', department: 'ENT' },
      unknownDepartmentMessage('ENT'),
      'department',
    ],
  ])('%s is 400 with its message and stores nothing', async (_name, body, message, field) => {
    const lab = await newLab();
    const res = await (await as(['ROLE_LABS_SUPERVISOR'], lab)).post('/api/lab/referring-doctor', body);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toMatchObject({ errorDescription: message, additionalInfo: field });
    expect(await doctorsOf(lab)).toHaveLength(0);
  });
});

describe('editing a referring doctor', () => {
  it('a first department may be set; once set it cannot change; the toggle deactivates and activates', async () => {
    const lab = await newLab();
    const desk = await as(['ROLE_LABS_RECEPTIONIST'], lab);
    const d = await create(desk, { name: 'Dr Rao' });
    const withDept = await put(desk, { ...d, department: 'ORTHOPAEDICS', name: 'Dr A Rao' });
    expect(withDept.statusCode, withDept.body).toBe(200);
    const saved = withDept.json<TReferringDoctor>();
    expect(saved).toMatchObject({ department: 'ORTHOPAEDICS', name: 'Dr A Rao', version: 2 });

    for (const department of ['CARDIOLOGY', 'None', null]) {
      const res = await put(desk, { ...saved, department });
      expect(res.statusCode, String(department)).toBe(400);
      expect(res.json()).toMatchObject({ errorDescription: M.departmentFixed, additionalInfo: 'department' });
    }
    const off = await put(desk, { ...saved, active: false });
    expect(off.json()).toMatchObject({ active: false, version: 3, department: 'ORTHOPAEDICS' });
    const on = await put(desk, { ...off.json<TReferringDoctor>(), active: true });
    expect(on.json()).toMatchObject({ active: true, version: 4 });

    const events = await t.db
      .select({ action: labAuditEvents.action })
      .from(labAuditEvents)
      .where(and(eq(labAuditEvents.entity, 'REFERRING_DOCTOR'), eq(labAuditEvents.entityId, d.id)))
      .orderBy(labAuditEvents.id);
    expect(events.map((e) => e.action)).toEqual(['CREATED', 'UPDATED', 'DEACTIVATED', 'ACTIVATED']);
  });

  it('a stale version gets 409 and changes nothing; another lab gets 404', async () => {
    const lab = await newLab();
    const desk = await as(['ROLE_LABS_RECEPTIONIST'], lab);
    const d = await create(desk, { name: 'Dr Rao' });
    expect((await put(desk, { ...d, name: 'Dr First' })).statusCode).toBe(200);
    const stale = await put(desk, { ...d, name: 'Dr Second' });
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toMatchObject({ errorDescription: M.stale });
    const sibling = await as(['ROLE_LABS_SUPERVISOR'], {
      groupId: lab.groupId,
      centerId: (await createTestCenter(t.db, { groupId: lab.groupId })).id,
    });
    const stranger = await as(['ROLE_LABS_SUPERVISOR'], await newLab());
    for (const other of [sibling, stranger]) {
      const res = await put(other, { ...d, version: 2, name: 'Dr Hijack' });
      expect(res.statusCode).toBe(404);
      expect((await search(other, {})).totalElements).toBe(0);
    }
    const [row] = await doctorsOf(lab);
    expect(row).toMatchObject({ name: 'Dr First', version: 2 });
  });
});

describe('the search', () => {
  let desk: TestClient;
  beforeAll(async () => {
    desk = await as(['ROLE_LABS_RECEPTIONIST'], await newLab());
    await create(desk, { name: 'Dr Anand Rao', mobileNumber: '9876500001', department: 'CARDIOLOGY' });
    await create(desk, { name: 'Dr Bela Sen', mobileNumber: '9876500002' });
    const chetan = await create(desk, { name: 'Dr Chetan Rao', department: 'ORTHOPAEDICS' });
    expect((await put(desk, { ...chetan, active: false })).statusCode).toBe(200);
  });
  const names = (page: TReferringDoctorPage) => page.content.map((d) => d.name);

  it('without text lists every doctor by name, paged, with the total', async () => {
    const page = await search(desk, { criteria: { size: 2 } });
    expect(page.totalElements).toBe(3);
    expect(names(page)).toEqual(['Dr Anand Rao', 'Dr Bela Sen']);
    expect(names(await search(desk, { criteria: { size: 2, page: 1 } }))).toEqual(['Dr Chetan Rao']);
    expect(names(await search(desk, { criteria: { orderingCriteria: 'name', sortOrder: 'DESC' } }))).toEqual([
      'Dr Chetan Rao',
      'Dr Bela Sen',
      'Dr Anand Rao',
    ]);
  });

  it('by name piece, mobile prefix, departments and active (the picker asks active only)', async () => {
    expect(names(await search(desk, { mobileOrName: 'rao' }))).toEqual(['Dr Anand Rao', 'Dr Chetan Rao']);
    expect(names(await search(desk, { mobileOrName: 'rao', active: true }))).toEqual(['Dr Anand Rao']);
    expect(names(await search(desk, { mobileOrName: '98765000' }))).toEqual(['Dr Anand Rao', 'Dr Bela Sen']);
    expect(names(await search(desk, { departments: ['orthopaedics'] }))).toEqual(['Dr Chetan Rao']);
    expect(names(await search(desk, { active: false }))).toEqual(['Dr Chetan Rao']);
  });

  it('roles without the lab menu get 403 on every call', async () => {
    const lab = await newLab();
    for (const roles of [['ROLE_CENTER'], ['ROLE_DOCTOR'], ['ROLE_ADMIN']] as TRole[][]) {
      const browser = await as(roles, lab);
      expect((await browser.post('/api/lab/referring-doctor', { name: 'Dr X' })).statusCode).toBe(403);
      expect((await put(browser, { id: 1, version: 1, name: 'Dr X', active: true })).statusCode).toBe(403);
      expect((await browser.post('/api/lab/referring-doctor/search', {})).statusCode).toBe(403);
    }
    expect(await doctorsOf(lab)).toHaveLength(0);
  });
});
