import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TAccountPayment } from '@radflow/core';
import {
  type TestApp,
  TestClient,
  createTestApp,
  createTestGroup,
  createTestUser,
} from '../../../test/test-app.js';
import { signedIn } from '../../../test/worklist-test-data.js';

/**
 * spec-core §4 Viewer payment: a viewer-role session whose payment is not done is sent to
 * `/share?link={email}`. That page asks GET /api/customer-report/payment-info: whether a payment is
 * due (as share-info decides it) and who to contact.
 */

const SUPPORT = { phone: '+91 80 4000 1234', email: 'help@radflow.example' };
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ support: SUPPORT });
});
afterAll(() => t.close());

describe('GET /api/customer-report/payment-info', () => {
  it("answers the viewer what share-info decides, the support contact and the group's active administrators", async () => {
    const group = await createTestGroup(t.db);
    const other = await createTestGroup(t.db);
    await createTestUser(t.db, { roles: ['ROLE_ADMIN'], groupId: group.id, identifier: 'B Admin' });
    await createTestUser(t.db, {
      roles: ['ROLE_DOCTOR', 'ROLE_GROUP'],
      groupId: group.id,
      identifier: 'A Group',
    });
    await createTestUser(t.db, {
      roles: ['ROLE_ADMIN'],
      groupId: group.id,
      identifier: 'C Gone',
      active: false,
    });
    await createTestUser(t.db, { roles: ['ROLE_ADMIN'], groupId: other.id, identifier: 'D Elsewhere' });
    await createTestUser(t.db, { roles: ['ROLE_DOCTOR'], groupId: group.id, identifier: 'E Doctor' });
    const { browser } = await signedIn(t, { roles: ['ROLE_VIEWER'], groupId: group.id });

    const res = await browser.get('/api/customer-report/payment-info');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['cache-control']).toBe('private, no-store');
    const body = res.json<TAccountPayment>();
    const shareInfo = (await browser.get('/api/customer-report/share-info')).json<{
      paymentNotDone: boolean;
    }>();
    expect(body.paymentNotDone).toBe(shareInfo.paymentNotDone);
    expect(body.support).toEqual(SUPPORT);
    expect(body.groupAdmins.map((a) => a.name)).toEqual(['A Group', 'B Admin']);
    expect(body.groupAdmins.every((a) => a.email.endsWith('@test.local'))).toBe(true);
  });

  it('says no support contact when the deployment has none', async () => {
    const bare = await createTestApp();
    try {
      const group = await createTestGroup(bare.db);
      const { browser } = await signedIn(bare, { roles: ['ROLE_VIEWER'], groupId: group.id });
      const body = (await browser.get('/api/customer-report/payment-info')).json<TAccountPayment>();
      expect(body.support).toEqual({ phone: null, email: null });
      expect(body.groupAdmins).toEqual([]);
    } finally {
      await bare.close();
    }
  });

  it('is for viewer accounts only: 403 for other roles, 401 signed out', async () => {
    const group = await createTestGroup(t.db);
    for (const role of ['ROLE_DOCTOR', 'ROLE_CUSTOMER', 'ROLE_ADMIN'] as const) {
      const { browser } = await signedIn(t, { roles: [role], groupId: group.id });
      expect((await browser.get('/api/customer-report/payment-info')).statusCode).toBe(403);
    }
    expect((await new TestClient(t.app).get('/api/customer-report/payment-info')).statusCode).toBe(401);
  });
});
