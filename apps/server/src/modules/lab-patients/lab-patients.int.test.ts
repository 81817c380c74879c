import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LAB_PATIENT_MESSAGES as M, type TLabPatient, type TLabPatientPage, type TRole } from '@radflow/core';
import { EXACT_COUNT_LIMIT } from '../../db/estimated-total.js';
import { labAuditEvents, labPatients, labPrefixes } from '../../db/schema.js';
import {
  type TestApp,
  type TestClient,
  createTestApp,
  createTestCenter,
  createTestGroup,
} from '../../../test/test-app.js';
import { signedIn } from '../../../test/worklist-test-data.js';

/**
 * POST/PUT /api/lab/register-patient, GET /api/lab/register-patient/:id, the two patient searches
 * (spec-lab §5 Patient, §7; issue 25 §1): the rules and messages, the UHID from the lab's prefix and
 * sequence, one lab never seeing another's patients, and no lost update.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const newLab = async () => {
  const groupId = (await createTestGroup(t.db)).id;
  const centerId = (await createTestCenter(t.db, { groupId })).id;
  return { groupId, centerId };
};
const as = async (roles: TRole[], lab: { groupId: number; centerId: number | null }) =>
  (await signedIn(t, { roles, groupId: lab.groupId, centerId: lab.centerId })).browser;
const put = (browser: TestClient, url: string, payload: unknown) =>
  browser.request({ method: 'PUT', url, payload: payload as object });

const RAVI = { name: 'Ravi Kumar', designation: 'MR', gender: 'M', mobileNumber: '9876543210', ageYears: 34 };
const register = async (browser: TestClient, body: Record<string, unknown> = RAVI) => {
  const res = await browser.post('/api/lab/register-patient', body);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<TLabPatient>();
};
const patientsOf = (lab: { centerId: number }) =>
  t.db
    .select()
    .from(labPatients)
    .where(and(eq(labPatients.labScope, 'CENTER'), eq(labPatients.labOwnerId, lab.centerId)));

describe('registering a patient', () => {
  it('gets the UHID prefix + sequence, the age string, an audit row; the sequence moves on', async () => {
    const lab = await newLab();
    const supervisor = await as(['ROLE_LABS_SUPERVISOR'], lab);
    const prefix = { prefix: 'INV-', sequence: 1, uhidPrefix: 'UH/26/', uhidSequence: 41 };
    expect((await supervisor.post('/api/lab/add-prefix', prefix)).statusCode).toBe(200);
    const receptionist = await as(['ROLE_LABS_RECEPTIONIST'], lab);

    const ravi = await register(receptionist, { ...RAVI, name: '  Ravi Kumar ', email: '', ageMonths: 4 });
    expect(ravi).toMatchObject({
      uhidNumber: 'UH/26/41',
      name: 'Ravi Kumar',
      email: null,
      ageString: '34Y',
      ageYears: 34,
      ageMonths: 4,
      ageDays: 0,
      version: 1,
    });
    const baby = await register(supervisor, {
      name: 'Baby of Asha',
      designation: 'B/O',
      gender: 'F',
      ageDays: 12,
    });
    expect(baby).toMatchObject({ uhidNumber: 'UH/26/42', ageString: '12D', mobileNumber: null });
    expect((await supervisor.get('/api/lab/get-prefix')).json()).toMatchObject({ uhidSequence: 43 });

    const events = await t.db
      .select()
      .from(labAuditEvents)
      .where(and(eq(labAuditEvents.entity, 'PATIENT'), eq(labAuditEvents.entityId, ravi.id)));
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ action: 'CREATED', labScope: 'CENTER', labOwnerId: lab.centerId });
  });

  it('a lab without a prefix row gets one with the defaults: UHIDs 1, 2, …', async () => {
    const lab = await newLab();
    const receptionist = await as(['ROLE_LABS_RECEPTIONIST'], lab);
    expect((await register(receptionist)).uhidNumber).toBe('1');
    expect((await register(receptionist)).uhidNumber).toBe('2');
    const [row] = await t.db.select().from(labPrefixes).where(eq(labPrefixes.ownerId, lab.centerId));
    expect(row).toMatchObject({ scope: 'CENTER', prefix: '', sequence: 1, uhidPrefix: '', uhidSequence: 3 });
  });

  it('twenty patients registered at once get twenty consecutive UHIDs', async () => {
    const lab = await newLab();
    const supervisor = await as(['ROLE_LABS_SUPERVISOR'], lab);
    const prefix = { prefix: 'B', sequence: 1, uhidPrefix: 'P', uhidSequence: 1000 };
    expect((await supervisor.post('/api/lab/add-prefix', prefix)).statusCode).toBe(200);
    const desks = await Promise.all([
      as(['ROLE_LABS_RECEPTIONIST'], lab),
      as(['ROLE_LABS_RECEPTIONIST'], lab),
    ]);
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        desks[i % 2]!.post('/api/lab/register-patient', { ...RAVI, name: `Patient ${i}` }),
      ),
    );
    expect(answers.map((r) => r.statusCode)).toEqual(Array(20).fill(200));
    const uhids = answers.map((r) => r.json<TLabPatient>().uhidNumber).sort();
    expect(uhids).toEqual(Array.from({ length: 20 }, (_, i) => `P${1000 + i}`).sort());
    expect((await supervisor.get('/api/lab/get-prefix')).json()).toMatchObject({ uhidSequence: 1020 });
  });

  it('a sequence set back below given numbers skips the UHIDs the lab already has', async () => {
    const lab = await newLab();
    const supervisor = await as(['ROLE_LABS_SUPERVISOR'], lab);
    const prefix = { prefix: 'B', sequence: 1, uhidPrefix: 'U', uhidSequence: 7 };
    expect((await supervisor.post('/api/lab/add-prefix', prefix)).statusCode).toBe(200);
    await register(supervisor);
    await register(supervisor);
    expect((await supervisor.post('/api/lab/add-prefix', prefix)).statusCode).toBe(200);
    expect((await register(supervisor)).uhidNumber).toBe('U9');
  });

  it('two labs number on their own; a lab user without a center is the group lab', async () => {
    const lab = await newLab();
    const other = {
      groupId: lab.groupId,
      centerId: (await createTestCenter(t.db, { groupId: lab.groupId })).id,
    };
    expect((await register(await as(['ROLE_LABS_RECEPTIONIST'], lab))).uhidNumber).toBe('1');
    expect((await register(await as(['ROLE_LABS_RECEPTIONIST'], other))).uhidNumber).toBe('1');
    const groupDesk = await as(['ROLE_LABS_RECEPTIONIST'], { groupId: lab.groupId, centerId: null });
    const groupPatient = await register(groupDesk);
    expect(groupPatient.uhidNumber).toBe('1');
    const [row] = await t.db.select().from(labPatients).where(eq(labPatients.id, groupPatient.id));
    expect(row).toMatchObject({ labScope: 'GROUP', labOwnerId: lab.groupId });
  });
});

describe('refused input answers 400 with the spec message and stores nothing', () => {
  let lab: { groupId: number; centerId: number };
  let desk: TestClient;
  beforeAll(async () => {
    lab = await newLab();
    desk = await as(['ROLE_LABS_RECEPTIONIST'], lab);
  });

  it.each([
    ['no name', { ...RAVI, name: '' }, M.nameRequired, 'name'],
    ['no designation', { ...RAVI, designation: undefined }, M.designationRequired, 'designation'],
    ['no gender', { ...RAVI, gender: null }, M.genderRequired, 'gender'],
    ['a mobile of 9 digits', { ...RAVI, mobileNumber: '987654321' }, M.mobileInvalid, 'mobileNumber'],
    ['a mobile starting 5', { ...RAVI, mobileNumber: '5876543210' }, M.mobileInvalid, 'mobileNumber'],
    ['a negative age', { ...RAVI, ageMonths: -2 }, M.ageNegative, 'ageMonths'],
    ['an age of text', { ...RAVI, ageYears: 'old' }, M.ageInvalid, 'ageYears'],
  ])('%s', async (_name, body, message, field) => {
    const res = await desk.post('/api/lab/register-patient', body);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toMatchObject({ errorDescription: message, additionalInfo: field });
    expect(await patientsOf(lab)).toHaveLength(0);
  });

  it('an age above the limits is kept at the limit (spec-lab §5 clamps)', async () => {
    const p = await register(desk, { ...RAVI, ageYears: 200, ageMonths: 15, ageDays: 45 });
    expect(p).toMatchObject({ ageYears: 150, ageMonths: 11, ageDays: 30, ageString: '150Y' });
  });
});

describe('editing a patient', () => {
  it('saves the fields (UHID kept, version up, audit of what changed); a stale version gets 409 and changes nothing', async () => {
    const lab = await newLab();
    const first = await as(['ROLE_LABS_RECEPTIONIST'], lab);
    const second = await as(['ROLE_LABS_SUPERVISOR'], lab);
    const p = await register(first);
    const edit = { ...RAVI, id: p.id, version: p.version, name: 'Ravi K', ageYears: 0, ageMonths: 5 };
    const res = await put(first, '/api/lab/register-patient', edit);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      uhidNumber: p.uhidNumber,
      name: 'Ravi K',
      ageString: '5M',
      version: 2,
    });

    const stale = await put(second, '/api/lab/register-patient', { ...edit, name: 'Lost update' });
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toMatchObject({ errorDescription: M.stale });
    expect((await second.get(`/api/lab/register-patient/${p.id}`)).json()).toMatchObject({ name: 'Ravi K' });

    const events = await t.db
      .select()
      .from(labAuditEvents)
      .where(and(eq(labAuditEvents.entity, 'PATIENT'), eq(labAuditEvents.entityId, p.id)));
    expect(events.map((e) => e.action)).toEqual(['CREATED', 'UPDATED']);
    expect(Object.keys(events[1]!.detail.changed as object).sort()).toEqual([
      'ageMonths',
      'ageString',
      'ageYears',
      'name',
    ]);
  });

  it('a bad edit is 400 and the patient stays as it was', async () => {
    const lab = await newLab();
    const desk = await as(['ROLE_LABS_RECEPTIONIST'], lab);
    const p = await register(desk);
    const res = await put(desk, '/api/lab/register-patient', {
      ...RAVI,
      id: p.id,
      version: 1,
      mobileNumber: '123',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ errorDescription: M.mobileInvalid });
    expect((await desk.get(`/api/lab/register-patient/${p.id}`)).json()).toEqual(p);
  });
});

describe('one lab never sees another lab’s patients', () => {
  it('another center of the group and another group: 404 on read and edit, absent from both searches', async () => {
    const lab = await newLab();
    const desk = await as(['ROLE_LABS_RECEPTIONIST'], lab);
    const p = await register(desk, { ...RAVI, name: 'Zubin Mehta', mobileNumber: '9123456789' });
    const sibling = await as(['ROLE_LABS_SUPERVISOR'], {
      groupId: lab.groupId,
      centerId: (await createTestCenter(t.db, { groupId: lab.groupId })).id,
    });
    const stranger = await as(['ROLE_LABS_SUPERVISOR'], await newLab());
    for (const other of [sibling, stranger]) {
      expect((await other.get(`/api/lab/register-patient/${p.id}`)).statusCode).toBe(404);
      const edit = await put(other, '/api/lab/register-patient', { ...RAVI, id: p.id, version: 1 });
      expect(edit.statusCode).toBe(404);
      expect(edit.body).not.toContain('Zubin');
      expect((await other.post('/api/lab/register-patient/search', { name: 'zubin' })).json()).toEqual([]);
      expect(
        (await other.post('/api/lab/register-patient/search', { mobileNumber: '91234' })).json(),
      ).toEqual([]);
      const page = (await other.post('/api/lab/all-patient/search', {})).json<TLabPatientPage>();
      expect(page.totalElements).toBe(0);
    }
    expect((await desk.get(`/api/lab/register-patient/${p.id}`)).json()).toMatchObject({
      name: 'Zubin Mehta',
    });
  });

  it('roles without the lab menu get 403 on every call', async () => {
    const lab = await newLab();
    const calls: Array<[string, string, unknown]> = [
      ['POST', '/api/lab/register-patient', RAVI],
      ['PUT', '/api/lab/register-patient', { ...RAVI, id: 1, version: 1 }],
      ['GET', '/api/lab/register-patient/1', undefined],
      ['POST', '/api/lab/register-patient/search', { name: 'ra' }],
      ['POST', '/api/lab/all-patient/search', {}],
    ];
    for (const roles of [['ROLE_CENTER'], ['ROLE_DOCTOR'], ['ROLE_ADMIN'], ['ROLE_GROUP']] as TRole[][]) {
      const browser = await as(roles, lab);
      for (const [method, url, payload] of calls) {
        const res = await browser.request({
          method: method as 'GET',
          url,
          ...(payload === undefined ? {} : { payload: payload as object }),
        });
        expect(res.statusCode, `${roles[0]} ${method} ${url}`).toBe(403);
      }
    }
    expect(await patientsOf(lab)).toHaveLength(0);
  });
});

describe('the searches', () => {
  let desk: TestClient;
  const names = [
    ['Priya Sharma', '9811111111', 'F', 'MS'],
    ['Pritam Singh', '9822222222', 'M', 'MR'],
    ['Rahul Sharma', '9711111111', 'M', 'MR'],
    ['Anita Desai', '8811111111', 'F', 'MRS'],
    ['priyanka 100%_off', '6111111111', 'F', 'MISS'],
  ] as const;
  beforeAll(async () => {
    desk = await as(['ROLE_LABS_RECEPTIONIST'], await newLab());
    for (const [name, mobileNumber, gender, designation] of names) {
      await register(desk, {
        name,
        mobileNumber,
        gender,
        designation: designation === 'MS' ? 'MISS' : designation,
      });
    }
  });
  const asYouType = async (body: unknown) => {
    const res = await desk.post('/api/lab/register-patient/search', body);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<TLabPatient[]>().map((p) => p.name);
  };

  it('as you type: a name prefix from the first letter, in name order; a surname from 3 letters', async () => {
    expect(await asYouType({ name: 'p' })).toEqual(['Pritam Singh', 'Priya Sharma', 'priyanka 100%_off']);
    expect(await asYouType({ name: 'PRI' })).toEqual(['Pritam Singh', 'Priya Sharma', 'priyanka 100%_off']);
    expect(await asYouType({ name: 'sh' })).toEqual([]);
    expect(await asYouType({ name: 'sha' })).toEqual(
      expect.arrayContaining(['Priya Sharma', 'Rahul Sharma']),
    );
    expect(await asYouType({ name: 'pri%a' })).toEqual([]);
    expect(await asYouType({ name: 'priyanka 100%_' })).toEqual(['priyanka 100%_off']);
    expect(await asYouType({ name: 'pri_' })).toEqual([]);
  });

  it('as you type: a mobile prefix; blank text and non-digits find nothing', async () => {
    expect(await asYouType({ mobileNumber: '98' })).toEqual(['Priya Sharma', 'Pritam Singh']);
    expect(await asYouType({ mobileNumber: '9711111111' })).toEqual(['Rahul Sharma']);
    expect(await asYouType({ mobileNumber: '9a' })).toEqual([]);
    expect(await asYouType({ name: '   ' })).toEqual([]);
    expect(await asYouType({})).toEqual([]);
  });

  it('the all-patients list: filters, paging, sort, total', async () => {
    const list = async (body: unknown) => {
      const res = await desk.post('/api/lab/all-patient/search', body);
      expect(res.statusCode, res.body).toBe(200);
      return res.json<TLabPatientPage>();
    };
    const all = await list({ orderingCriteria: 'name', sortOrder: 'ASC', size: 2 });
    expect(all.totalElements).toBe(5);
    expect(all.totalPages).toBe(3);
    expect(all.content.map((p) => p.name)).toEqual(['Anita Desai', 'Pritam Singh']);
    const page2 = await list({ orderingCriteria: 'name', sortOrder: 'ASC', size: 2, page: 1 });
    expect(page2.content.map((p) => p.name)).toEqual(['Priya Sharma', 'priyanka 100%_off']);
    expect((await list({ name: 'sharma' })).content.map((p) => p.name)).toEqual([
      'Rahul Sharma',
      'Priya Sharma',
    ]);
    expect((await list({ mobileNumber: '88' })).content.map((p) => p.name)).toEqual(['Anita Desai']);
    expect((await list({ gender: 'F', designation: 'MISS' })).totalElements).toBe(2);
    const first = (await list({ orderingCriteria: 'id', sortOrder: 'ASC', size: 1 })).content[0]!;
    expect((await list({ uhidNumber: first.uhidNumber })).content.map((p) => p.id)).toContain(first.id);
    const bad = await desk.post('/api/lab/all-patient/search', { orderingCriteria: 'password' });
    expect(bad.statusCode).toBe(400);
  });
});

describe('the total of a long all-patients list', () => {
  it(`counts up to ${EXACT_COUNT_LIMIT} patients exactly and about how many beyond, exact at the end`, async () => {
    const lab = await newLab();
    const desk = await as(['ROLE_LABS_RECEPTIONIST'], lab);
    const ravi = await register(desk);
    const extra = EXACT_COUNT_LIMIT + 50;
    await t.db.execute(
      sql`insert into lab_patients (group_id, lab_scope, lab_owner_id, uhid_number, name, gender, designation, created_by)
          select ${lab.groupId}, 'CENTER', ${lab.centerId}, 'BULK-' || n, 'Bulk Patient ' || n, 'F', 'MRS', 'test'
          from generate_series(1, ${extra}) n`,
    );
    const patients = extra + 1;
    const list = async (body: Record<string, unknown>) => {
      const res = await desk.post('/api/lab/all-patient/search', body);
      expect(res.statusCode, res.body).toBe(200);
      return res.json<TLabPatientPage>();
    };

    // Before and after the planner's statistics know the rows: whichever way the call goes (counted
    // up to the cap, or the estimate), the long list says "more than the cap" and pages normally.
    for (const analyzed of [false, true]) {
      if (analyzed) await t.db.execute(sql`analyze lab_patients`);
      const first = await list({ sortOrder: 'ASC' });
      expect(first.totalElements).toBeGreaterThan(EXACT_COUNT_LIMIT);
      expect(first.numberOfElements).toBe(20);
      expect(first.content[0]?.id).toBe(ravi.id);
      // A filtered list stays exact.
      expect((await list({ name: 'Ravi' })).totalElements).toBe(1);

      const lastPage = Math.floor(patients / 20);
      const beforeLast = await list({ page: lastPage - 1 });
      expect(beforeLast.numberOfElements).toBe(20);
      expect(beforeLast.totalElements).toBeGreaterThan(lastPage * 20);
      const last = await list({ page: lastPage });
      expect(last).toMatchObject({ totalElements: patients, numberOfElements: patients % 20, last: true });
      const beyond = await list({ page: lastPage + 3 });
      expect(beyond).toMatchObject({ totalElements: patients, numberOfElements: 0 });
    }
  });
});
