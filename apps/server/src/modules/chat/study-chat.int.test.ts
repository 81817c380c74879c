import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHAT_MESSAGES, CHAT_MESSAGE_MAX_LENGTH, CHAT_SEND_LIMIT } from '@radflow/core';
import { chatMessages, studyEvents } from '../../db/schema.js';
import { type TestApp, type TestClient, createTestApp } from '../../../test/test-app.js';
import { createTestStudy, createTwoWorlds, signedInAt } from '../../../test/worklist-test-data.js';

/**
 * Issue 23 §1: the study chat's calls (spec-core §7). Those who work on a study talk on its thread;
 * the access rule is the study row's (a study of another center or group answers 404 like a missing
 * one); roles outside the chat get 403; text is plain, bounded and rate-limited.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

async function world() {
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
  return { ...w, row };
}

const send = (browser: TestClient, entityId: number, message: string, assignedTo = 'radiologist') =>
  browser.post('/api/chat-thread/send-message', {
    messageData: { assignedTo, type: 'COMMENT', entityId, message, studyId: entityId },
  });

describe('the study chat', () => {
  it('the center and the assigned doctor talk on the study; unseen counts; seen marks them', async () => {
    const w = await world();
    const sent = await send(w.centerUser.browser, w.row.id, '  Please look at the left lung base.  ');
    expect(sent.statusCode, sent.body).toBe(200);
    expect(sent.json()).toMatchObject({
      entityId: w.row.id,
      threadType: 'REPORT_CHAT',
      memberType: 'center',
      createdBy: w.centerUser.user.email,
      seen: true,
      message: { type: 'COMMENT', message: 'Please look at the left lung base.', assignedTo: 'radiologist' },
    });

    const forDoctor = await w.doctor.browser.get(
      `/api/chat-thread/get-messages?threadType=REPORT_CHAT&entityId=${w.row.id}`,
    );
    expect(forDoctor.statusCode, forDoctor.body).toBe(200);
    expect(forDoctor.json()).toMatchObject({
      unseen: 1,
      messages: [{ seen: false, createdBy: w.centerUser.user.email }],
    });

    const reply = await send(w.doctor.browser, w.row.id, 'Seen it: <b>no</b> nodule.', 'center');
    expect(reply.json()).toMatchObject({
      memberType: 'radiologist',
      message: { message: 'Seen it: <b>no</b> nodule.' },
    });

    expect(
      (
        await w.doctor.browser.post('/api/chat-thread/seen', {
          chatThreadType: 'REPORT_CHAT',
          entityId: w.row.id,
        })
      ).json(),
    ).toEqual({ seen: 1 });
    expect(
      (
        await w.doctor.browser.post('/api/chat-thread/seen', {
          chatThreadType: 'REPORT_CHAT',
          entityId: w.row.id,
        })
      ).json(),
    ).toEqual({ seen: 0 });
    const thread = (
      await w.centerUser.browser.get(
        `/api/chat-thread/get-messages?threadType=REPORT_CHAT&entityId=${w.row.id}`,
      )
    ).json();
    expect(thread.messages.map((m: { message: { message: string } }) => m.message.message)).toEqual([
      'Please look at the left lung base.',
      'Seen it: <b>no</b> nodule.',
    ]);
    expect(thread.unseen).toBe(1);
    expect(thread.messages[0].seenByList.map((s: { email: string }) => s.email).sort()).toEqual(
      [w.centerUser.user.email, w.doctor.user.email].sort(),
    );
    expect(
      (
        await w.centerUser.browser.post('/api/chat-thread/all-seen', { chatThreadType: 'REPORT_CHAT' })
      ).json(),
    ).toEqual({ seen: 1 });

    // Each message is on the study's timeline as a typed event (the text stays in the chat).
    const events = await t.db
      .select()
      .from(studyEvents)
      .where(and(eq(studyEvents.reportStatusId, w.row.id), eq(studyEvents.eventType, 'CHAT_MESSAGE_SENT')));
    expect(events).toHaveLength(2);
  });

  it('a study the caller may not see answers 404, with or without a thread; no message is stored', async () => {
    const w = await world();
    await send(w.centerUser.browser, w.row.id, 'hello');
    for (const id of [w.row.id, 2_000_000_000]) {
      expect((await send(w.otherCenter.browser, id, 'let me in')).statusCode).toBe(404);
      const read = await w.otherCenter.browser.get(
        `/api/chat-thread/get-messages?threadType=REPORT_CHAT&entityId=${id}`,
      );
      expect(read.statusCode).toBe(404);
      expect(
        (
          await w.otherCenter.browser.post('/api/chat-thread/seen', {
            chatThreadType: 'REPORT_CHAT',
            entityId: id,
          })
        ).statusCode,
      ).toBe(404);
    }
    // all-seen touches only threads the caller may see.
    expect(
      (
        await w.otherCenter.browser.post('/api/chat-thread/all-seen', { chatThreadType: 'REPORT_CHAT' })
      ).json(),
    ).toEqual({ seen: 0 });
    const stored = await t.db.select().from(chatMessages).where(eq(chatMessages.body, 'let me in'));
    expect(stored).toEqual([]);
  });

  it('the patient, who reads the study, is not in the staff conversation: 403 on every call', async () => {
    const w = await world();
    await send(w.centerUser.browser, w.row.id, 'internal note');
    expect((await send(w.patient.browser, w.row.id, 'hi')).statusCode).toBe(403);
    expect(
      (
        await w.patient.browser.get(
          `/api/chat-thread/get-messages?threadType=REPORT_CHAT&entityId=${w.row.id}`,
        )
      ).statusCode,
    ).toBe(403);
    expect(
      (await w.patient.browser.post('/api/chat-thread/all-seen', { chatThreadType: 'REPORT_CHAT' }))
        .statusCode,
    ).toBe(403);
  });

  it("refuses an empty, a blank and a too long message with the spec's words, and bad thread types", async () => {
    const w = await world();
    for (const [message, words] of [
      ['', CHAT_MESSAGES.empty],
      ['   \n ', CHAT_MESSAGES.empty],
      ['x'.repeat(CHAT_MESSAGE_MAX_LENGTH + 1), CHAT_MESSAGES.tooLong],
    ] as const) {
      const res = await send(w.centerUser.browser, w.row.id, message);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().errorDescription).toContain(words);
    }
    expect((await send(w.centerUser.browser, w.row.id, 'x'.repeat(CHAT_MESSAGE_MAX_LENGTH))).statusCode).toBe(
      200,
    );
    expect((await send(w.centerUser.browser, w.row.id, 'ok', 'everyone')).statusCode).toBe(400);
    expect(
      (await w.centerUser.browser.get(`/api/chat-thread/get-messages?threadType=OTHER&entityId=${w.row.id}`))
        .statusCode,
    ).toBe(400);
    expect(
      (await w.centerUser.browser.get('/api/chat-thread/get-messages?threadType=REPORT_CHAT&entityId=abc'))
        .statusCode,
    ).toBe(400);
  });

  it(`answers 429 past ${CHAT_SEND_LIMIT} messages a minute from one sender, and keeps the others`, async () => {
    const w = await world();
    for (let i = 0; i < CHAT_SEND_LIMIT; i += 1) {
      expect((await send(w.centerUser.browser, w.row.id, `m${i}`)).statusCode).toBe(200);
    }
    const refused = await send(w.centerUser.browser, w.row.id, 'one more');
    expect(refused.statusCode, refused.body).toBe(429);
    expect(refused.json().errorDescription).toBe(CHAT_MESSAGES.tooMany);
    // Another sender is not held back by it; a minute later the first may send again.
    expect((await send(w.doctor.browser, w.row.id, 'my turn')).statusCode).toBe(200);
    t.clock.advance(61);
    expect((await send(w.centerUser.browser, w.row.id, 'later')).statusCode).toBe(200);
  });

  it('a second center user of the same center reads the thread; a typist of another group does not', async () => {
    const w = await world();
    await send(w.centerUser.browser, w.row.id, 'for the team');
    const colleague = await signedInAt(t, w, ['ROLE_CENTER']);
    const read = await colleague.browser.get(
      `/api/chat-thread/get-messages?threadType=REPORT_CHAT&entityId=${w.row.id}`,
    );
    expect(read.json()).toMatchObject({ unseen: 1, messages: [{ message: { message: 'for the team' } }] });
    const stranger = await signedInAt(t, w.other, ['ROLE_TYPIST']);
    expect(
      (
        await stranger.browser.get(
          `/api/chat-thread/get-messages?threadType=REPORT_CHAT&entityId=${w.row.id}`,
        )
      ).statusCode,
    ).toBe(404);
  });
});
