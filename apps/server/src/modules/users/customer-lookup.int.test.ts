import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CUSTOMER_LOOKUP_MAX_PER_ADDRESS, CUSTOMER_LOOKUP_MAX_PER_NUMBER } from '@radflow/core';
import {
  type TestApp,
  TestClient,
  createTestApp,
  createTestUser,
  uniqueMobile,
} from '../../../test/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const isNew = (client: TestClient, mobile: string) => client.post('/api/user/customer/is-new', { mobile });

describe('POST /api/user/customer/is-new reveals no staff number and cannot be scanned', () => {
  it('answers a staff number exactly as an unregistered one; only customer accounts are not new', async () => {
    const staffMobile = uniqueMobile();
    await createTestUser(t.db, { roles: ['ROLE_DOCTOR'], mobileNumber: staffMobile });
    const customerMobile = uniqueMobile();
    await createTestUser(t.db, { roles: ['ROLE_CUSTOMER'], mobileNumber: customerMobile });

    const staff = await isNew(new TestClient(t.app), staffMobile);
    const unknown = await isNew(new TestClient(t.app), uniqueMobile());
    expect(staff.statusCode).toBe(200);
    expect(staff.json()).toEqual({ isNew: true });
    expect(staff.body).toBe(unknown.body);
    expect((await isNew(new TestClient(t.app), customerMobile)).json()).toEqual({ isNew: false });
  });

  it(`answers one address at most ${CUSTOMER_LOOKUP_MAX_PER_ADDRESS} look-ups in the window, then 429 with Retry-After`, async () => {
    const scanner = new TestClient(t.app);
    for (let i = 0; i < CUSTOMER_LOOKUP_MAX_PER_ADDRESS; i++) {
      expect((await isNew(scanner, uniqueMobile())).statusCode).toBe(200);
    }
    const limited = await isNew(scanner, uniqueMobile());
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(limited.json().errorDescription).toMatch(
      /^Too many look-ups\. Please try again in \d+ (seconds?|minutes?)\.$/,
    );
    // Another address is answered.
    expect((await isNew(new TestClient(t.app), uniqueMobile())).statusCode).toBe(200);
  });

  it(`answers one number at most ${CUSTOMER_LOOKUP_MAX_PER_NUMBER} look-ups in the window, from any address`, async () => {
    const mobile = uniqueMobile();
    for (let i = 0; i < CUSTOMER_LOOKUP_MAX_PER_NUMBER; i++) {
      expect((await isNew(new TestClient(t.app), mobile)).statusCode).toBe(200);
    }
    expect((await isNew(new TestClient(t.app), mobile)).statusCode).toBe(429);
  });

  it('40 look-ups fired at once from one address get exactly the limit answered', async () => {
    const scanner = new TestClient(t.app);
    const answers = await Promise.all(Array.from({ length: 40 }, () => isNew(scanner, uniqueMobile())));
    const answered = answers.filter((r) => r.statusCode === 200).length;
    // Neither more (all slipping under the count) nor fewer (on PostgreSQL, parallel look-ups that
    // wrote first and counted after all saw each other and were all refused).
    expect(answered).toBe(CUSTOMER_LOOKUP_MAX_PER_ADDRESS);
    expect(answers.every((r) => r.statusCode === 200 || r.statusCode === 429)).toBe(true);
  });
});
