import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, type TestClient, createTestApp } from '../../../test/test-app.js';
import { createTwoWorlds, signedInAt } from '../../../test/worklist-test-data.js';

/**
 * spec-core §1 Presence, spec-lab §6: the online list shows the group's doctors with their dots,
 * ONLINE first — a doctor whose tab has never beaten (not signed in since) is there, OFFLINE.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const beat = (browser: TestClient) => browser.post('/api/chat-thread/beat', { status: 'ONLINE' });

describe('the online list', () => {
  it('lists every active doctor of the group, ONLINE first, one who never beat as OFFLINE', async () => {
    const w = await createTwoWorlds(t, { centerUser: ['ROLE_CENTER'] }, {});
    const early = await signedInAt(t, w, ['ROLE_DOCTOR']);
    const never = await signedInAt(t, w, ['ROLE_DOCTOR']);
    const late = await signedInAt(t, w, ['ROLE_DOCTOR']);
    await beat(early.browser);
    await beat(late.browser);
    await early.browser.post('/api/chat-thread/beat', { status: 'OFFLINE' });

    const res = await beat(w.centerUser.browser);
    expect(res.statusCode, res.body).toBe(200);
    const list = res.json<{ onlineStatuses: Array<{ email: string; status: string }> }>().onlineStatuses;
    expect(list.map((d) => [d.email, d.status])).toEqual([
      [late.user.email, 'ONLINE'],
      ...[
        [early.user.email, 'OFFLINE'],
        [never.user.email, 'OFFLINE'],
      ].sort((a, b) => a[0]!.localeCompare(b[0]!)),
    ]);
  });
});
