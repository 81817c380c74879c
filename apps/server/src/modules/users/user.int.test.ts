import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import { defaultPreferences } from '@radflow/core';
import { loginEvents, studyTypes, userMappings } from '../../db/schema.js';
import { savePreferenceSection } from '../preferences/preferences.js';
import {
  type TestApp,
  TestClient,
  createTestApp,
  createTestCenter,
  createTestGroup,
  createTestUser,
  setGroupPreference,
  signInAs,
} from '../../../test/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const signedIn = (user: { email: string; password: string }) => signInAs(t, user);

describe('GET /api/user/preference', () => {
  it('answers every section with defaults when nothing is stored', async () => {
    const browser = await signedIn(await createTestUser(t.db));
    const res = await browser.get('/api/user/preference');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual(defaultPreferences());
  });

  it("takes the group sections from the user's group and the rest from the user", async () => {
    const group = await createTestGroup(t.db);
    const alice = await createTestUser(t.db, { groupId: group.id });
    const bob = await createTestUser(t.db, { groupId: group.id });
    await setGroupPreference(t.db, group.id, 'ADMIN_PREFERENCES', {
      signOffTimeLimit: 60,
      showRedAfterTAT: true,
    });
    await setGroupPreference(t.db, group.id, 'GROUP_SWITCHES', { showSubscriptionWarning: true });
    await savePreferenceSection(t.db, {
      ownerId: alice.id,
      section: 'UI_PREFERENCES',
      value: { halfPageReporting: true, retiredSwitch: true },
      updatedBy: alice.email,
    });
    // A stray group-section row stored under the user is not the group's setting.
    await t.db.execute(sql`insert into preferences (scope, owner_id, section, value)
      values ('USER', ${alice.id}, 'ADMIN_PREFERENCES', '{"enableLoginAuditLogs": true}'::jsonb)`);

    const a = (await (await signedIn(alice)).get('/api/user/preference')).json();
    expect(a.ADMIN_PREFERENCES).toMatchObject({
      signOffTimeLimit: 60,
      showRedAfterTAT: true,
      enableLoginAuditLogs: false,
    });
    expect(a.GROUP_SWITCHES.showSubscriptionWarning).toBe(true);
    expect(a.UI_PREFERENCES).toEqual({ ...defaultPreferences().UI_PREFERENCES, halfPageReporting: true });

    const b = (await (await signedIn(bob)).get('/api/user/preference')).json();
    expect(b.ADMIN_PREFERENCES.signOffTimeLimit).toBe(60);
    expect(b.UI_PREFERENCES.halfPageReporting).toBe(false);
  });
});

describe('GET /api/user/tele-info', () => {
  it('says teleUser for tele-radiology users only', async () => {
    const tele = await signedIn(await createTestUser(t.db, { roles: ['ROLE_TELE_RADIOLOGY'] }));
    expect((await tele.get('/api/user/tele-info')).json()).toEqual({ teleUser: true });
    const doctor = await signedIn(await createTestUser(t.db, { roles: ['ROLE_DOCTOR'] }));
    expect((await doctor.get('/api/user/tele-info')).json()).toEqual({ teleUser: false });
  });
});

