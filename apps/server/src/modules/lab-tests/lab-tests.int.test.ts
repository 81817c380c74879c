import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { LAB_TEST_MESSAGES as M, type TLabTest, type TRole } from '@radflow/core';
import { labAuditEvents, labTests } from '../../db/schema.js';
import {
  type TestApp,
  type TestClient,
  createTestApp,
  createTestCenter,
  createTestGroup,
  setGroupPreference,
} from '../../../test/test-app.js';
import { signedIn } from '../../../test/worklist-test-data.js';

/**
 * POST/PUT /api/lab/test and GET /api/lab/test/get-all (spec-lab §5 Test, §6, §7): the supervisor
 * keeps the lab's catalogue; the rules of core lab/tests.ts hold on the server; one lab never sees
 * or touches another's tests.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

async function lab(opts: { switches?: Record<string, boolean> } = {}) {
  const group = await createTestGroup(t.db);
  if (opts.switches) await setGroupPreference(t.db, group.id, 'GROUP_SWITCHES', opts.switches);
  const center = await createTestCenter(t.db, { groupId: group.id });
  const at = async (roles: TRole[], centerId: number | null = center.id) =>
    (await signedIn(t, { roles, groupId: group.id, centerId })).browser;
  return { group, center, at, supervisor: await at(['ROLE_LABS_SUPERVISOR']) };
}

const put = (browser: TestClient, url: string, payload: unknown) =>
  browser.request({ method: 'PUT', url, payload: payload as object });

const normal = (code: string, extra: Record<string, unknown> = {}) => ({
  testCode: code,
  testName: `Test ${code}`,
  testType: 'NORMAL',
  labModality: 'CT',
  price: 1500.5,
  ...extra,
});

async function create(browser: TestClient, body: unknown): Promise<TLabTest> {
  const res = await browser.post('/api/lab/test', body);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<TLabTest>();
}

const errorOf = (res: { statusCode: number; json<T>(): T }) => [
  res.statusCode,
  res.json<{ errorDescription: string }>().errorDescription,
];

describe('create', () => {
  it('the supervisor creates a NORMAL test: RADIOLOGY by default, active, price in rupees, audited', async () => {
    const { supervisor, at } = await lab();
    const test = await create(supervisor, normal('CT01'));
    expect(test).toMatchObject({
      testCode: 'CT01',
      testType: 'NORMAL',
      department: 'RADIOLOGY',
      price: 1500.5,
      active: true,
      labTestsIds: [],
      version: 1,
    });
    const [row] = await t.db.select().from(labTests).where(eq(labTests.id, test.id));
    expect(row!.priceMinor).toBe(150050);
    const audit = await t.db
      .select()
      .from(labAuditEvents)
      .where(and(eq(labAuditEvents.entity, 'LAB_TEST'), eq(labAuditEvents.entityId, test.id)));
    expect(audit.map((a) => a.action)).toEqual(['CREATE']);

    const receptionist = await at(['ROLE_LABS_RECEPTIONIST']);
    const all = await receptionist.get('/api/lab/test/get-all');
    expect(all.statusCode).toBe(200);
    expect(all.json<TLabTest[]>().map((x) => x.testCode)).toEqual(['CT01']);
  });

  it.each([
    ['no type', { testType: undefined }, M.typeRequired],
    ['no modality', { labModality: undefined }, M.modalityRequired],
    ['no code', { testCode: ' ' }, M.codeRequired],
    ['no name', { testName: '' }, M.nameRequired],
    ['inactive at creation', { active: false }, M.cannotDeactivateOnCreate],
    ['an extra modality with the switch off', { labModality: 'NM' }, M.modalityNotOffered],
    ['an unknown department', { department: 'ORTHO' }, M.departmentUnknown],
    ['a normal test with members', { labTestsIds: [1] }, M.normalHasNoMembers],
  ])('400 for %s', async (_name, extra, message) => {
    const { supervisor } = await lab();
    const res = await supervisor.post('/api/lab/test', normal('X1', extra));
    expect(errorOf(res)).toEqual([400, message]);
  });

  it("NM with showExtraModalityType on; a department of the lab's list", async () => {
    const { supervisor, at } = await lab({ switches: { showExtraModalityType: true } });
    const center = await at(['ROLE_CENTER']);
    const saved = await center.post('/api/setting/update/LAB_DEPARTMENTS', { labDepartmentList: ['cardio'] });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(
      await create(supervisor, normal('NM1', { labModality: 'NM', department: 'Cardio' })),
    ).toMatchObject({
      labModality: 'NM',
      department: 'CARDIO',
    });
  });

  it('a duplicate code in any case gets 409 naming the code, never a 500; another lab may use it', async () => {
    const { supervisor, group, at } = await lab();
    await create(supervisor, normal('usg-1'));
    const res = await supervisor.post('/api/lab/test', normal('USG-1'));
    expect(errorOf(res)).toEqual([409, M.duplicateCode('USG-1')]);
    // Two creates at once: one wins, the other is the same 409.
    const racing = await Promise.all([
      supervisor.post('/api/lab/test', normal('RACE')),
      supervisor.post('/api/lab/test', normal('race')),
    ]);
    expect(racing.map((r) => r.statusCode).sort()).toEqual([200, 409]);

    const otherCenter = await createTestCenter(t.db, { groupId: group.id });
    await create(await at(['ROLE_LABS_SUPERVISOR'], otherCenter.id), normal('USG-1'));
    await create((await lab()).supervisor, normal('USG-1'));
  });

  it('403 for the receptionist and for roles without the lab menu', async () => {
    const { at } = await lab();
    for (const roles of [['ROLE_LABS_RECEPTIONIST'], ['ROLE_CENTER'], ['ROLE_DOCTOR']] as TRole[][]) {
      const browser = await at(roles);
      expect((await browser.post('/api/lab/test', normal('Z1'))).statusCode).toBe(403);
    }
    for (const roles of [['ROLE_CENTER'], ['ROLE_DOCTOR'], ['ROLE_GROUP']] as TRole[][]) {
      const browser = await at(roles);
      expect((await browser.get('/api/lab/test/get-all')).statusCode).toBe(403);
      expect((await browser.post('/api/lab/all-test/get', {})).statusCode).toBe(403);
      expect((await browser.post('/api/lab/test/search', {})).statusCode).toBe(403);
    }
  });
});

describe('packages', () => {
  it('a package of NORMAL tests of the lab, at least one; never itself, a package, or another lab’s test', async () => {
    const { supervisor, group, at } = await lab();
    const a = await create(supervisor, normal('A'));
    const b = await create(supervisor, normal('B'));
    const pkg = await create(supervisor, normal('PKG', { testType: 'PACKAGE', labTestsIds: [b.id, a.id] }));
    expect(pkg.labTestsIds).toEqual([b.id, a.id]);

    const otherCenter = await createTestCenter(t.db, { groupId: group.id });
    const foreign = await create(await at(['ROLE_LABS_SUPERVISOR'], otherCenter.id), normal('F'));
    for (const [ids, message] of [
      [[], M.packageNeedsMembers],
      [[a.id, pkg.id], M.packageMemberNotNormal],
      [[a.id, foreign.id], M.packageMemberNotNormal],
    ] as const) {
      const res = await supervisor.post(
        '/api/lab/test',
        normal('P2', { testType: 'PACKAGE', labTestsIds: ids }),
      );
      expect(errorOf(res)).toEqual([400, message]);
    }
    const self = await put(supervisor, '/api/lab/test', { ...pkg, labTestsIds: [pkg.id] });
    expect(errorOf(self)).toEqual([400, M.packageContainsItself]);

    const edited = await put(supervisor, '/api/lab/test', { ...pkg, labTestsIds: [a.id] });
    expect(edited.statusCode, edited.body).toBe(200);
    const all = (await supervisor.get('/api/lab/test/get-all')).json<TLabTest[]>();
    expect(all.find((x) => x.id === pkg.id)!.labTestsIds).toEqual([a.id]);
  });
});

describe('update', () => {
  it('changes the test, bumps the version; a stale version gets 409 and nothing is lost', async () => {
    const { supervisor } = await lab();
    const test = await create(supervisor, normal('U1'));
    const first = await put(supervisor, '/api/lab/test', {
      ...test,
      testName: 'Renamed',
      price: 99.99,
      active: false,
    });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toMatchObject({ testName: 'Renamed', price: 99.99, active: false, version: 2 });

    const stale = await put(supervisor, '/api/lab/test', { ...test, testName: 'Lost' });
    expect(errorOf(stale)).toEqual([409, M.stale]);
    const all = (await supervisor.get('/api/lab/test/get-all')).json<TLabTest[]>();
    expect(all[0]).toMatchObject({ testName: 'Renamed', version: 2 });
    const actions = await t.db
      .select({ action: labAuditEvents.action })
      .from(labAuditEvents)
      .where(and(eq(labAuditEvents.entity, 'LAB_TEST'), eq(labAuditEvents.entityId, test.id)));
    expect(actions.map((a) => a.action)).toEqual(['CREATE', 'DEACTIVATE']);
  });

  it('the type cannot change (400); a code taken by another test is 409', async () => {
    const { supervisor } = await lab();
    const a = await create(supervisor, normal('T1'));
    await create(supervisor, normal('T2'));
    expect(
      errorOf(await put(supervisor, '/api/lab/test', { ...a, testType: 'PACKAGE', labTestsIds: [] })),
    ).toEqual([400, M.typeNotEditable]);
    expect(errorOf(await put(supervisor, '/api/lab/test', { ...a, testCode: 't2' }))).toEqual([
      409,
      M.duplicateCode('t2'),
    ]);
    // Its own code in another case is not a duplicate.
    expect((await put(supervisor, '/api/lab/test', { ...a, testCode: 't1' })).statusCode).toBe(200);
  });

  it("another lab's test is 404 (another center, another group), never changed", async () => {
    const { supervisor, group, at } = await lab();
    const test = await create(supervisor, normal('O1'));
    const otherCenter = await createTestCenter(t.db, { groupId: group.id });
    const neighbours = [await at(['ROLE_LABS_SUPERVISOR'], otherCenter.id), (await lab()).supervisor];
    for (const browser of neighbours) {
      const res = await put(browser, '/api/lab/test', { ...test, testName: 'Hijacked' });
      expect(res.statusCode).toBe(404);
      expect((await browser.get('/api/lab/test/get-all')).json()).toEqual([]);
    }
    const [row] = await t.db.select().from(labTests).where(eq(labTests.id, test.id));
    expect(row!.testName).toBe('Test O1');
  });

  it('a test made with NM stays editable after the switch is turned off, while its modality is kept', async () => {
    const { supervisor, group } = await lab({ switches: { showExtraModalityType: true } });
    const test = await create(supervisor, normal('NM2', { labModality: 'NM' }));
    await setGroupPreference(t.db, group.id, 'GROUP_SWITCHES', { showExtraModalityType: false });
    expect((await put(supervisor, '/api/lab/test', { ...test, testName: 'Bone scan' })).statusCode).toBe(200);
    // Its kept modality does not hide a new department that is not the lab's.
    const current = (await supervisor.get('/api/lab/test/get-all')).json<TLabTest[]>()[0]!;
    expect(errorOf(await put(supervisor, '/api/lab/test', { ...current, department: 'ORTHO' }))).toEqual([
      400,
      M.departmentUnknown,
    ]);
    const other = await create(supervisor, normal('CT9'));
    expect(errorOf(await put(supervisor, '/api/lab/test', { ...other, labModality: 'NM' }))).toEqual([
      400,
      M.modalityNotOffered,
    ]);
  });
});

describe('bad input is a 400, never a 500', () => {
  it('an id or a member id from 2^31 up is 400 naming the field', async () => {
    const { supervisor } = await lab();
    const test = await create(supervisor, normal('BIG'));
    const tooBig = 2 ** 31;
    const put1 = await put(supervisor, '/api/lab/test', { ...test, id: tooBig });
    expect([put1.statusCode, put1.json<{ additionalInfo: string }>().additionalInfo]).toEqual([400, 'id']);
    const post = await supervisor.post(
      '/api/lab/test',
      normal('P9', { testType: 'PACKAGE', labTestsIds: [tooBig] }),
    );
    expect(post.statusCode).toBe(400);
    expect(post.json<{ additionalInfo: string }>().additionalInfo).toMatch(/^labTestsIds/);
  });
});
