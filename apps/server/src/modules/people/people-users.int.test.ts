import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import {
  INVITATION_LINK_TTL_HOURS,
  MESSAGE_PASSWORD_COMMON,
  MESSAGE_PASSWORD_LINK_INVALID,
  MESSAGE_PASSWORD_PERSONAL,
  MESSAGE_ROLE_NOT_GRANTABLE,
  MESSAGE_USER_ABOVE_YOU,
  type TManagedUser,
  type TRole,
} from '@radflow/core';
import { apiTokens, passwordLinks, sessions, users } from '../../db/schema.js';
import { apiTokenFor } from '../../../test/api-token.helpers.js';
import {
  type TestApp,
  TestClient,
  createTestApp,
  createTestCenter,
  createTestUser,
} from '../../../test/test-app.js';
import { signedIn } from '../../../test/worklist-test-data.js';
import {
  adminOfNewGroup,
  auditOf,
  invite,
  invited,
  linkFromOutbox,
  put,
  setPassword,
  uniqueEmail,
  usersOf,
} from './people-users.helpers.js';

/*
 * Issue 21 §9: the group admin brings their people: invites users with roles (a set-password link by
 * e-mail or SMS through the outbox providers), edits and deactivates them, resets passwords; nobody
 * grants a role above their own; a deactivated user's sessions and API tokens end; the link is
 * random, stored hashed, expiring and single use; every change is audited; other groups are out of
 * reach.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const NEW_PASSWORD = 'violet-harbour-42';

describe('inviting a user', () => {
  it('e-mails a set-password link; the invitee sets a password once and signs in', async () => {
    const { user: admin, browser } = await adminOfNewGroup(t);
    const email = uniqueEmail('doctor');
    const created = await invited(browser, { email: email.toUpperCase(), identifier: 'Dr. Anil Kumar' });
    expect(created).toMatchObject({
      email,
      identifier: 'Dr. Anil Kumar',
      roles: ['ROLE_DOCTOR'],
      centerId: null,
      active: true,
      invitationPending: true,
    });

    const { message, token } = await linkFromOutbox(t, email);
    expect(message.channel).toBe('EMAIL');
    expect(message.body).toContain('Dr. Anil Kumar');
    // Only the token's hash is kept.
    const links = await t.db.select().from(passwordLinks).where(eq(passwordLinks.userId, created.id));
    expect(links).toHaveLength(1);
    expect(links[0]?.tokenHash).toBe(createHash('sha256').update(token).digest('hex'));
    expect(JSON.stringify(links)).not.toContain(token);

    // No password works before the link is used.
    const invitee = new TestClient(t.app);
    expect((await invitee.login(email, NEW_PASSWORD)).statusCode).not.toBe(200);

    const info = await invitee.post('/api/user-create/password-link', { token });
    expect(info.statusCode, info.body).toBe(200);
    expect(info.json()).toEqual({ email, identifier: 'Dr. Anil Kumar', purpose: 'INVITE' });

    const set = await setPassword(invitee, token, NEW_PASSWORD);
    expect(set.statusCode, set.body).toBe(200);
    expect((await invitee.login(email, NEW_PASSWORD)).statusCode).toBe(200);
    expect((await invitee.get('/api/user/')).json()).toMatchObject({ email, roles: ['ROLE_DOCTOR'] });

    // Single use.
    const again = await setPassword(new TestClient(t.app), token, 'another-fine-phrase-7');
    expect(again.statusCode).toBe(400);
    expect(again.json<{ errorDescription: string }>().errorDescription).toBe(MESSAGE_PASSWORD_LINK_INVALID);
    expect((await new TestClient(t.app).login(email, NEW_PASSWORD)).statusCode).toBe(200);

    expect((await usersOf(browser)).find((u) => u.id === created.id)?.invitationPending).toBe(false);
    const audit = await auditOf(browser);
    expect(audit.map((a) => a.action)).toEqual(['PASSWORD_SET_BY_LINK', 'USER_INVITED']);
    expect(audit[1]).toMatchObject({ actorEmail: admin.email, targetType: 'USER', targetId: created.id });
  });

  it('the password set through the link follows the password rules; a refused one leaves the link usable', async () => {
    const { browser } = await adminOfNewGroup(t);
    const email = uniqueEmail('rules');
    await invited(browser, { email, identifier: 'Priya Nair' });
    const { token } = await linkFromOutbox(t, email);
    const client = new TestClient(t.app);
    const cases: Array<[string, string]> = [
      ['short', 'newPassword must be at least 8 characters'],
      [`${email.split('@')[0]}-x`, MESSAGE_PASSWORD_PERSONAL],
      ['password1', MESSAGE_PASSWORD_COMMON],
    ];
    for (const [password, message] of cases) {
      const res = await setPassword(client, token, password);
      expect(res.statusCode, password).toBe(400);
      expect(res.body, password).toContain(message);
    }
    expect((await setPassword(client, token, NEW_PASSWORD)).statusCode).toBe(200);
  });

  it('two submits of one link at once: exactly one sets the password', async () => {
    const { browser } = await adminOfNewGroup(t);
    const email = uniqueEmail('race');
    await invited(browser, { email });
    const { token } = await linkFromOutbox(t, email);
    const answers = await Promise.all([
      setPassword(new TestClient(t.app), token, NEW_PASSWORD),
      setPassword(new TestClient(t.app), token, 'another-fine-phrase-7'),
    ]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 400]);
    const winner = answers[0]?.statusCode === 200 ? NEW_PASSWORD : 'another-fine-phrase-7';
    expect((await new TestClient(t.app).login(email, winner)).statusCode).toBe(200);
  });

  it('the link expires', async () => {
    const { browser } = await adminOfNewGroup(t);
    const email = uniqueEmail('late');
    await invited(browser, { email });
    const { token } = await linkFromOutbox(t, email);
    t.clock.advance(INVITATION_LINK_TTL_HOURS * 3600 + 60);
    try {
      const res = await setPassword(new TestClient(t.app), token, NEW_PASSWORD);
      expect(res.statusCode).toBe(400);
      expect(res.body).toContain(MESSAGE_PASSWORD_LINK_INVALID);
      const info = await new TestClient(t.app).post('/api/user-create/password-link', { token });
      expect(info.statusCode).toBe(400);
    } finally {
      t.clock.advance(-(INVITATION_LINK_TTL_HOURS * 3600 + 60));
    }
  });

  it('a new invitation replaces the old link; a made-up token is refused', async () => {
    const { browser } = await adminOfNewGroup(t);
    const email = uniqueEmail('resend');
    const created = await invited(browser, { email });
    const { token: first } = await linkFromOutbox(t, email);
    const resend = await browser.post(`/api/admin/users/${created.id}/resend-invitation`);
    expect(resend.statusCode, resend.body).toBe(200);
    const { token: second } = await linkFromOutbox(t, email);
    expect(second).not.toBe(first);
    expect((await setPassword(new TestClient(t.app), first, NEW_PASSWORD)).statusCode).toBe(400);
    expect((await setPassword(new TestClient(t.app), 'x'.repeat(43), NEW_PASSWORD)).statusCode).toBe(400);
    expect((await setPassword(new TestClient(t.app), second, NEW_PASSWORD)).statusCode).toBe(200);
  });

  it('invites by SMS when asked (a mobile number is then needed)', async () => {
    const { browser } = await adminOfNewGroup(t);
    const noMobile = await invite(browser, { channel: 'SMS' });
    expect(noMobile.statusCode).toBe(400);
    const mobile = `9${String(Date.now()).slice(-9)}`;
    const email = uniqueEmail('sms');
    await invited(browser, { email, mobileNumber: mobile, channel: 'SMS' });
    const { message, token } = await linkFromOutbox(t, mobile);
    expect(message.channel).toBe('SMS');
    expect((await setPassword(new TestClient(t.app), token, NEW_PASSWORD)).statusCode).toBe(200);
    expect((await new TestClient(t.app).login(email, NEW_PASSWORD)).statusCode).toBe(200);
  });

  it('a center role needs a center of the group; a taken e-mail is 409; nothing is stored on refusal', async () => {
    const { group, browser } = await adminOfNewGroup(t);
    const center = await createTestCenter(t.db, { groupId: group.id });
    const other = await adminOfNewGroup(t);
    const otherCenter = await createTestCenter(t.db, { groupId: other.group.id });

    expect((await invite(browser, { roles: ['ROLE_CENTER'] })).statusCode).toBe(400);
    expect((await invite(browser, { roles: ['ROLE_CENTER'], centerId: otherCenter.id })).statusCode).toBe(
      400,
    );
    expect((await invite(browser, { roles: ['ROLE_DOCTOR'], centerId: center.id })).statusCode).toBe(400);
    const ok = await invited(browser, { roles: ['ROLE_CENTER'], centerId: center.id });
    expect(ok.centerId).toBe(center.id);
    const taken = await invite(browser, { email: ok.email });
    expect(taken.statusCode).toBe(409);
    // Only the admin and the one accepted invitee are in the group.
    const listed = await usersOf(browser);
    expect(listed.map((u) => u.email).sort()).toEqual(
      [ok.email, ...listed.filter((u) => !u.invitationPending).map((u) => u.email)].sort(),
    );
    expect(listed).toHaveLength(2);
  });

  it('a referring doctor invited by the admin is in the center’s referring-doctor list', async () => {
    const { group, browser } = await adminOfNewGroup(t);
    const center = await createTestCenter(t.db, { groupId: group.id });
    const referring = await invited(browser, { roles: ['ROLE_REFERRING_DOCTOR'], identifier: 'Dr. Sen' });
    const { browser: centerUser } = await signedIn(t, {
      roles: ['ROLE_CENTER'],
      groupId: group.id,
      centerId: center.id,
    });
    const mapping = (await centerUser.get('/api/user/mapping')).json<
      Record<string, Array<{ email: string }>>
    >();
    expect(mapping.ROLE_REFERRING_DOCTOR?.map((u) => u.email)).toContain(referring.email);
  });
});

describe('role rules', () => {
  it('only the admin and the group admin manage users (403 for the rest)', async () => {
    const { group } = await adminOfNewGroup(t);
    for (const role of ['ROLE_DOCTOR', 'ROLE_ASSIGNOR', 'ROLE_AUDITOR', 'ROLE_ADMIN_BILLER'] as TRole[]) {
      const { browser } = await signedIn(t, { roles: [role], groupId: group.id });
      expect((await browser.get('/api/admin/users')).statusCode, role).toBe(403);
      expect((await invite(browser, {})).statusCode, role).toBe(403);
      expect((await browser.get('/api/admin/audit')).statusCode, role).toBe(403);
    }
    expect((await new TestClient(t.app).get('/api/admin/users')).statusCode).toBe(401);
  });

  it('nobody grants a role above their own', async () => {
    const admin = await adminOfNewGroup(t, ['ROLE_ADMIN']);
    const makeGroupAdmin = await invite(admin.browser, { roles: ['ROLE_GROUP'] });
    expect(makeGroupAdmin.statusCode).toBe(403);
    expect(makeGroupAdmin.json<{ errorDescription: string }>().errorDescription).toBe(
      MESSAGE_ROLE_NOT_GRANTABLE,
    );
    expect((await invite(admin.browser, { roles: ['ROLE_ADMIN'] })).statusCode).toBe(200);
    const doctor = await invited(admin.browser, { roles: ['ROLE_DOCTOR'] });
    const promote = await put(admin.browser, `/api/admin/users/${doctor.id}`, {
      identifier: doctor.identifier,
      roles: ['ROLE_DOCTOR', 'ROLE_GROUP'],
    });
    expect(promote.statusCode).toBe(403);
    // Accounts made by share links and sign-up are not handed out by anyone.
    const groupAdmin = await adminOfNewGroup(t);
    for (const role of ['ROLE_VIEWER', 'ROLE_CUSTOMER', 'ROLE_RADFLOW_SALES'] as TRole[])
      expect((await invite(groupAdmin.browser, { roles: [role] })).statusCode, role).toBe(403);
    expect((await invite(groupAdmin.browser, { roles: ['ROLE_GROUP'] })).statusCode).toBe(200);
  });

  it('an admin cannot change, deactivate or reset a group admin; nobody deactivates themselves', async () => {
    const admin = await adminOfNewGroup(t, ['ROLE_ADMIN']);
    const groupAdmin = await createTestUser(t.db, { roles: ['ROLE_GROUP'], groupId: admin.group.id });
    for (const res of [
      await put(admin.browser, `/api/admin/users/${groupAdmin.id}`, {
        identifier: 'Demoted',
        roles: ['ROLE_DOCTOR'],
      }),
      await admin.browser.post(`/api/admin/users/${groupAdmin.id}/deactivate`),
      await admin.browser.post(`/api/admin/users/${groupAdmin.id}/reset-password`),
    ]) {
      expect(res.statusCode).toBe(403);
      expect(res.json<{ errorDescription: string }>().errorDescription).toBe(MESSAGE_USER_ABOVE_YOU);
    }
    const [stored] = await t.db.select().from(users).where(eq(users.id, groupAdmin.id));
    expect(stored).toMatchObject({ roles: ['ROLE_GROUP'], active: true });
    expect((await admin.browser.post(`/api/admin/users/${admin.user.id}/deactivate`)).statusCode).toBe(400);
    expect(
      (
        await put(admin.browser, `/api/admin/users/${admin.user.id}`, {
          identifier: 'Me',
          roles: ['ROLE_DOCTOR'],
        })
      ).statusCode,
    ).toBe(400);
  });

  it("another group's users are out of reach (404) and unchanged", async () => {
    const mine = await adminOfNewGroup(t);
    const theirs = await adminOfNewGroup(t);
    const victim = await createTestUser(t.db, { roles: ['ROLE_DOCTOR'], groupId: theirs.group.id });
    const myTypist = await invited(mine.browser, { roles: ['ROLE_TYPIST'] });
    expect((await usersOf(mine.browser)).map((u) => u.id)).not.toContain(victim.id);
    const calls = [
      await put(mine.browser, `/api/admin/users/${victim.id}`, { identifier: 'X', roles: ['ROLE_DOCTOR'] }),
      await mine.browser.post(`/api/admin/users/${victim.id}/deactivate`),
      await mine.browser.post(`/api/admin/users/${victim.id}/activate`),
      await mine.browser.post(`/api/admin/users/${victim.id}/reset-password`),
      await put(mine.browser, `/api/admin/users/${victim.id}/doctors`, { doctorIds: [] }),
    ];
    for (const res of calls) expect(res.statusCode, res.body).toBe(404);
    // Nor can their doctor be given to my typist.
    const mapped = await put(mine.browser, `/api/admin/users/${myTypist.id}/doctors`, {
      doctorIds: [victim.id],
    });
    expect(mapped.statusCode).toBe(400);
    const [stored] = await t.db.select().from(users).where(eq(users.id, victim.id));
    expect(stored).toMatchObject({ identifier: victim.identifier, active: true });
    expect(await t.db.select().from(passwordLinks).where(eq(passwordLinks.userId, victim.id))).toEqual([]);
  });
});

describe('deactivation, password reset, edits', () => {
  it("deactivation ends the user's sessions and API tokens at once; activation lets them sign in again", async () => {
    const { group, user: admin, browser } = await adminOfNewGroup(t);
    const { user: doctor, browser: doctorBrowser } = await signedIn(t, {
      roles: ['ROLE_DOCTOR'],
      groupId: group.id,
    });
    const token = await apiTokenFor(t, doctor);
    const bearer = { authorization: `Bearer ${token}` };
    expect((await doctorBrowser.get('/api/user/')).statusCode).toBe(200);
    expect((await new TestClient(t.app).get('/api/dicomweb/studies', bearer)).statusCode).toBe(200);

    const res = await browser.post(`/api/admin/users/${doctor.id}/deactivate`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<TManagedUser>().active).toBe(false);

    expect((await doctorBrowser.get('/api/user/')).statusCode).toBe(401);
    expect((await new TestClient(t.app).get('/api/dicomweb/studies', bearer)).statusCode).toBe(401);
    expect(await t.db.select().from(sessions).where(eq(sessions.userId, doctor.id))).toEqual([]);
    expect(await t.db.select().from(apiTokens).where(eq(apiTokens.userId, doctor.id))).toEqual([]);
    expect((await new TestClient(t.app).login(doctor.email, doctor.password)).statusCode).not.toBe(200);
    expect((await browser.post(`/api/admin/users/${doctor.id}/reset-password`)).statusCode).toBe(400);

    expect((await browser.post(`/api/admin/users/${doctor.id}/activate`)).statusCode).toBe(200);
    expect((await new TestClient(t.app).login(doctor.email, doctor.password)).statusCode).toBe(200);
    const audit = await auditOf(browser);
    expect(audit.map((a) => a.action)).toEqual(['USER_ACTIVATED', 'USER_DEACTIVATED']);
    expect(audit.every((a) => a.actorEmail === admin.email && a.targetId === doctor.id)).toBe(true);
  });

  it("a password reset sends a link; setting the password ends the user's sessions and tokens", async () => {
    const { group, browser } = await adminOfNewGroup(t);
    const { user: doctor, browser: doctorBrowser } = await signedIn(t, {
      roles: ['ROLE_DOCTOR'],
      groupId: group.id,
    });
    const token = await apiTokenFor(t, doctor);
    const res = await browser.post(`/api/admin/users/${doctor.id}/reset-password`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ channel: 'EMAIL', recipient: doctor.email });
    // The old password keeps working until the link is used (a reset is no lock-out).
    expect((await doctorBrowser.get('/api/user/')).statusCode).toBe(200);

    const { token: linkToken } = await linkFromOutbox(t, doctor.email);
    const info = await new TestClient(t.app).post('/api/user-create/password-link', { token: linkToken });
    expect(info.json()).toMatchObject({ email: doctor.email, purpose: 'RESET' });
    expect((await setPassword(new TestClient(t.app), linkToken, NEW_PASSWORD)).statusCode).toBe(200);
    expect((await doctorBrowser.get('/api/user/')).statusCode).toBe(401);
    expect(
      (await new TestClient(t.app).get('/api/dicomweb/studies', { authorization: `Bearer ${token}` }))
        .statusCode,
    ).toBe(401);
    expect((await new TestClient(t.app).login(doctor.email, doctor.password)).statusCode).not.toBe(200);
    expect((await new TestClient(t.app).login(doctor.email, NEW_PASSWORD)).statusCode).toBe(200);
    expect((await auditOf(browser)).map((a) => a.action)).toEqual([
      'PASSWORD_SET_BY_LINK',
      'PASSWORD_RESET_SENT',
    ]);
  });

  it("an edit of roles takes effect on the user's next request; the audit row holds before and after", async () => {
    const { group, browser } = await adminOfNewGroup(t);
    const { user: doctor, browser: doctorBrowser } = await signedIn(t, {
      roles: ['ROLE_DOCTOR'],
      groupId: group.id,
    });
    expect((await doctorBrowser.get('/api/user/')).json()).toMatchObject({ roles: ['ROLE_DOCTOR'] });
    const res = await put(browser, `/api/admin/users/${doctor.id}`, {
      identifier: 'Dr. Renamed',
      mobileNumber: '9123456780',
      roles: ['ROLE_DOCTOR', 'ROLE_ASSIGNOR'],
    });
    expect(res.statusCode, res.body).toBe(200);
    expect((await doctorBrowser.get('/api/user/')).json()).toMatchObject({
      identifier: 'Dr. Renamed',
      roles: ['ROLE_DOCTOR', 'ROLE_ASSIGNOR'],
    });
    const [row] = await auditOf(browser);
    expect(row).toMatchObject({ action: 'USER_UPDATED', targetId: doctor.id });
    expect(row?.detail).toMatchObject({
      before: { roles: ['ROLE_DOCTOR'], identifier: doctor.identifier },
      after: { roles: ['ROLE_DOCTOR', 'ROLE_ASSIGNOR'], identifier: 'Dr. Renamed' },
    });
  });

  it('maps a typist to their doctors; the typist then picks only those', async () => {
    const { group, browser } = await adminOfNewGroup(t);
    const [d1, d2] = [await invited(browser), await invited(browser)];
    const { user: typist, browser: typistBrowser } = await signedIn(t, {
      roles: ['ROLE_TYPIST'],
      groupId: group.id,
    });
    const res = await put(browser, `/api/admin/users/${typist.id}/doctors`, { doctorIds: [d2.id] });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<TManagedUser>().doctorIds).toEqual([d2.id]);
    const mapping = (await typistBrowser.get('/api/user/mapping')).json<
      Record<string, Array<{ email: string }>>
    >();
    expect(mapping.ROLE_DOCTOR?.map((u) => u.email)).toEqual([d2.email]);
    expect((await put(browser, `/api/admin/users/${d1.id}/doctors`, { doctorIds: [d2.id] })).statusCode).toBe(
      400,
    );
    expect(
      (await put(browser, `/api/admin/users/${typist.id}/doctors`, { doctorIds: [typist.id] })).statusCode,
    ).toBe(400);
    const [row] = await auditOf(browser);
    expect(row).toMatchObject({ action: 'TYPIST_DOCTORS_SET', targetId: typist.id });
  });
});
