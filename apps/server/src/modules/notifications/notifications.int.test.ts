import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NOTIFICATION_KINDS, NOTIFICATION_WINDOW_DAYS, type TNotificationsPage } from '@radflow/core';
import { reportStatuses } from '../../db/schema.js';
import { type TestApp, type TestClient, createTestApp } from '../../../test/test-app.js';
import { createTestStudy, createTwoWorlds, signedInAt } from '../../../test/worklist-test-data.js';
import { recordStudyEvent } from '../study-events/record-study-event.js';

/**
 * Issue 23 §2: the bell. A user's notifications are the study events they are an audience of
 * (core STUDY_EVENT_RULES), on studies they may see, not their own; seen is per user.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

async function world() {
  const w = await createTwoWorlds(
    t,
    {
      assignor: ['ROLE_ASSIGNOR'],
      doctor: ['ROLE_DOCTOR'],
      colleague: ['ROLE_DOCTOR'],
      centerUser: ['ROLE_CENTER'],
    },
    { strangerDoctor: ['ROLE_DOCTOR'], strangerCenter: ['ROLE_CENTER'] },
  );
  const { row, study } = await createTestStudy(t.db, {
    groupId: w.group.id,
    centerId: w.center.id,
    patientName: 'ROE^RICHARD',
    row: { status: 'HISTORY_CREATED', studyName: 'CT CHEST' },
  });
  return { ...w, row, study };
}

async function bell(browser: TestClient, query = ''): Promise<TNotificationsPage> {
  const res = await browser.get(`/api/notifications${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<TNotificationsPage>();
}

const assign = async (assignor: TestClient, reportId: number, assignedTo: string) => {
  const res = await assignor.post('/api/report-status/assign', { reportId, assignedTo });
  expect(res.statusCode, res.body).toBe(200);
};

describe('GET /api/notifications', () => {
  it('tells the assigned doctor of an assignment, and no other doctor, center or group', async () => {
    const w = await world();
    await assign(w.assignor.browser, w.row.id, w.doctor.user.email);

    const forDoctor = await bell(w.doctor.browser);
    expect(forDoctor.unseen).toBe(1);
    expect(forDoctor.notifications).toEqual([
      {
        id: expect.any(Number),
        kind: 'ASSIGNED_TO_YOU',
        eventType: 'ASSIGNED',
        reportStatusId: w.row.id,
        studyId: w.row.studyId,
        studyInstanceUid: w.study.studyInstanceUid,
        apiVersion: 2,
        patientName: 'ROE^RICHARD',
        studyName: 'CT CHEST',
        actor: w.assignor.user.identifier,
        at: expect.any(String),
        seen: false,
      },
    ]);
    for (const other of [w.colleague, w.centerUser, w.assignor, w.strangerDoctor, w.strangerCenter]) {
      expect(await bell(other.browser), other.user.roles[0]).toMatchObject({ unseen: 0, notifications: [] });
    }
  });

  it("tells the center of its study's news and nothing of another center's", async () => {
    const w = await world();
    await assign(w.assignor.browser, w.row.id, w.doctor.user.email);
    // The doctor signs off (as the reporting module writes it; its own tests cover the calls).
    await recordStudyEvent(t.db, {
      type: 'REPORT_SIGNED_OFF',
      reportStatusId: w.row.id,
      actor: { userId: w.doctor.user.id },
      fromStatus: 'LOCKED',
      toStatus: 'SIGNED_OFF',
      payload: { reportId: 1, version: 1, doctor: w.doctor.user.email },
    });
    expect((await bell(w.centerUser.browser)).notifications.map((n) => n.kind)).toEqual(['SIGNED_OFF']);
    expect((await bell(w.strangerCenter.browser)).unseen).toBe(0);
    // The doctor's own sign-off is not their news.
    expect((await bell(w.doctor.browser)).notifications.map((n) => n.kind)).toEqual(['ASSIGNED_TO_YOU']);
  });

  it('pages with `before`, newest first, and leaves out what is older than the window', async () => {
    const w = await world();
    for (let i = 0; i < 3; i++) {
      await assign(w.assignor.browser, w.row.id, w.colleague.user.email);
      await assign(w.assignor.browser, w.row.id, w.doctor.user.email);
    }
    const first = await bell(w.doctor.browser, '?limit=2');
    expect(first).toMatchObject({ unseen: 3, more: true });
    expect(first.notifications).toHaveLength(2);
    const ids = first.notifications.map((n) => n.id);
    expect(ids[0]).toBeGreaterThan(ids[1]!);
    const rest = await bell(w.doctor.browser, `?limit=2&before=${ids[1]}`);
    expect(rest).toMatchObject({ unseen: 3, more: false });
    expect(rest.notifications.map((n) => n.id)).toHaveLength(1);
    expect(rest.notifications[0]!.id).toBeLessThan(ids[1]!);

    // An assignment older than the window is history (the timeline keeps it), not news.
    const old = await createTestStudy(t.db, { groupId: w.group.id, centerId: w.center.id });
    await recordStudyEvent(t.db, {
      type: 'ASSIGNED',
      reportStatusId: old.row.id,
      actor: { userId: w.assignor.user.id },
      payload: { assignedTo: w.doctor.user.email, previousAssignedToUserId: null },
      at: new Date(t.app.ctx.now().getTime() - (NOTIFICATION_WINDOW_DAYS + 1) * 24 * 3600 * 1000),
    });
    await t.db
      .update(reportStatuses)
      .set({ assignedToUserId: w.doctor.user.id })
      .where(eq(reportStatuses.id, old.row.id));
    expect((await bell(w.doctor.browser)).unseen).toBe(3);
  });
});

describe('seen and all-seen', () => {
  it("marks the caller's notifications seen, ignoring ids that are not theirs", async () => {
    const w = await world();
    await assign(w.assignor.browser, w.row.id, w.doctor.user.email);
    const [mine] = (await bell(w.doctor.browser)).notifications;
    const other = await createTestStudy(t.db, { groupId: w.group.id, centerId: w.center.id });
    await assign(w.assignor.browser, other.row.id, w.colleague.user.email);
    const [theirs] = (await bell(w.colleague.browser)).notifications;

    // Someone else's id, an unknown id: nothing happens, and nothing is said about them.
    const foreign = await w.doctor.browser.post('/api/notifications/seen', {
      ids: [theirs!.id, 2 ** 31 - 1],
    });
    expect(foreign.statusCode, foreign.body).toBe(200);
    expect(foreign.json()).toEqual({ seen: 0, unseen: 1 });
    expect((await bell(w.colleague.browser)).unseen).toBe(1);

    const res = await w.doctor.browser.post('/api/notifications/seen', { ids: [mine!.id, theirs!.id] });
    expect(res.json()).toEqual({ seen: 1, unseen: 0 });
    expect((await bell(w.doctor.browser)).notifications).toMatchObject([{ id: mine!.id, seen: true }]);
    // Again: already seen.
    expect((await w.doctor.browser.post('/api/notifications/seen', { ids: [mine!.id] })).json()).toEqual({
      seen: 0,
      unseen: 0,
    });
    expect((await bell(w.colleague.browser)).unseen).toBe(1);
  });

  it('all-seen clears the count; news after it is unseen again', async () => {
    const w = await world();
    await assign(w.assignor.browser, w.row.id, w.doctor.user.email);
    const urgent = await w.centerUser.browser.post(`/api/report-status/urgent/${w.row.id}`);
    expect(urgent.statusCode, urgent.body).toBe(200);
    expect((await bell(w.doctor.browser)).notifications.map((n) => n.kind)).toEqual([
      'URGENT',
      'ASSIGNED_TO_YOU',
    ]);

    const all = await w.doctor.browser.post('/api/notifications/all-seen');
    expect(all.statusCode, all.body).toBe(200);
    expect(all.json()).toEqual({ seen: 2, unseen: 0 });

    await w.centerUser.browser.post(`/api/report-status/urgent/${w.row.id}`); // unmarked: nobody's news
    await w.centerUser.browser.post(`/api/report-status/urgent/${w.row.id}`);
    const after = await bell(w.doctor.browser);
    expect(after.unseen).toBe(1);
    expect(after.notifications.map((n) => [n.kind, n.seen])).toEqual([
      ['URGENT', false],
      ['URGENT', true],
      ['ASSIGNED_TO_YOU', true],
    ]);
  });
});

describe('a message for you', () => {
  const send = (browser: TestClient, entityId: number, assignedTo: string) =>
    browser.post('/api/chat-thread/send-message', {
      messageData: { assignedTo, type: 'COMMENT', entityId, message: 'Please call the patient.' },
    });

  it('tells the center a message addressed to it, and the doctor one addressed to the radiologist', async () => {
    const w = await world();
    await assign(w.assignor.browser, w.row.id, w.doctor.user.email);
    expect((await send(w.doctor.browser, w.row.id, 'center')).statusCode).toBe(200);
    expect((await bell(w.centerUser.browser)).notifications).toMatchObject([
      { kind: 'MESSAGE', reportStatusId: w.row.id, actor: w.doctor.user.identifier },
    ]);
    expect((await bell(w.strangerCenter.browser)).unseen).toBe(0);
    expect((await bell(w.assignor.browser)).unseen).toBe(0);

    expect((await send(w.centerUser.browser, w.row.id, 'radiologist')).statusCode).toBe(200);
    expect((await bell(w.doctor.browser)).notifications.map((n) => n.kind)).toEqual([
      'MESSAGE',
      'ASSIGNED_TO_YOU',
    ]);
    expect((await bell(w.colleague.browser)).unseen).toBe(0);
    // The sender is not told of their own message.
    expect((await bell(w.centerUser.browser)).unseen).toBe(1);
  });

  it('tells the user a sent message mentions, through the chat itself', async () => {
    const w = await world();
    const sent = await w.centerUser.browser.post('/api/chat-thread/send-message', {
      messageData: {
        assignedTo: 'NONE',
        type: 'COMMENT',
        entityId: w.row.id,
        message: 'Can this go first?',
        mentions: [w.assignor.user.id],
      },
    });
    expect(sent.statusCode, sent.body).toBe(200);
    expect((await bell(w.assignor.browser)).notifications).toMatchObject([
      { kind: 'MESSAGE', reportStatusId: w.row.id, actor: w.centerUser.user.identifier, seen: false },
    ]);
    // Addressed to no one and naming no one else: nobody else is told.
    expect((await bell(w.doctor.browser)).unseen).toBe(0);
    expect((await bell(w.colleague.browser)).unseen).toBe(0);
  });

  it('tells every user a message mentions, if they may see the study', async () => {
    const w = await world();
    const typist = await signedInAt(t, { group: w.group, center: w.center }, ['ROLE_TYPIST']);
    // The chat writes the event with the mentioned user ids (core TStudyEventPayloads).
    await recordStudyEvent(t.db, {
      type: 'CHAT_MESSAGE_SENT',
      reportStatusId: w.row.id,
      actor: { userId: w.centerUser.user.id },
      fromStatus: 'HISTORY_CREATED',
      toStatus: 'HISTORY_CREATED',
      payload: {
        messageId: 1,
        assignedTo: 'NONE',
        mentions: [w.assignor.user.id, w.strangerDoctor.user.id, typist.user.id],
      },
    });
    expect((await bell(w.assignor.browser)).notifications.map((n) => n.kind)).toEqual(['MESSAGE']);
    // Another group's doctor, and a typist whose doctors do not hold the study: they may not see it.
    expect((await bell(w.strangerDoctor.browser)).unseen).toBe(0);
    expect((await bell(typist.browser)).unseen).toBe(0);
    expect((await bell(w.doctor.browser)).unseen).toBe(0);
  });
});

describe('who may ask, and bad input', () => {
  it('answers 403 to a role with no notifications, 401 without a session', async () => {
    const w = await world();
    const patient = await signedInAt(t, { group: w.group, center: w.center }, ['ROLE_CUSTOMER']);
    for (const [method, url] of [
      ['GET', '/api/notifications'],
      ['POST', '/api/notifications/all-seen'],
    ] as const) {
      expect((await patient.browser.request({ method, url })).statusCode, url).toBe(403);
    }
    expect((await patient.browser.post('/api/notifications/seen', { ids: [1] })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: '/api/notifications' })).statusCode).toBe(401);
  });

  it('answers 400 naming the problem for a bad page or bad ids', async () => {
    const w = await world();
    for (const query of [
      '?limit=0',
      '?limit=101',
      '?limit=ten',
      '?before=-1',
      '?before=1.5',
      '?before=1e300',
    ]) {
      const res = await w.doctor.browser.get(`/api/notifications${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(res.json<{ errorDescription: string }>().errorDescription, query).not.toBe('');
    }
    for (const body of [{}, { ids: [] }, { ids: ['x'] }, { ids: [0] }, { ids: [1e300] }, { ids: 'all' }]) {
      const res = await w.doctor.browser.post('/api/notifications/seen', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
    }
    const many = Array.from({ length: 501 }, (_, i) => i + 1);
    expect((await w.doctor.browser.post('/api/notifications/seen', { ids: many })).statusCode).toBe(400);
  });
});

describe('which kinds pop up (USER_PREFERENCES)', () => {
  it('pops up everything for a doctor by default, nothing for an assignor until chosen', async () => {
    const w = await world();
    expect(await bell(w.doctor.browser)).toMatchObject({
      popupKinds: [...NOTIFICATION_KINDS],
      browserNotifications: false,
    });
    expect((await bell(w.assignor.browser)).popupKinds).toEqual([]);

    const saved = await w.assignor.browser.post('/api/setting/update/USER_PREFERENCES', {
      popupKinds: ['CRITICAL_RESULT', 'MESSAGE'],
      browserNotifications: true,
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(await bell(w.assignor.browser)).toMatchObject({
      popupKinds: ['MESSAGE', 'CRITICAL_RESULT'],
      browserNotifications: true,
    });
    // The spec's generic section (spec-lab §7), read back with the others.
    const read = await w.assignor.browser.get('/api/user/preference');
    expect(read.statusCode, read.body).toBe(200);
    expect(read.json().USER_PREFERENCES).toEqual({
      popupKinds: ['CRITICAL_RESULT', 'MESSAGE'],
      browserNotifications: true,
    });
    const bad = await w.assignor.browser.post('/api/setting/update/USER_PREFERENCES', {
      popupKinds: ['EVERYTHING'],
    });
    expect(bad.statusCode).toBe(400);
  });
});
