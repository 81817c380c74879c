import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { CHAT_MESSAGES, type TSupportThread, type TSupportThreadSummary } from '@radflow/core';
import { groups } from '../../db/schema.js';
import { studyActionFixtures } from '../../../test/study-actions.fixtures.js';
import { type TestApp, createTestApp } from '../../../test/test-app.js';

/*
 * issue 29 §6 enableSupportChatBot: a user's own thread with the platform's support, on our server
 * (a third-party widget cannot be reached from a clinic's closed network), offered only while the
 * group's switch is on. Support is the operator group's admins.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const { createWorld, signIn } = studyActionFixtures(() => t);

async function operatorWorld() {
  const world = await createWorld();
  await t.db.update(groups).set({ platformOperator: true }).where(eq(groups.id, world.group.id));
  return world;
}

describe('the support chat', () => {
  it('a center user asks support, support sees the thread and answers, the user reads the answer', async () => {
    const clinic = await createWorld({ enableSupportChatBot: true });
    const { browser: center, user } = await signIn(clinic, ['ROLE_CENTER']);
    const empty = await center.get('/api/support-chat');
    expect(empty.statusCode, empty.body).toBe(200);
    expect(empty.json<TSupportThread>().messages).toEqual([]);

    const sent = await center.post('/api/support-chat/send', { message: '  The router is offline  ' });
    expect(sent.statusCode, sent.body).toBe(200);
    expect(sent.json<TSupportThread>().messages.map((m) => [m.fromSupport, m.message])).toEqual([
      [false, 'The router is offline'],
    ]);

    const platform = await operatorWorld();
    const { browser: support } = await signIn(platform, ['ROLE_GROUP']);
    const listed = await support.get('/api/support-chat/threads');
    expect(listed.statusCode, listed.body).toBe(200);
    const threads = listed.json<TSupportThreadSummary[]>();
    const mine = threads.find((th) => th.userId === user.id);
    expect(mine).toMatchObject({
      email: user.email,
      groupName: clinic.group.name,
      lastMessage: 'The router is offline',
      isAwaitingSupport: true,
    });
    const answer = await support.post(`/api/support-chat/threads/${user.id}/send`, {
      message: 'Restart it from the PACS router page',
    });
    expect(answer.statusCode, answer.body).toBe(200);

    const thread = (await center.get('/api/support-chat')).json<TSupportThread>();
    expect(thread.messages.map((m) => [m.fromSupport, m.message])).toEqual([
      [false, 'The router is offline'],
      [true, 'Restart it from the PACS router page'],
    ]);
    const after = (await support.get('/api/support-chat/threads')).json<TSupportThreadSummary[]>();
    expect(after.find((th) => th.userId === user.id)?.isAwaitingSupport).toBe(false);
  });

  it('is not offered while the switch is off: 403 to read and to send', async () => {
    const clinic = await createWorld();
    const { browser } = await signIn(clinic, ['ROLE_DOCTOR']);
    expect((await browser.get('/api/support-chat')).statusCode).toBe(403);
    expect((await browser.post('/api/support-chat/send', { message: 'hello' })).statusCode).toBe(403);
  });

  it("a user reads only their own thread; another group's admin is not support", async () => {
    const clinic = await createWorld({ enableSupportChatBot: true });
    const { browser: a } = await signIn(clinic, ['ROLE_CENTER']);
    const { browser: b, user: userB } = await signIn(clinic, ['ROLE_DOCTOR']);
    await a.post('/api/support-chat/send', { message: 'from A' });
    expect((await b.get('/api/support-chat')).json<TSupportThread>().messages).toEqual([]);

    const { browser: clinicAdmin } = await signIn(clinic, ['ROLE_GROUP']);
    expect((await clinicAdmin.get('/api/support-chat/threads')).statusCode).toBe(403);
    expect((await clinicAdmin.get(`/api/support-chat/threads/${userB.id}`)).statusCode).toBe(403);
    const platform = await operatorWorld();
    const { browser: notAdmin } = await signIn(platform, ['ROLE_DOCTOR']);
    expect((await notAdmin.get('/api/support-chat/threads')).statusCode).toBe(403);
  });

  it('refuses an empty message with the chat message; support cannot start a thread nobody opened', async () => {
    const clinic = await createWorld({ enableSupportChatBot: true });
    const { browser, user } = await signIn(clinic, ['ROLE_CENTER']);
    const blank = await browser.post('/api/support-chat/send', { message: '   ' });
    expect(blank.statusCode).toBe(400);
    expect(blank.json<{ errorDescription: string }>().errorDescription).toBe(CHAT_MESSAGES.empty);

    const platform = await operatorWorld();
    const { browser: support } = await signIn(platform, ['ROLE_ADMIN']);
    const res = await support.post(`/api/support-chat/threads/${user.id}/send`, { message: 'Hi' });
    expect(res.statusCode).toBe(404);
  });

  it("support's screen lists the unanswered threads first, each group newest first", async () => {
    const clinic = await createWorld({ enableSupportChatBot: true });
    const platform = await operatorWorld();
    const { browser: support } = await signIn(platform, ['ROLE_GROUP']);
    const asked = [];
    for (const role of ['ROLE_CENTER', 'ROLE_DOCTOR', 'ROLE_TYPIST'] as const) {
      const { browser, user } = await signIn(clinic, [role]);
      await browser.post('/api/support-chat/send', { message: `from ${role}` });
      asked.push(user);
    }
    const [first, second, third] = asked as [(typeof asked)[0], (typeof asked)[0], (typeof asked)[0]];
    // The newest thread is answered: it goes below the two still waiting.
    await support.post(`/api/support-chat/threads/${third.id}/send`, { message: 'Done' });

    const listed = (await support.get('/api/support-chat/threads')).json<TSupportThreadSummary[]>();
    const ours = listed.filter((th) => [first.id, second.id, third.id].includes(th.userId));
    expect(ours.map((th) => [th.userId, th.isAwaitingSupport])).toEqual([
      [second.id, true],
      [first.id, true],
      [third.id, false],
    ]);
  });

  it('GET /api/user tells the platform support it answers the chat, and nobody else', async () => {
    const clinic = await createWorld({ enableSupportChatBot: true });
    const platform = await operatorWorld();
    const answers = async (world: typeof clinic, role: 'ROLE_GROUP' | 'ROLE_ADMIN' | 'ROLE_DOCTOR') => {
      const { browser } = await signIn(world, [role]);
      const me = await browser.get('/api/user/');
      expect(me.statusCode, me.body).toBe(200);
      return me.json<{ answersSupport: boolean }>().answersSupport;
    };
    expect(await answers(platform, 'ROLE_GROUP')).toBe(true);
    expect(await answers(platform, 'ROLE_ADMIN')).toBe(true);
    expect(await answers(platform, 'ROLE_DOCTOR')).toBe(false);
    expect(await answers(clinic, 'ROLE_GROUP')).toBe(false);
  });
});
