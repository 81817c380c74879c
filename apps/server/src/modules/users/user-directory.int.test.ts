import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TRole } from '@radflow/core';
import {
  type TestApp,
  createTestApp,
  createTestCenter,
  createTestUser,
  uniqueMobile,
} from '../../../test/test-app.js';
import { createTestWorld, signedIn } from '../../../test/worklist-test-data.js';

/*
 * Security issue §3: GET /api/user/mapping gave patients, viewer accounts and referring doctors the
 * whole group directory, other patients' e-mails included. Each role gets the people its screens
 * pick (assign dialogs, typist gate, referring doctor pick, verification settings, chat assignment);
 * the roles that pick nobody get an empty mapping, and no one ever gets a patient's or viewer
 * account's e-mail or mobile.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

type TMapping = Record<string, Array<{ email: string; active: boolean }>>;

let world: Awaited<ReturnType<typeof createTestWorld>>;
const people = {} as Record<
  'doctor' | 'referring' | 'auditor' | 'otherCenter' | 'patient' | 'viewerAccount',
  { email: string; mobileNumber: string | null }
>;

beforeAll(async () => {
  world = await createTestWorld(t.db);
  const otherCenterId = (await createTestCenter(t.db, { groupId: world.group.id })).id;
  const g = world.group.id;
  people.doctor = await createTestUser(t.db, { groupId: g, roles: ['ROLE_DOCTOR'] });
  people.referring = await createTestUser(t.db, { groupId: g, roles: ['ROLE_REFERRING_DOCTOR'] });
  people.auditor = await createTestUser(t.db, { groupId: g, roles: ['ROLE_AUDITOR'] });
  people.otherCenter = await createTestUser(t.db, {
    groupId: g,
    roles: ['ROLE_CENTER'],
    centerId: otherCenterId,
  });
  people.patient = await createTestUser(t.db, {
    groupId: g,
    roles: ['ROLE_CUSTOMER'],
    mobileNumber: uniqueMobile(),
  });
  people.viewerAccount = await createTestUser(t.db, { groupId: g, roles: ['ROLE_VIEWER'] });
});

async function mappingOf(roles: TRole[], opts: { atCenter?: boolean } = {}): Promise<TMapping> {
  const { browser } = await signedIn(t, {
    roles,
    groupId: world.group.id,
    centerId: opts.atCenter ? world.center.id : null,
    mobileNumber: roles.includes('ROLE_CUSTOMER') ? uniqueMobile() : null,
  });
  const res = await browser.get('/api/user/mapping');
  expect(res.statusCode, res.body).toBe(200);
  return res.json<TMapping>();
}

const emails = (mapping: TMapping, role: string) => (mapping[role] ?? []).map((u) => u.email);

/** No patient's or viewer account's e-mail or mobile, under any role. */
function expectNoPatients(mapping: TMapping) {
  const text = JSON.stringify(mapping);
  for (const p of [people.patient, people.viewerAccount]) {
    expect(text).not.toContain(p.email);
    if (p.mobileNumber) expect(text).not.toContain(p.mobileNumber);
  }
  expect(mapping.ROLE_CUSTOMER).toBeUndefined();
  expect(mapping.ROLE_VIEWER).toBeUndefined();
}

describe('GET /api/user/mapping: each role gets only the people it picks', () => {
  it.each([
    ['a patient', ['ROLE_CUSTOMER']],
    ['a viewer account', ['ROLE_VIEWER']],
    ['a referring doctor', ['ROLE_REFERRING_DOCTOR']],
    ['an auditor', ['ROLE_AUDITOR']],
    ['a sales user', ['ROLE_RADFLOW_SALES']],
    ['a dashboard viewer', ['ROLE_DASHBOARD_VIEWER']],
  ] as Array<[string, TRole[]]>)('%s picks nobody: an empty mapping', async (_who, roles) => {
    expect(await mappingOf(roles)).toEqual({});
  });

  it('an assignor and an admin: the staff lists (doctors, auditors, referring doctors, centers), no patients', async () => {
    for (const roles of [['ROLE_ASSIGNOR'], ['ROLE_ADMIN']] as TRole[][]) {
      const mapping = await mappingOf(roles);
      expect(emails(mapping, 'ROLE_DOCTOR')).toContain(people.doctor.email);
      expect(emails(mapping, 'ROLE_AUDITOR')).toContain(people.auditor.email);
      expect(emails(mapping, 'ROLE_REFERRING_DOCTOR')).toContain(people.referring.email);
      expect(emails(mapping, 'ROLE_CENTER')).toContain(people.otherCenter.email);
      expectNoPatients(mapping);
    }
  });

  it("a center: its own center's users, the group's doctors and referring doctors; no other center, no patients", async () => {
    const mapping = await mappingOf(['ROLE_CENTER'], { atCenter: true });
    expect(emails(mapping, 'ROLE_DOCTOR')).toContain(people.doctor.email);
    expect(emails(mapping, 'ROLE_REFERRING_DOCTOR')).toContain(people.referring.email);
    expect(JSON.stringify(mapping)).not.toContain(people.otherCenter.email);
    expect(JSON.stringify(mapping)).not.toContain(people.auditor.email);
    expectNoPatients(mapping);
  });

  it('a doctor and a typist: the doctors (typist gate, the admin list rule), no patients', async () => {
    for (const roles of [['ROLE_DOCTOR'], ['ROLE_TYPIST']] as TRole[][]) {
      const mapping = await mappingOf(roles);
      expect(emails(mapping, 'ROLE_DOCTOR')).toContain(people.doctor.email);
      expectNoPatients(mapping);
    }
  });

  it('a lab receptionist (a center role): as its center, no patients', async () => {
    const mapping = await mappingOf(['ROLE_LABS_RECEPTIONIST'], { atCenter: true });
    expect(emails(mapping, 'ROLE_REFERRING_DOCTOR')).toContain(people.referring.email);
    expectNoPatients(mapping);
  });
});
