import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { userPresence } from '../../db/schema.js';
import { type TestApp, TestClient, createTestApp } from '../../../test/test-app.js';
import { createTestStudy, createTwoWorlds } from '../../../test/worklist-test-data.js';

/**
 * Issue 23 §3, spec-core §7 POST /chat-thread/beat and §9: the beat notes the caller's status at the
 * server's clock and answers the chat messages for them since fetchFrom and the online dots they see.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const beat = (browser: TestClient, body: Record<string, unknown>) =>
  browser.post('/api/chat-thread/beat', body);
const utc = (date: Date) => date.toISOString().slice(0, 19).replace('T', ' ');

describe('the beat', () => {
  it("shows the center its group's doctors online, and offline after 20 minutes without a beat", async () => {
    const w = await createTwoWorlds(
      t,
      { centerUser: ['ROLE_CENTER'], doctor: ['ROLE_DOCTOR'], typist: ['ROLE_TYPIST'] },
      { otherDoctor: ['ROLE_DOCTOR'] },
    );
    for (const who of [w.doctor, w.typist, w.otherDoctor]) {
      expect((await beat(who.browser, { status: 'ONLINE' })).statusCode).toBe(200);
    }
    const seen = await beat(w.centerUser.browser, { status: 'ONLINE' });
    expect(seen.statusCode, seen.body).toBe(200);
    // Only the doctors of its own group, not the typist, not another group's doctor.
    expect(seen.json().onlineStatuses).toEqual([
      { email: w.doctor.user.email, status: 'ONLINE', updatedAt: expect.any(String) },
    ]);
    // The typist (not one who sees the dots) gets none.
    expect((await beat(w.typist.browser, { status: 'ONLINE' })).json().onlineStatuses).toEqual([]);

    t.clock.advance(19 * 60);
    expect((await beat(w.centerUser.browser, { status: 'ONLINE' })).json().onlineStatuses[0].status).toBe(
      'ONLINE',
    );
    t.clock.advance(60);
    expect((await beat(w.centerUser.browser, { status: 'ONLINE' })).json().onlineStatuses[0].status).toBe(
      'OFFLINE',
    );
    // The doctor's next beat brings them back; an idle tab says OFFLINE itself.
    await beat(w.doctor.browser, { status: 'ONLINE' });
    expect((await beat(w.centerUser.browser, { status: 'ONLINE' })).json().onlineStatuses[0].status).toBe(
      'ONLINE',
    );
    await beat(w.doctor.browser, { status: 'OFFLINE' });
    expect((await beat(w.centerUser.browser, { status: 'ONLINE' })).json().onlineStatuses[0].status).toBe(
      'OFFLINE',
    );
    const [stored] = await t.db.select().from(userPresence).where(eq(userPresence.userId, w.doctor.user.id));
    expect(stored?.status).toBe('OFFLINE');
    expect(stored!.updatedAt.getTime()).toBeGreaterThanOrEqual(t.clock.now.getTime());
  });

  it("brings the messages for the caller since fetchFrom: others' and unseen, on studies they may see", async () => {
    const w = await createTwoWorlds(
      t,
      { centerUser: ['ROLE_CENTER'], doctor: ['ROLE_DOCTOR'], patient: ['ROLE_CUSTOMER'] },
      { otherCenter: ['ROLE_CENTER'] },
    );
    const { row } = await createTestStudy(t.db, {
      groupId: w.group.id,
      centerId: w.center.id,
      row: { assignedToUserId: w.doctor.user.id, assignedAt: new Date() },
    });
    const before = utc(new Date(t.clock.now.getTime() - 1000));
    const sent = await w.centerUser.browser.post('/api/chat-thread/send-message', {
      messageData: {
        assignedTo: 'radiologist',
        type: 'COMMENT',
        entityId: row.id,
        message: 'urgent look please',
      },
    });
    expect(sent.statusCode, sent.body).toBe(200);

    // A fetchFrom after the message brings nothing; one before brings it while unseen.
    const later = utc(new Date(t.clock.now.getTime() + 60_000));
    expect(
      (await beat(w.doctor.browser, { status: 'ONLINE', fetchFrom: later })).json().notificationMessages,
    ).toEqual([]);
    const forDoctor = (await beat(w.doctor.browser, { status: 'ONLINE', fetchFrom: before })).json();
    expect(forDoctor.notificationMessages).toMatchObject([
      {
        entityId: row.id,
        createdBy: w.centerUser.user.email,
        seen: false,
        message: { message: 'urgent look please' },
      },
    ]);
    // ISO 8601 is read too.
    const iso = new Date(t.clock.now.getTime() - 60_000).toISOString();
    expect(
      (await beat(w.doctor.browser, { status: 'ONLINE', fetchFrom: iso })).json().notificationMessages,
    ).toHaveLength(1);
    // Not the sender's own, not another center's, not the patient's (no chat), not once seen.
    expect(
      (await beat(w.centerUser.browser, { status: 'ONLINE', fetchFrom: before })).json().notificationMessages,
    ).toEqual([]);
    expect(
      (await beat(w.otherCenter.browser, { status: 'ONLINE', fetchFrom: before })).json()
        .notificationMessages,
    ).toEqual([]);
    expect(
      (await beat(w.patient.browser, { status: 'ONLINE', fetchFrom: before })).json().notificationMessages,
    ).toEqual([]);
    await w.doctor.browser.post('/api/chat-thread/seen', { chatThreadType: 'REPORT_CHAT', entityId: row.id });
    expect(
      (await beat(w.doctor.browser, { status: 'ONLINE', fetchFrom: before })).json().notificationMessages,
    ).toEqual([]);
  });

  it('refuses a bad status or fetchFrom with 400, and a visitor with 401', async () => {
    const w = await createTwoWorlds(t, { centerUser: ['ROLE_CENTER'] }, {});
    for (const body of [
      { status: 'AWAY' },
      { status: 'ONLINE', fetchFrom: 'yesterday' },
      { status: 'ONLINE', fetchFrom: '2026-13-45 99:99:99' },
      {},
    ]) {
      const res = await beat(w.centerUser.browser, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
    }
    const visitor = await beat(new TestClient(t.app), { status: 'ONLINE' });
    expect(visitor.statusCode, visitor.body).toBe(401);
  });
});
