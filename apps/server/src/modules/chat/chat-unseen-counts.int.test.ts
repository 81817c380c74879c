import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, type TestClient, createTestApp, createTestCenter } from '../../../test/test-app.js';
import { createTestStudy, createTwoWorlds, signedInAt } from '../../../test/worklist-test-data.js';

/**
 * Issue 23 §1: the row badges of a study list page. One call answers, per row of the page, the
 * caller's unseen messages; the access rule is in the query, so a row of another center (or group)
 * never appears, whatever its thread holds.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const send = (browser: TestClient, entityId: number, message: string) =>
  browser.post('/api/chat-thread/send-message', { messageData: { entityId, message } });
const counts = async (browser: TestClient, ids: number[]) => {
  const res = await browser.post('/api/chat-thread/unseen-counts', { ids });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ unseen: Record<string, number> }>().unseen;
};

describe('unseen counts of a list page', () => {
  it('counts per row for the reader, never a row of another center, and clears when seen', async () => {
    const w = await createTwoWorlds(
      t,
      { centerUser: ['ROLE_CENTER'], assignor: ['ROLE_ASSIGNOR'] },
      { stranger: ['ROLE_ASSIGNOR'] },
    );
    const secondCenter = await createTestCenter(t.db, { groupId: w.group.id });
    const otherCenterUser = await signedInAt(t, { group: w.group, center: secondCenter }, ['ROLE_CENTER']);
    const mine = await createTestStudy(t.db, { groupId: w.group.id, centerId: w.center.id });
    const quiet = await createTestStudy(t.db, { groupId: w.group.id, centerId: w.center.id });
    const theirs = await createTestStudy(t.db, { groupId: w.group.id, centerId: secondCenter.id });

    expect((await send(w.assignor.browser, mine.row.id, 'one')).statusCode).toBe(200);
    expect((await send(w.assignor.browser, mine.row.id, 'two')).statusCode).toBe(200);
    expect((await send(w.assignor.browser, theirs.row.id, 'for the other center')).statusCode).toBe(200);

    const ids = [mine.row.id, quiet.row.id, theirs.row.id];
    // The other center's row, with an unseen message in its thread, is not answered to this center.
    expect(await counts(w.centerUser.browser, ids)).toEqual({ [mine.row.id]: 2 });
    expect(await counts(otherCenterUser.browser, ids)).toEqual({ [theirs.row.id]: 1 });
    // The sender has seen their own; another group sees none of these rows.
    expect(await counts(w.assignor.browser, ids)).toEqual({});
    expect(await counts(w.stranger.browser, ids)).toEqual({});

    await w.centerUser.browser.post('/api/chat-thread/seen', {
      chatThreadType: 'REPORT_CHAT',
      entityId: mine.row.id,
    });
    expect(await counts(w.centerUser.browser, ids)).toEqual({});
    expect(await counts(w.centerUser.browser, [])).toEqual({});
  });

  it('refuses bad ids (400) and roles outside the chat (403)', async () => {
    const w = await createTwoWorlds(t, { centerUser: ['ROLE_CENTER'], patient: ['ROLE_CUSTOMER'] }, {});
    for (const body of [{ ids: ['x'] }, { ids: [0] }, {}]) {
      expect((await w.centerUser.browser.post('/api/chat-thread/unseen-counts', body)).statusCode).toBe(400);
    }
    expect((await w.patient.browser.post('/api/chat-thread/unseen-counts', { ids: [1] })).statusCode).toBe(
      403,
    );
  });
});
