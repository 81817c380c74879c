import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { devices, loginEvents } from '../../db/schema.js';
import {
  type TestApp,
  TestClient,
  createTestApp,
  createTestCenter,
  createTestGroup,
  createTestUser,
  setGroupPreference,
} from '../../../test/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

/** A group that audits logins, its admin (signed in) and a doctor. */
async function auditedGroup() {
  const group = await createTestGroup(t.db);
  await setGroupPreference(t.db, group.id, 'ADMIN_PREFERENCES', { enableLoginAuditLogs: true });
  const groupAdmin = await createTestUser(t.db, { groupId: group.id, roles: ['ROLE_GROUP'] });
  const doctor = await createTestUser(t.db, { groupId: group.id, roles: ['ROLE_DOCTOR'] });
  // The group admin's own first sign-in needs approval too: approve it directly.
  const adminBrowser = new TestClient(t.app);
  await adminBrowser.login(groupAdmin.email, groupAdmin.password);
  await t.db.update(devices).set({ status: 'APPROVED' }).where(eq(devices.userId, groupAdmin.id));
  expect((await adminBrowser.login(groupAdmin.email, groupAdmin.password)).statusCode).toBe(200);
  return { group, groupAdmin, doctor, adminBrowser };
}

describe('device approval', () => {
  it('answers an unapproved device 403 5002 and records it PENDING; approval lets it in', async () => {
    const { doctor, groupAdmin, adminBrowser } = await auditedGroup();
    const laptop = new TestClient(t.app, { deviceName: 'Chrome on Windows' });

    const first = await laptop.login(doctor.email, doctor.password);
    expect(first.statusCode).toBe(403);
    expect(first.json()).toMatchObject({
      errorStatusCode: 5002,
      errorDescription: 'Your login needs to be approved by admin',
    });
    expect(laptop.cookie).toBeNull();
    const [pending] = await t.db
      .select()
      .from(devices)
      .where(and(eq(devices.userId, doctor.id), eq(devices.deviceId, laptop.deviceId)));
    expect(pending).toMatchObject({
      status: 'PENDING',
      deviceName: 'Chrome on Windows',
      firstApprovedAt: null,
    });

    const list = await adminBrowser.post('/api/user/audit/search', { filters: { email: doctor.email } });
    expect(list.statusCode).toBe(200);
    expect(list.json()).toMatchObject({
      totalElements: 1,
      content: [{ status: 'PENDING', deviceId: laptop.deviceId, email: doctor.email, firstApprovedAt: null }],
      pageable: { pageNumber: 0, pageSize: 20 },
    });

    const approved = await adminBrowser.post('/api/user/audit/update-approval-status', {
      status: 'APPROVED',
      deviceId: laptop.deviceId,
      email: doctor.email.toUpperCase(),
    });
    expect(approved.statusCode).toBe(200);
    expect(approved.json()).toMatchObject({
      status: 'APPROVED',
      deviceId: laptop.deviceId,
      email: doctor.email,
    });
    expect(approved.json().firstApprovedAt).toEqual(expect.any(String));

    const second = await laptop.login(doctor.email, doctor.password);
    expect(second.statusCode).toBe(200);
    expect((await laptop.get('/api/user/audit')).json()).toMatchObject({
      status: 'APPROVED',
      deviceId: laptop.deviceId,
    });

    // Another device of the same user still needs its own approval.
    expect((await new TestClient(t.app).login(doctor.email, doctor.password)).statusCode).toBe(403);

    const [event] = await t.db
      .select()
      .from(loginEvents)
      .where(and(eq(loginEvents.userId, doctor.id), eq(loginEvents.eventType, 'DEVICE_APPROVED')));
    expect(event).toMatchObject({ actorEmail: groupAdmin.email, deviceId: laptop.deviceId });
  });

  it('a rejected device stays out, and rejecting ends its sessions; the first approval time is kept', async () => {
    const { doctor, adminBrowser } = await auditedGroup();
    const laptop = new TestClient(t.app);
    await laptop.login(doctor.email, doctor.password);
    const setStatus = (status: string) =>
      adminBrowser.post('/api/user/audit/update-approval-status', {
        status,
        deviceId: laptop.deviceId,
        email: doctor.email,
      });

    const approved = (await setStatus('APPROVED')).json();
    expect((await laptop.login(doctor.email, doctor.password)).statusCode).toBe(200);

    expect((await setStatus('REJECTED')).json()).toMatchObject({ status: 'REJECTED' });
    expect((await laptop.get('/api/user/')).statusCode).toBe(401);
    const again = await laptop.login(doctor.email, doctor.password);
    expect(again.statusCode).toBe(403);
    expect(again.json().errorStatusCode).toBe(5002);
    const [row] = await t.db.select().from(devices).where(eq(devices.deviceId, laptop.deviceId));
    expect(row?.status).toBe('REJECTED');

    const reapproved = (await setStatus('APPROVED')).json();
    expect(reapproved.firstApprovedAt).toBe(approved.firstApprovedAt);
  });

  it('setting the status a device already has answers 409 with 4002; an unknown device 404', async () => {
    const { doctor, adminBrowser } = await auditedGroup();
    const laptop = new TestClient(t.app);
    await laptop.login(doctor.email, doctor.password);
    const body = { status: 'APPROVED', deviceId: laptop.deviceId, email: doctor.email };
    expect((await adminBrowser.post('/api/user/audit/update-approval-status', body)).statusCode).toBe(200);
    const twice = await adminBrowser.post('/api/user/audit/update-approval-status', body);
    expect(twice.statusCode).toBe(409);
    expect(twice.json().errorStatusCode).toBe(4002);

    const unknown = await adminBrowser.post('/api/user/audit/update-approval-status', {
      ...body,
      deviceId: 'no-such-device',
    });
    expect(unknown.statusCode).toBe(404);
    const bad = await adminBrowser.post('/api/user/audit/update-approval-status', {
      ...body,
      status: 'MAYBE',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().additionalInfo).toBe('status');
  });

  it('center users skip the login audit', async () => {
    const group = await createTestGroup(t.db);
    await setGroupPreference(t.db, group.id, 'ADMIN_PREFERENCES', { enableLoginAuditLogs: true });
    const center = await createTestCenter(t.db, { groupId: group.id });
    const centerUser = await createTestUser(t.db, {
      groupId: group.id,
      centerId: center.id,
      roles: ['ROLE_CENTER'],
    });
    const browser = new TestClient(t.app);
    expect((await browser.login(centerUser.email, centerUser.password)).statusCode).toBe(200);
    expect((await browser.get('/api/user/audit')).json()).toMatchObject({ status: 'APPROVED' });
    expect(await t.db.select().from(devices).where(eq(devices.userId, centerUser.id))).toHaveLength(0);
  });

  it('the group admin who approves devices is not held, so the group cannot lock itself out', async () => {
    const group = await createTestGroup(t.db);
    await setGroupPreference(t.db, group.id, 'ADMIN_PREFERENCES', { enableLoginAuditLogs: true });
    const groupAdmin = await createTestUser(t.db, { groupId: group.id, roles: ['ROLE_GROUP'] });
    const admin = await createTestUser(t.db, { groupId: group.id, roles: ['ROLE_ADMIN'] });
    expect((await new TestClient(t.app).login(groupAdmin.email, groupAdmin.password)).statusCode).toBe(200);
    const held = await new TestClient(t.app).login(admin.email, admin.password);
    expect(held.statusCode).toBe(403);
    expect(held.json().errorStatusCode).toBe(5002);
  });

  it('without the audit switch nobody needs approval, and GET /user/audit says APPROVED', async () => {
    const doctor = await createTestUser(t.db, { roles: ['ROLE_DOCTOR'] });
    const browser = new TestClient(t.app);
    expect((await browser.login(doctor.email, doctor.password)).statusCode).toBe(200);
    expect((await browser.get('/api/user/audit')).json()).toMatchObject({
      status: 'APPROVED',
      deviceId: browser.deviceId,
      email: doctor.email,
    });
  });

  it('the sign-in needs the device header when the group audits logins', async () => {
    const { doctor } = await auditedGroup();
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/do-login',
      payload: { email: doctor.email, password: doctor.password },
    });
    // Every sign-in needs it now (plugins/request-origin.ts: a sign-in without it is another site's form).
    expect(res.statusCode).toBe(403);
    expect(res.json().additionalInfo).toBe('x-device-id');
  });

  it('only the group role and admins of the same group manage the audit', async () => {
    const { group, doctor } = await auditedGroup();
    const doctorBrowser = new TestClient(t.app);
    await doctorBrowser.login(doctor.email, doctor.password);
    await t.db.update(devices).set({ status: 'APPROVED' }).where(eq(devices.userId, doctor.id));
    expect((await doctorBrowser.login(doctor.email, doctor.password)).statusCode).toBe(200);

    for (const url of ['/api/user/audit/search', '/api/user/audit/search-logs']) {
      const res = await doctorBrowser.post(url, {});
      expect(res.statusCode, url).toBe(403);
      expect(res.json().errorDescription).toBe('You are not allowed to do this');
    }
    const denied = await doctorBrowser.post('/api/user/audit/update-approval-status', {
      status: 'REJECTED',
      deviceId: doctorBrowser.deviceId,
      email: doctor.email,
    });
    expect(denied.statusCode).toBe(403);

    // An admin of the group may; an admin of another group sees none of it.
    const admin = await createTestUser(t.db, { groupId: group.id, roles: ['ROLE_ADMIN'] });
    const adminDevice = new TestClient(t.app);
    await adminDevice.login(admin.email, admin.password);
    await t.db.update(devices).set({ status: 'APPROVED' }).where(eq(devices.userId, admin.id));
    await adminDevice.login(admin.email, admin.password);
    // The doctor's device and the admin's; the group role approves and has no device row.
    expect((await adminDevice.post('/api/user/audit/search', {})).json().totalElements).toBe(2);

    const stranger = await createTestUser(t.db, { roles: ['ROLE_ADMIN'] });
    const strangerBrowser = new TestClient(t.app);
    await strangerBrowser.login(stranger.email, stranger.password);
    expect((await strangerBrowser.post('/api/user/audit/search', {})).json().totalElements).toBe(0);
    const foreign = await strangerBrowser.post('/api/user/audit/update-approval-status', {
      status: 'REJECTED',
      deviceId: doctorBrowser.deviceId,
      email: doctor.email,
    });
    expect(foreign.statusCode).toBe(404);
  });

  it("lists the group's sign-in events newest first, filtered and paged", async () => {
    const { doctor, adminBrowser } = await auditedGroup();
    const laptop = new TestClient(t.app);
    await laptop.login(doctor.email, 'wrong-password');
    await laptop.login(doctor.email, doctor.password);

    const res = await adminBrowser.post('/api/user/audit/search-logs', {
      filters: { email: doctor.email },
      size: 50,
    });
    expect(res.statusCode).toBe(200);
    const page = res.json();
    expect(page.content.map((e: { eventType: string }) => e.eventType)).toEqual([
      'LOGIN_DEVICE_PENDING',
      'LOGIN_FAILED',
    ]);
    expect(page.content[0]).toMatchObject({
      email: doctor.email,
      deviceId: laptop.deviceId,
      clientAddress: laptop.address,
    });

    const onlyFailures = await adminBrowser.post('/api/user/audit/search-logs', {
      filters: { email: doctor.email, eventType: 'LOGIN_FAILED' },
    });
    expect(onlyFailures.json().totalElements).toBe(1);
    const paged = await adminBrowser.post('/api/user/audit/search-logs', { page: 0, size: 1 });
    expect(paged.json()).toMatchObject({ size: 1, numberOfElements: 1, first: true, last: false });

    const statusFilter = await adminBrowser.post('/api/user/audit/search', {
      filters: { status: 'pending' },
    });
    expect(statusFilter.json().content.every((r: { status: string }) => r.status === 'PENDING')).toBe(true);
    const badFilter = await adminBrowser.post('/api/user/audit/search', { filters: { status: 'SOMETIMES' } });
    expect(badFilter.statusCode).toBe(400);
    expect(badFilter.json().additionalInfo).toBe('filters.status');
  });
});
