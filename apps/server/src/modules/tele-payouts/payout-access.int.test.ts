import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROLES, type TRole, canManagePayouts, canReadPayouts } from '@radflow/core';
import { type TestApp, createTestApp, createTestWorld, signInAt } from '../../../test/test-app.js';

/*
 * The payout calls × every role (issue 26 §5 "the access matrix grows"): the tele roles use every
 * call, a doctor only the statement reads, every other role 403 before anything is looked up.
 * Expected cells are read from the two core rules, whose own table is payouts/rules.test.ts.
 */

let t: TestApp;
let world: Awaited<ReturnType<typeof createTestWorld>>;
beforeAll(async () => {
  t = await createTestApp();
  world = await createTestWorld(t.db);
});
afterAll(() => t.close());

const PERIOD = { periodStart: '2026-03-01', periodEnd: '2026-03-31' };
const CALLS = [
  { name: 'GET rates', read: false, run: (b: TBrowser) => b.get('/api/tele-payout/rates') },
  { name: 'POST preview', read: false, run: (b: TBrowser) => b.post('/api/tele-payout/preview', PERIOD) },
  { name: 'POST issue', read: false, run: (b: TBrowser) => b.post('/api/tele-payout/issue', PERIOD) },
  {
    name: 'GET margin',
    read: false,
    run: (b: TBrowser) => b.get('/api/tele-payout/margin?from=2026-03-01&to=2026-03-31'),
  },
  { name: 'GET statements', read: true, run: (b: TBrowser) => b.get('/api/tele-payout/statements') },
  {
    name: 'GET statement',
    read: true,
    run: (b: TBrowser) => b.get('/api/tele-payout/statements/2147483647'),
  },
] as const;
type TBrowser = Awaited<ReturnType<typeof signInAt>>['browser'];

describe.each(ROLES.map((r) => [r] as const))('%s', (role: TRole) => {
  it('gets each payout call or 403', async () => {
    const { browser } = await signInAt(t, world, [role]);
    for (const call of CALLS) {
      const allowed = call.read ? canReadPayouts([role]) : canManagePayouts([role]);
      const res = await call.run(browser);
      if (!allowed) expect(res.statusCode, `${call.name}: ${res.body}`).toBe(403);
      else
        expect(res.statusCode, `${call.name}: ${res.body}`).toBe(call.name === 'GET statement' ? 404 : 200);
    }
  });
});
