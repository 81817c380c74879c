import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { count, eq } from 'drizzle-orm';
import { CENTER_ROLES, OFFLINE_REPORT_GRANT_PATH, ROLES, demoEmailForRole } from '@radflow/core';
import { centers, groups, users } from '../../db/schema.js';
import { DEMO_PASSWORD, demoMobileForRole, seedDemo } from './seed-demo.js';
import { type TestApp, TestClient, createTestApp, readOtpFromOutbox } from '../../../test/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ seed: true });
});
afterAll(() => t.close());

describe('demo data', () => {
  it('has the demo group, the demo center with its AE title, and one user per role', async () => {
    const [group] = await t.db.select().from(groups);
    expect(group?.name).toBe('Demo Teleradiology');
    const [center] = await t.db.select().from(centers);
    expect(center).toMatchObject({
      name: 'Demo Imaging Center',
      email: 'center@demo.local',
      aeTitles: ['DEMOCENTER'],
    });

    const all = await t.db.select().from(users);
    expect(all).toHaveLength(ROLES.length);
    for (const role of ROLES) {
      const user = all.find((u) => u.email === demoEmailForRole(role));
      expect(user, role).toBeDefined();
      // The hybrid account is a reporting doctor in hybrid mode (HYBRID.md): ROLE_DOCTOR is stored.
      expect(user?.roles).toEqual(role === 'ROLE_OFFLINE_HYBRID' ? ['ROLE_DOCTOR'] : [role]);
      expect(user?.centerId, role).toBe(CENTER_ROLES.includes(role) ? center?.id : null);
    }
    expect(all.find((u) => u.email === 'admin@demo.local')?.mobileNumber).toBe('9876500001');
    expect(all.find((u) => u.email === 'doctor@demo.local')?.mobileNumber).toBe('9876500003');
    expect(demoMobileForRole('ROLE_CUSTOMER')).toBe('9876500012');
    expect(all.find((u) => u.email === 'offline-hybrid@demo.local')?.hybridModeOn).toBe(true);
    expect(all.find((u) => u.email === 'doctor@demo.local')?.identifier).toBe('Demo Doctor');
  });

  it('lets the demo doctor sign in with demo12345 (no device approval by default)', async () => {
    const browser = new TestClient(t.app);
    const res = await browser.request({
      method: 'POST',
      url: '/api/do-login',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: `email=doctor@demo.local&password=${DEMO_PASSWORD}`,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      email: 'doctor@demo.local',
      roles: ['ROLE_DOCTOR'],
      identifier: 'Demo Doctor',
    });
    expect((await browser.get('/api/user/study-type')).json().map((s: { name: string }) => s.name)).toEqual(
      expect.arrayContaining(['CT Brain Plain', 'MRI Knee', 'X-Ray Chest PA', 'USG Abdomen']),
    );
  });

  it('lets the demo hybrid user act as a hybrid doctor: signed in as OFFLINE_HYBRID, given an offline grant', async () => {
    const browser = new TestClient(t.app);
    const res = await browser.request({
      method: 'POST',
      url: '/api/do-login',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: `email=offline-hybrid@demo.local&password=${DEMO_PASSWORD}`,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ roles: ['ROLE_OFFLINE_HYBRID'], hybridModeOn: true });
    // The cloud takes an offline report only from a hybrid doctor with a grant (hybrid-reports).
    const grant = await browser.post(OFFLINE_REPORT_GRANT_PATH);
    expect(grant.statusCode, grant.body).toBe(200);
  });

  it('maps the typist to the demo doctor, and signs a demo user in by OTP', async () => {
    const typist = new TestClient(t.app);
    await typist.login('typist@demo.local', DEMO_PASSWORD);
    expect((await typist.get('/api/user/mapping')).json().ROLE_DOCTOR).toEqual([
      { email: 'doctor@demo.local', active: true },
    ]);

    const customer = new TestClient(t.app);
    await customer.post('/api/user/generate-otp', { mobile: '9876500012' });
    const code = await readOtpFromOutbox(t.db, '9876500012');
    const res = await customer.post('/api/do-login', { email: '9876500012', password: code });
    expect(res.json()).toMatchObject({ email: 'customer@demo.local' });
  });

  it('gives the demo receptionist a front desk to bill at: tests, doctors, patients, the next UHID', async () => {
    const receptionist = new TestClient(t.app);
    await receptionist.login('labs-receptionist@demo.local', DEMO_PASSWORD);
    const tests = (await receptionist.get('/api/lab/test/get-all')).json<
      { testName: string; price: number }[]
    >();
    expect(tests).toEqual(
      expect.arrayContaining([expect.objectContaining({ testName: 'CT Brain Plain', price: 2500 })]),
    );
    const doctors = await receptionist.post('/api/lab/referring-doctor/search', {
      mobileOrName: 'Mehta',
      active: true,
    });
    expect(doctors.json().content.map((d: { name: string }) => d.name)).toEqual(['Dr. Anjali Mehta']);
    const found = await receptionist.post('/api/lab/register-patient/search', { name: 'Priya' });
    expect(found.json()).toEqual([
      expect.objectContaining({ name: 'Priya Sharma', uhidNumber: 'DIC-1', ageString: '34Y' }),
    ]);

    const created = await receptionist.post('/api/lab/register-patient', {
      name: 'Kavya Rao',
      designation: 'MISS',
      gender: 'F',
      mobileNumber: '9988776655',
      ageYears: 27,
      ageMonths: 0,
      ageDays: 0,
    });
    expect(created.statusCode, created.body).toBe(200);
    expect(created.json().uhidNumber).toBe('DIC-5');
  });

  it('does nothing on a database that already has users', async () => {
    expect(await seedDemo(t.db)).toBe(false);
    const [n] = await t.db.select({ n: count() }).from(users);
    expect(n?.n).toBe(ROLES.length);
    expect(await t.db.select().from(groups).where(eq(groups.name, 'Demo Teleradiology'))).toHaveLength(1);
  });
});