describe('GET /api/user/mapping', () => {
  it("lists the group's users per role; a center user sees their center plus the doctors; explicit mappings replace", async () => {
    const group = await createTestGroup(t.db);
    const centerA = await createTestCenter(t.db, { groupId: group.id });
    const centerB = await createTestCenter(t.db, { groupId: group.id });
    const doctor1 = await createTestUser(t.db, { groupId: group.id, roles: ['ROLE_DOCTOR'] });
    const doctor2 = await createTestUser(t.db, { groupId: group.id, roles: ['ROLE_DOCTOR'], active: false });
    const assignor = await createTestUser(t.db, { groupId: group.id, roles: ['ROLE_ASSIGNOR'] });
    const typist = await createTestUser(t.db, { groupId: group.id, roles: ['ROLE_TYPIST'] });
    const centerUserA = await createTestUser(t.db, {
      groupId: group.id,
      centerId: centerA.id,
      roles: ['ROLE_CENTER'],
    });
    const centerUserB = await createTestUser(t.db, {
      groupId: group.id,
      centerId: centerB.id,
      roles: ['ROLE_CENTER'],
    });
    const outsider = await createTestUser(t.db, { roles: ['ROLE_DOCTOR'] });

    const byEmail = (...users: { email: string; active: boolean }[]) =>
      users.map((u) => ({ email: u.email, active: u.active })).sort((a, b) => a.email.localeCompare(b.email));

    const asAssignor = (await (await signedIn(assignor)).get('/api/user/mapping')).json();
    expect(asAssignor.ROLE_DOCTOR).toEqual(byEmail(doctor1, doctor2));
    expect(asAssignor.ROLE_CENTER).toEqual(byEmail(centerUserA, centerUserB));
    expect(asAssignor.ROLE_TYPIST).toEqual(byEmail(typist));
    expect(JSON.stringify(asAssignor)).not.toContain(outsider.email);

    const asCenterA = (await (await signedIn(centerUserA)).get('/api/user/mapping')).json();
    expect(asCenterA.ROLE_CENTER).toEqual(byEmail(centerUserA));
    expect(asCenterA.ROLE_DOCTOR).toEqual(byEmail(doctor1, doctor2));
    expect(asCenterA.ROLE_ASSIGNOR).toBeUndefined();

    await t.db
      .insert(userMappings)
      .values({ userId: typist.id, role: 'ROLE_DOCTOR', mappedUserId: doctor1.id });
    const asTypist = (await (await signedIn(typist)).get('/api/user/mapping')).json();
    expect(asTypist.ROLE_DOCTOR).toEqual(byEmail(doctor1));
    expect(asTypist.ROLE_ASSIGNOR).toEqual(byEmail(assignor));
  });
});

describe('GET /api/user/study-type', () => {
  it("answers the group's study types only", async () => {
    const group = await createTestGroup(t.db);
    const other = await createTestGroup(t.db);
    await t.db.insert(studyTypes).values([
      { groupId: group.id, name: 'MRI Knee', modality: 'MR' },
      { groupId: group.id, name: 'CT Brain Plain', modality: 'CT' },
      { groupId: other.id, name: 'USG Abdomen', modality: 'US' },
    ]);
    const browser = await signedIn(await createTestUser(t.db, { groupId: group.id }));
    const res = await browser.get('/api/user/study-type');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([
      { id: expect.any(Number), name: 'CT Brain Plain', modality: 'CT' },
      { id: expect.any(Number), name: 'MRI Knee', modality: 'MR' },
    ]);
  });
});

describe('POST /api/user-create/update-password', () => {
  it('refuses a wrong current password', async () => {
    const user = await createTestUser(t.db);
    const browser = await signedIn(user);
    const res = await browser.post('/api/user-create/update-password', {
      currentPassword: 'wrong-one',
      newPassword: 'new-password-1',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      errorDescription: 'Current password is incorrect',
      additionalInfo: 'currentPassword',
    });
  });

  it('refuses a new password shorter than 8 characters, naming the field', async () => {
    const browser = await signedIn(await createTestUser(t.db));
    const res = await browser.post('/api/user-create/update-password', {
      currentPassword: 'x',
      newPassword: 'abcd',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      errorStatusCode: 400,
      errorDescription: 'newPassword must be at least 8 characters',
      additionalInfo: 'newPassword',
    });
  });

  it('changes the password: the old one fails, the new one works, other sessions end, this one stays', async () => {
    const user = await createTestUser(t.db);
    const laptop = await signedIn(user);
    const phone = await signedIn(user);
    const res = await laptop.post('/api/user-create/update-password', {
      currentPassword: user.password,
      newPassword: 'brand-new-pass',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ok: true });

    expect((await laptop.get('/api/user/')).statusCode).toBe(200);
    expect((await phone.get('/api/user/')).statusCode).toBe(401);
    expect((await new TestClient(t.app).login(user.email, user.password)).statusCode).toBe(401);
    expect((await new TestClient(t.app).login(user.email, 'brand-new-pass')).statusCode).toBe(200);

    const [event] = await t.db
      .select()
      .from(loginEvents)
      .where(and(eq(loginEvents.userId, user.id), eq(loginEvents.eventType, 'PASSWORD_CHANGED')));
    expect(event).toBeDefined();
  });
});

