import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, createTestApp, signInAt } from '../../../test/test-app.js';
import { LiveClient, type TSseMessage } from '../../../test/live-client.js';
import { createTwoWorlds } from '../../../test/worklist-test-data.js';

/*
 * Issue 23 §3 through §4: the doctor online list and its dots follow the live stream. A doctor's
 * beat that changes what the others see (ONLINE ↔ OFFLINE) is a `presence` event on the streams of
 * those who see the dots (core seesOnlineStatuses: the group's doctors and centers), at once; a
 * beat that changes nothing is no event; nobody of another group, and no role without the dots,
 * hears of it.
 */

let t: TestApp;
let baseUrl: string;
beforeAll(async () => {
  t = await createTestApp();
  baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(() => t.close());

const presenceOf = (stream: LiveClient) =>
  stream.messages
    .filter((m) => m.event === 'presence')
    .map((m) => JSON.parse(m.data) as { email: string; status: string; updatedAt: string | null });

const isPresence = (email: string, status: string) => (m: TSseMessage) =>
  m.event === 'presence' &&
  (JSON.parse(m.data) as { email: string; status: string }).email === email &&
  (JSON.parse(m.data) as { status: string }).status === status;

describe('presence on the live stream', () => {
  it("a doctor going online and offline reaches the group's centers and doctors at once, no one else", async () => {
    const w = await createTwoWorlds(
      t,
      { centerUser: ['ROLE_CENTER'], colleague: ['ROLE_DOCTOR'], assignor: ['ROLE_ASSIGNOR'] },
      { otherCenter: ['ROLE_CENTER'] },
    );
    const doctor = await signInAt(t, w, ['ROLE_DOCTOR']);
    const streams = {
      center: await LiveClient.connect(baseUrl, w.centerUser.browser),
      colleague: await LiveClient.connect(baseUrl, w.colleague.browser),
      doctor: await LiveClient.connect(baseUrl, doctor.browser),
      assignor: await LiveClient.connect(baseUrl, w.assignor.browser),
      otherCenter: await LiveClient.connect(baseUrl, w.otherCenter.browser),
    };
    try {
      const online = await doctor.browser.post('/api/chat-thread/beat', { status: 'ONLINE' });
      expect(online.statusCode, online.body).toBe(200);
      const toCenter = await streams.center.waitFor(isPresence(doctor.user.email, 'ONLINE'));
      await streams.colleague.waitFor(isPresence(doctor.user.email, 'ONLINE'));
      // What the online list shows of them, nothing more.
      expect(Object.keys(JSON.parse(toCenter.data)).sort()).toEqual(['email', 'status', 'updatedAt']);

      // The next beat with the same status changes nothing anyone sees: no event.
      await doctor.browser.post('/api/chat-thread/beat', { status: 'ONLINE' });
      const offline = await doctor.browser.post('/api/chat-thread/beat', { status: 'OFFLINE' });
      expect(offline.statusCode, offline.body).toBe(200);
      await streams.center.waitFor(isPresence(doctor.user.email, 'OFFLINE'));
      await streams.colleague.waitFor(isPresence(doctor.user.email, 'OFFLINE'));
      expect(presenceOf(streams.center).map((p) => p.status)).toEqual(['ONLINE', 'OFFLINE']);

      // A center's beat is nobody's dot.
      await w.centerUser.browser.post('/api/chat-thread/beat', { status: 'ONLINE' });
      // A later change proves the others' streams were past these ones.
      await w.colleague.browser.post('/api/chat-thread/beat', { status: 'ONLINE' });
      await streams.center.waitFor(isPresence(w.colleague.user.email, 'ONLINE'));
      await streams.doctor.waitFor(isPresence(w.colleague.user.email, 'ONLINE'));
      expect(presenceOf(streams.doctor).map((p) => p.email)).toEqual([w.colleague.user.email]);
      expect(presenceOf(streams.colleague).map((p) => p.email)).toEqual([
        doctor.user.email,
        doctor.user.email,
      ]);
      expect(presenceOf(streams.center).some((p) => p.email === w.centerUser.user.email)).toBe(false);
      expect(presenceOf(streams.assignor)).toEqual([]);
      expect(presenceOf(streams.otherCenter)).toEqual([]);
    } finally {
      for (const stream of Object.values(streams)) stream.close();
    }
  });
});
