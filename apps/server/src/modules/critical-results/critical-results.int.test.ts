import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CRITICAL_FINDING_MAX_LENGTH,
  CRITICAL_RESULT_MESSAGES as M,
  DEFAULT_CRITICAL_ESCALATION_MINUTES,
  type TCriticalResult,
  type TStudyEvent,
} from '@radflow/core';
import { centers, messageOutbox, reportStatuses, studyEvents } from '../../db/schema.js';
import {
  type TestApp,
  type TestClient,
  createTestApp,
  createTestUser,
  setGroupPreference,
  uniqueMobile,
} from '../../../test/test-app.js';
import { createTestStudy, createTwoWorlds, signedInAt } from '../../../test/worklist-test-data.js';
import { escalateDueCriticalResults } from './escalation-sweep.js';

/**
 * Issue 23 §5: closed-loop critical results through the HTTP API on a real database. The doctor
 * reporting a study raises one; the center and the referring doctor get it at once by SMS and
 * e-mail (the outbox); someone acknowledges it; unacknowledged past the group's time it escalates to
 * the group admins, once, however many sweeps run. Every step is on the study's timeline.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

async function world(app: TestApp = t) {
  const w = await createTwoWorlds(
    app,
    {
      doctor: ['ROLE_DOCTOR'],
      centerUser: ['ROLE_CENTER'],
      secondDoctor: ['ROLE_DOCTOR'],
    },
    { otherDoctor: ['ROLE_DOCTOR'], otherCenter: ['ROLE_CENTER'] },
  );
  const centerMobile = uniqueMobile();
  await app.db.update(centers).set({ contactMobile: centerMobile }).where(eq(centers.id, w.center.id));
  const [center] = await app.db.select().from(centers).where(eq(centers.id, w.center.id));
  const referringMobile = uniqueMobile();
  const referring = await createTestUser(app.db, {
    roles: ['ROLE_REFERRING_DOCTOR'],
    groupId: w.group.id,
    mobileNumber: referringMobile,
  });
  const adminMobile = uniqueMobile();
  const admin = await signedInAt(app, w, ['ROLE_GROUP'], { mobileNumber: adminMobile });
  const { row } = await createTestStudy(app.db, {
    groupId: w.group.id,
    centerId: w.center.id,
    patientName: 'ROE^ANNA',
    row: {
      status: 'LOCKED',
      lockedByUserId: w.doctor.user.id,
      assignedToUserId: w.doctor.user.id,
      referringDoctorUserId: referring.id,
      studyName: 'CT Abdomen',
    },
  });
  return { ...w, row, center: center!, centerMobile, referring, referringMobile, admin, adminMobile };
}

const raise = (browser: TestClient, body: Record<string, unknown>) =>
  browser.post('/api/critical-results', body);
const FINDING = 'Free intraperitoneal air: suspected bowel perforation';

async function raised(browser: TestClient, entityId: number, finding = FINDING): Promise<TCriticalResult> {
  const res = await raise(browser, { entityId, category: 'CRITICAL', finding });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<TCriticalResult>();
}

async function outboxOf(reportStatusId: number, app: TestApp = t) {
  return app.db.select().from(messageOutbox).where(eq(messageOutbox.reportStatusId, reportStatusId));
}

async function timelineOf(browser: TestClient, id: number): Promise<TStudyEvent[]> {
  const res = await browser.get(`/api/report-status/timeline/${id}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<TStudyEvent[]>();
}

const criticalSteps = (events: TStudyEvent[]) =>
  events.filter((e) => e.eventType.startsWith('CRITICAL_RESULT_')).map((e) => e.eventType);

async function escalatedEvents(criticalResultId: number) {
  const rows = await t.db
    .select()
    .from(studyEvents)
    .where(eq(studyEvents.eventType, 'CRITICAL_RESULT_ESCALATED'));
  return rows.filter((r) => (r.detail as { criticalResultId: number }).criticalResultId === criticalResultId);
}

describe('raising a critical result', () => {
  it('reaches the center and the referring doctor by SMS and e-mail at once; the center acknowledges; the timeline holds every step', async () => {
    const w = await world();
    const result = await raised(w.doctor.browser, w.row.id);
    expect(result).toMatchObject({
      entityId: w.row.id,
      category: 'CRITICAL',
      finding: FINDING,
      state: 'RAISED',
      acknowledgedAt: null,
      canAcknowledge: false,
    });
    expect(Date.parse(result.escalationDueAt) - Date.parse(result.raisedAt)).toBe(
      DEFAULT_CRITICAL_ESCALATION_MINUTES * 60_000,
    );

    const sent = await outboxOf(w.row.id);
    expect(sent.map((m) => `${m.channel} ${m.recipient}`).sort()).toEqual(
      [
        `EMAIL ${w.center.email}`,
        `SMS ${w.centerMobile}`,
        `EMAIL ${w.referring.email}`,
        `SMS ${w.referringMobile}`,
      ].sort(),
    );
    for (const m of sent) {
      expect(m.body).toContain(FINDING);
      expect(m.body).toContain('Critical (immediate)');
      expect(m.body).toContain('ANNA ROE');
    }
    expect(result.steps.map((s) => s.type)).toEqual([
      'RAISED',
      'DELIVERED',
      'DELIVERED',
      'DELIVERED',
      'DELIVERED',
    ]);

    // The center sees it open, and may acknowledge it.
    const open = await w.centerUser.browser.get('/api/critical-results/open');
    expect(open.statusCode, open.body).toBe(200);
    expect(open.json<TCriticalResult[]>()).toEqual([
      expect.objectContaining({ id: result.id, canAcknowledge: true }),
    ]);

    const ack = await w.centerUser.browser.post(`/api/critical-results/${result.id}/acknowledge`);
    expect(ack.statusCode, ack.body).toBe(200);
    expect(ack.json<TCriticalResult>()).toMatchObject({ state: 'ACKNOWLEDGED', canAcknowledge: false });
    expect(ack.json<TCriticalResult>().acknowledgedBy).toBe(w.centerUser.user.identifier);

    // Acknowledging again (a second click) answers it as it stands and writes nothing.
    const twice = await w.centerUser.browser.post(`/api/critical-results/${result.id}/acknowledge`);
    expect(twice.statusCode, twice.body).toBe(200);
    expect(twice.json<TCriticalResult>().acknowledgedAt).toBe(ack.json<TCriticalResult>().acknowledgedAt);

    expect(criticalSteps(await timelineOf(w.centerUser.browser, w.row.id))).toEqual([
      'CRITICAL_RESULT_RAISED',
      'CRITICAL_RESULT_DELIVERED',
      'CRITICAL_RESULT_DELIVERED',
      'CRITICAL_RESULT_DELIVERED',
      'CRITICAL_RESULT_DELIVERED',
      'CRITICAL_RESULT_ACKNOWLEDGED',
    ]);
    const listed = await w.doctor.browser.get(`/api/critical-results?entityId=${w.row.id}`);
    expect(listed.statusCode, listed.body).toBe(200);
    expect(listed.json<TCriticalResult[]>()[0]?.steps.at(-1)).toMatchObject({
      type: 'ACKNOWLEDGED',
      by: w.centerUser.user.identifier,
    });
    // Nothing is open any more, and the escalation never comes.
    expect((await w.centerUser.browser.get('/api/critical-results/open')).json()).toEqual([]);
    t.clock.advance(24 * 3600);
    await escalateDueCriticalResults(t.app.ctx);
    expect(await escalatedEvents(result.id)).toHaveLength(0);
  });

  it('the referring doctor linked to the study acknowledges it too', async () => {
    const w = await world();
    const result = await raised(w.doctor.browser, w.row.id);
    const referring = await signedInAt(t, w, ['ROLE_REFERRING_DOCTOR']);
    await t.db
      .update(reportStatuses)
      .set({ referringDoctorUserId: referring.user.id })
      .where(eq(reportStatuses.id, w.row.id));
    const ack = await referring.browser.post(`/api/critical-results/${result.id}/acknowledge`);
    expect(ack.statusCode, ack.body).toBe(200);
    expect(ack.json<TCriticalResult>().state).toBe('ACKNOWLEDGED');
  });
});

describe('escalation', () => {
  it("escalates once past the group's time, with SMS and e-mail to the group admins; then an admin acknowledges", async () => {
    const w = await world();
    await setGroupPreference(t.db, w.group.id, 'ADMIN_PREFERENCES', { criticalResultEscalationMinutes: 10 });
    const result = await raised(w.doctor.browser, w.row.id);
    expect(Date.parse(result.escalationDueAt) - Date.parse(result.raisedAt)).toBe(10 * 60_000);

    // Before the time: nothing; the admin may not acknowledge yet.
    t.clock.advance(9 * 60);
    await escalateDueCriticalResults(t.app.ctx);
    expect(await escalatedEvents(result.id)).toHaveLength(0);
    const early = await w.admin.browser.post(`/api/critical-results/${result.id}/acknowledge`);
    expect(early.statusCode, early.body).toBe(403);
    expect(early.json()).toMatchObject({ errorDescription: M.adminBeforeEscalation });

    t.clock.advance(2 * 60);
    await escalateDueCriticalResults(t.app.ctx);
    await escalateDueCriticalResults(t.app.ctx);
    const events = await escalatedEvents(result.id);
    expect(events).toHaveLength(1);
    expect(events[0]?.detail).toMatchObject({ criticalResultId: result.id, afterMinutes: 10 });
    expect((events[0]?.detail as { to: string }).to).toContain(w.admin.user.email);

    const toAdmin = (await outboxOf(w.row.id)).filter((m) =>
      [w.admin.user.email, w.adminMobile].includes(m.recipient),
    );
    expect(toAdmin.map((m) => m.channel).sort()).toEqual(['EMAIL', 'SMS']);
    expect(toAdmin.every((m) => m.body.includes('ESCALATED') && m.body.includes(FINDING))).toBe(true);

    const open = (await w.admin.browser.get('/api/critical-results/open')).json<TCriticalResult[]>();
    expect(open.find((r) => r.id === result.id)).toMatchObject({ state: 'ESCALATED', canAcknowledge: true });
    const ack = await w.admin.browser.post(`/api/critical-results/${result.id}/acknowledge`);
    expect(ack.statusCode, ack.body).toBe(200);
    expect(ack.json<TCriticalResult>().steps.map((s) => s.type)).toEqual([
      'RAISED',
      'DELIVERED',
      'DELIVERED',
      'DELIVERED',
      'DELIVERED',
      'ESCALATED',
      'DELIVERED',
      'DELIVERED',
      'ACKNOWLEDGED',
    ]);
  });

  it('two sweeps at the same moment escalate a result once', async () => {
    const w = await world();
    const results = [
      await raised(w.doctor.browser, w.row.id, 'First finding'),
      await raised(w.doctor.browser, w.row.id, 'Second finding'),
    ];
    t.clock.advance((DEFAULT_CRITICAL_ESCALATION_MINUTES + 1) * 60);
    const counts = await Promise.all([
      escalateDueCriticalResults(t.app.ctx),
      escalateDueCriticalResults(t.app.ctx),
    ]);
    for (const r of results) expect(await escalatedEvents(r.id)).toHaveLength(1);
    // Other tests' results may fall due in the same sweeps; ours were claimed by exactly one of them.
    expect(counts[0]! + counts[1]!).toBeGreaterThanOrEqual(2);
    const adminMails = await t.db
      .select()
      .from(messageOutbox)
      .where(
        and(
          eq(messageOutbox.reportStatusId, w.row.id),
          inArray(messageOutbox.recipient, [w.admin.user.email]),
        ),
      );
    expect(adminMails).toHaveLength(2);
  });
});

describe('the escalation time setting', () => {
  it('is set by a group admin within 5-1440 minutes (else 400 with the bounds) and applies to results raised after', async () => {
    const w = await world();
    const update = (browser: TestClient, minutes: unknown) =>
      browser.post('/api/setting/update-group/ADMIN_PREFERENCES', {
        criticalResultEscalationMinutes: minutes,
      });
    for (const bad of [4, 1441, 2.5]) {
      const res = await update(w.admin.browser, bad);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json()).toMatchObject({ errorDescription: M.escalationMinutes });
    }
    expect((await update(w.doctor.browser, 60)).statusCode).toBe(403);
    const before = await raised(w.doctor.browser, w.row.id, 'Raised before the change');
    const ok = await update(w.admin.browser, 120);
    expect(ok.statusCode, ok.body).toBe(200);
    const after = await raised(w.doctor.browser, w.row.id, 'Raised after the change');
    const minutesOf = (r: TCriticalResult) =>
      (Date.parse(r.escalationDueAt) - Date.parse(r.raisedAt)) / 60_000;
    expect(minutesOf(before)).toBe(DEFAULT_CRITICAL_ESCALATION_MINUTES);
    expect(minutesOf(after)).toBe(120);
  });
});

describe('who may', () => {
  it("a doctor of another group, or one the study is not theirs, gets 404; another center's staff too", async () => {
    const w = await world();
    for (const browser of [w.otherDoctor.browser, w.secondDoctor.browser]) {
      const res = await raise(browser, { entityId: w.row.id, category: 'URGENT', finding: FINDING });
      expect(res.statusCode, res.body).toBe(404);
      expect((await browser.get(`/api/critical-results?entityId=${w.row.id}`)).statusCode).toBe(404);
    }
    const result = await raised(w.doctor.browser, w.row.id);
    const foreign = await w.otherCenter.browser.post(`/api/critical-results/${result.id}/acknowledge`);
    expect(foreign.statusCode, foreign.body).toBe(404);
    expect((await w.otherCenter.browser.get('/api/critical-results/open')).json()).toEqual([]);
    // Nothing was acknowledged by the refused calls.
    const still = (await w.doctor.browser.get(`/api/critical-results?entityId=${w.row.id}`)).json<
      TCriticalResult[]
    >();
    expect(still[0]?.state).toBe('RAISED');
  });

  it('the center cannot raise (403); the doctor cannot acknowledge (403); a patient cannot read them (403)', async () => {
    const w = await world();
    const byCenter = await raise(w.centerUser.browser, {
      entityId: w.row.id,
      category: 'URGENT',
      finding: FINDING,
    });
    expect(byCenter.statusCode, byCenter.body).toBe(403);
    expect(byCenter.json()).toMatchObject({ errorDescription: M.notRaiser });
    const result = await raised(w.doctor.browser, w.row.id);
    const byDoctor = await w.doctor.browser.post(`/api/critical-results/${result.id}/acknowledge`);
    expect(byDoctor.statusCode, byDoctor.body).toBe(403);
    const patient = await signedInAt(t, w, ['ROLE_CUSTOMER']);
    expect((await patient.browser.get(`/api/critical-results?entityId=${w.row.id}`)).statusCode).toBe(403);
    expect(await outboxOf(w.row.id)).toHaveLength(4);
  });

  it('bad input is 400 with the message and stores nothing', async () => {
    const w = await world();
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ entityId: w.row.id, category: 'CRITICAL', finding: '   ' }, M.findingEmpty],
      [
        { entityId: w.row.id, category: 'CRITICAL', finding: 'x'.repeat(CRITICAL_FINDING_MAX_LENGTH + 1) },
        M.findingTooLong,
      ],
      [{ entityId: w.row.id, category: 'SEVERE', finding: FINDING }, M.category],
      [{ entityId: w.row.id, category: 'CRITICAL' }, M.findingEmpty],
    ];
    for (const [body, message] of cases) {
      const res = await raise(w.doctor.browser, body);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json<{ errorDescription: string }>().errorDescription).toContain(message);
    }
    expect((await w.doctor.browser.post('/api/critical-results/abc/acknowledge')).statusCode).toBe(403);
    expect((await w.centerUser.browser.post('/api/critical-results/abc/acknowledge')).statusCode).toBe(400);
    expect((await w.centerUser.browser.post('/api/critical-results/999999/acknowledge')).statusCode).toBe(
      404,
    );
    expect((await w.doctor.browser.get('/api/critical-results?entityId=x')).statusCode).toBe(400);
    // Ids beyond the integer columns are input too (400, never the database's error).
    const tooBig = 2 ** 31;
    expect(
      (await raise(w.doctor.browser, { entityId: tooBig, category: 'URGENT', finding: FINDING })).statusCode,
    ).toBe(400);
    expect((await w.doctor.browser.get(`/api/critical-results?entityId=${tooBig}`)).statusCode).toBe(400);
    expect((await w.centerUser.browser.post(`/api/critical-results/${tooBig}/acknowledge`)).statusCode).toBe(
      400,
    );
    expect((await w.doctor.browser.get(`/api/critical-results?entityId=${w.row.id}`)).json()).toEqual([]);
    expect(await outboxOf(w.row.id)).toHaveLength(0);
  });
});

describe('a provider that fails', () => {
  let failing: TestApp;
  beforeAll(async () => {
    failing = await createTestApp({
      providers: {
        email: {
          send: () => Promise.reject(new Error('SMTP refused')),
        },
      },
    });
  });
  afterAll(() => failing.close());

  it('costs its own delivery only: the result is raised, the SMS goes, no DELIVERED for the e-mail', async () => {
    const w = await world(failing);
    const result = await raised(w.doctor.browser, w.row.id);
    expect(result.state).toBe('RAISED');
    expect(result.steps.map((s) => `${s.type} ${s.channel ?? ''}`.trim())).toEqual([
      'RAISED',
      'DELIVERED SMS',
      'DELIVERED SMS',
    ]);
    expect((await outboxOf(w.row.id, failing)).map((m) => m.channel)).toEqual(['SMS', 'SMS']);
  });

  it('a deleted study takes no critical result (409)', async () => {
    const w = await world();
    await t.db.update(reportStatuses).set({ status: 'DELETED' }).where(eq(reportStatuses.id, w.row.id));
    const res = await raise(w.doctor.browser, { entityId: w.row.id, category: 'URGENT', finding: FINDING });
    expect(res.statusCode, res.body).toBe(409);
  });
});