describe('POST /api/setting/update…', () => {
  it('the group admin changes a group section field by field; the group sees it; others may not', async () => {
    const group = await createTestGroup(t.db);
    const groupAdmin = await createTestUser(t.db, { groupId: group.id, roles: ['ROLE_GROUP'] });
    const doctor = await createTestUser(t.db, { groupId: group.id, roles: ['ROLE_DOCTOR'] });
    const admin = await signedIn(groupAdmin);

    const first = await admin.post('/api/setting/update-group/ADMIN_PREFERENCES', { signOffTimeLimit: 90 });
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ ...defaultPreferences().ADMIN_PREFERENCES, signOffTimeLimit: 90 });
    const second = await admin.post('/api/setting/update-group/ADMIN_PREFERENCES', {
      enableLoginAuditLogs: true,
    });
    expect(second.json()).toMatchObject({ signOffTimeLimit: 90, enableLoginAuditLogs: true });

    const doctorBrowser = new TestClient(t.app);
    // The group now audits logins: the doctor's device waits for approval.
    expect((await doctorBrowser.login(doctor.email, doctor.password)).json().errorStatusCode).toBe(5002);
    await admin.post('/api/setting/update-group/ADMIN_PREFERENCES', { enableLoginAuditLogs: false });
    expect((await doctorBrowser.login(doctor.email, doctor.password)).statusCode).toBe(200);
    expect((await doctorBrowser.get('/api/user/preference')).json().ADMIN_PREFERENCES.signOffTimeLimit).toBe(
      90,
    );

    const denied = await doctorBrowser.post('/api/setting/update-group/ADMIN_PREFERENCES', {
      signOffTimeLimit: 30,
    });
    expect(denied.statusCode).toBe(403);
  });

  it('refuses unknown sections, unknown fields and wrong types, naming them', async () => {
    const admin = await signedIn(await createTestUser(t.db, { roles: ['ROLE_ADMIN'] }));
    const section = await admin.post('/api/setting/update-group/UI_PREFERENCES', {});
    expect(section.statusCode).toBe(400);
    expect(section.json().additionalInfo).toBe('settingName');
    const field = await admin.post('/api/setting/update-group/ADMIN_PREFERENCES', {
      enableLoginAuditLog: true,
    });
    expect(field.statusCode).toBe(400);
    expect(field.json().additionalInfo).toBe('enableLoginAuditLog');
    const type = await admin.post('/api/setting/update-group/ADMIN_PREFERENCES', {
      signOffTimeLimit: 'soon',
    });
    expect(type.statusCode).toBe(400);
    expect(type.json().additionalInfo).toBe('signOffTimeLimit');
  });

  it("a user changes their own sections, not the group's", async () => {
    const user = await createTestUser(t.db, { roles: ['ROLE_DOCTOR'] });
    const browser = await signedIn(user);
    const res = await browser.post('/api/setting/update/UI_PREFERENCES', { halfPageReporting: true });
    expect(res.statusCode).toBe(200);
    expect(res.json().halfPageReporting).toBe(true);
    expect((await browser.get('/api/user/preference')).json().UI_PREFERENCES.halfPageReporting).toBe(true);
    expect((await browser.post('/api/setting/update/ADMIN_PREFERENCES', {})).statusCode).toBe(400);
  });
});
