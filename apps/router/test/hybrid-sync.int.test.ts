/**
 * Issue 27 §4: reports written on the router while the link is down go up to the real cloud (the
 * server in process on PGlite, over HTTP on 127.0.0.1) when it returns — every version, exactly
 * once, the study row matched by its StudyInstanceUID; a study reported in the cloud meanwhile is
 * held in CONFLICT on the router with its text, and the cloud's report is left as it was.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { and, asc, eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { OFFLINE_REPORT_GRANT_PATH, OFFLINE_REPORT_MESSAGES } from '@radflow/core';
import {
  reportStatuses,
  reports,
  reportVersions,
  studies,
  users,
  viewerAnnotations,
} from '../../server/src/db/schema.js';
import { TEST_PASSWORD, signInAs, createTestUser } from '../../server/test/test-app.js';
import { createCloudLogin } from '../src/api/cloud-login.js';
import { createTestStudy } from '../../server/test/worklist-test-data.js';
import { OfflineAnnotationStore } from '../src/hybrid/annotation-store.js';
import { OfflineReportStore } from '../src/hybrid/report-store.js';
import { ReportSync, type ReportSyncOptions } from '../src/hybrid/report-sync.js';
import { startTestCloud, waitFor, type TestCloud } from './cloud.js';
import { startFaultProxy } from './fault-proxy.js';

let cloud: TestCloud;
let work: string;
beforeAll(async () => {
  cloud = await startTestCloud();
  work = await mkdtemp(join(tmpdir(), 'router-hybrid-sync-'));
});
afterAll(async () => {
  await cloud?.close();
  if (work) await rm(work, { recursive: true, force: true });
});

const running: { sync: ReportSync; store: OfflineReportStore; annotations: OfflineAnnotationStore }[] = [];
afterEach(async () => {
  for (const { sync, store, annotations } of running.splice(0)) {
    await sync.stop();
    await store.close();
    await annotations.close();
  }
});

/** The grants the doctors got by signing in online (what the router's OfflineCredentials keeps). */
const grants = new Map<string, string>();

let n = 0;
/** A router's store and sync on a data directory (a new one unless given: a restart reuses its own). */
async function offlineRouter(options: Partial<ReportSyncOptions> = {}, dir = join(work, `router-${++n}`)) {
  const store = await OfflineReportStore.open(dir);
  const annotations = await OfflineAnnotationStore.open(dir);
  const sync = new ReportSync(store, {
    annotations,
    serverUrl: `http://127.0.0.1:${cloud.port}`,
    apiToken: cloud.token,
    probeMs: 50,
    backoff: { baseMs: 50, maxMs: 500 },
    notInCloudMs: 50,
    grantOf: (email) => grants.get(email),
    ...options,
  });
  running.push({ sync, store, annotations });
  return { store, sync, annotations };
}

async function hybridDoctor({ signedInOnline = true } = {}) {
  const user = await createTestUser(cloud.t.db, {
    roles: ['ROLE_DOCTOR'],
    groupId: cloud.groupId,
    hybridModeOn: true,
  });
  if (signedInOnline) await signInOnline(user);
  return { email: user.email, identifier: user.identifier, id: user.id };
}

/** The doctor's online sign-in on the router: their own session asks the cloud for their grant. */
async function signInOnline(user: { email: string; password: string }) {
  const browser = await signInAs(cloud.t, user);
  const res = await browser.post(OFFLINE_REPORT_GRANT_PATH);
  expect(res.statusCode, res.body).toBe(200);
  grants.set(user.email, (res.json() as { grant: string }).grant);
}

const cloudStudy = () => createTestStudy(cloud.t.db, { groupId: cloud.groupId, centerId: cloud.centerId });

async function cloudVersions(reportStatusId: number) {
  return cloud.t.db
    .select({
      version: reportVersions.version,
      content: reportVersions.contentHtml,
      by: reportVersions.savedByUserId,
    })
    .from(reportVersions)
    .innerJoin(reports, eq(reports.id, reportVersions.reportId))
    .where(eq(reports.reportStatusId, reportStatusId))
    .orderBy(asc(reportVersions.version));
}

const statusOf = async (id: number) =>
  (await cloud.t.db.select().from(reportStatuses).where(eq(reportStatuses.id, id)))[0]?.status;

describe('offline reports go up when the link returns (issue 27 §4)', () => {
  it('takes every offline version up, signed off as the author, on the row of that StudyInstanceUID', async () => {
    const author = await hybridDoctor();
    const { study, row } = await cloudStudy();
    const { store, sync } = await offlineRouter();
    const uid = study.studyInstanceUid;
    await store.save({
      studyInstanceUid: uid,
      author,
      name: 'CT Head',
      content: '<p>Draft.</p>',
      signOff: false,
      baseLocalVersion: null,
    });
    await store.save({
      studyInstanceUid: uid,
      author,
      name: 'CT Head',
      content: '<p>Final.</p>',
      signOff: true,
      baseLocalVersion: 1,
    });

    sync.start();
    await waitFor('the offline report to be taken up', () => store.report(uid)?.state === 'SYNCED');
    expect(store.report(uid)).toMatchObject({ reportStatusId: row.id, cloudVersion: 2, signedOff: true });
    expect(await cloudVersions(row.id)).toEqual([
      { version: 1, content: '<p>Draft.</p>', by: author.id },
      { version: 2, content: '<p>Final.</p>', by: author.id },
    ]);
    expect(await statusOf(row.id)).toBe('SIGNED_OFF');
  });

  it('holds a study reported in the cloud meanwhile in CONFLICT, its text kept, the cloud’s untouched', async () => {
    const author = await hybridDoctor();
    const { study, row } = await cloudStudy();
    const { user: cloudDoctor } = {
      user: await createTestUser(cloud.t.db, { roles: ['ROLE_DOCTOR'], groupId: cloud.groupId }),
    };
    const browser = await signInAs(cloud.t, cloudDoctor);
    expect((await browser.post(`/api/report/lock/${row.id}`, {})).statusCode).toBe(200);
    const cloudSave = await browser.post(`/api/report/save/${row.id}`, {
      name: 'CT Head',
      content: '<p>Reported in the cloud.</p>',
      signOff: false,
      baseVersion: null,
    });
    expect(cloudSave.statusCode, cloudSave.body).toBe(200);

    const { store, sync } = await offlineRouter();
    const uid = study.studyInstanceUid;
    await store.save({
      studyInstanceUid: uid,
      author,
      name: 'CT Head',
      content: '<p>Offline.</p>',
      signOff: true,
      baseLocalVersion: null,
    });
    sync.start();
    await waitFor('the conflict to be shown', () => store.report(uid)?.state === 'CONFLICT');
    expect(store.report(uid)).toMatchObject({
      content: '<p>Offline.</p>',
      reason: OFFLINE_REPORT_MESSAGES.heldInCloud,
    });
    expect(await cloudVersions(row.id)).toEqual([
      { version: 1, content: '<p>Reported in the cloud.</p>', by: cloudDoctor.id },
    ]);
  });

  it('saves a write whose answer was lost in a cut exactly once (sent again, answered SAME)', async () => {
    const author = await hybridDoctor();
    const { study, row } = await cloudStudy();
    let lost = 0;
    // The first request reaches the cloud and is saved there; its answer never comes back.
    const cutAfterSend: typeof fetch = async (input, init) => {
      const answer = await fetch(input, init);
      if (lost++ === 0) {
        await answer.arrayBuffer();
        throw new TypeError('fetch failed: connection reset');
      }
      return answer;
    };
    const { store, sync } = await offlineRouter({ fetch: cutAfterSend });
    const uid = study.studyInstanceUid;
    await store.save({
      studyInstanceUid: uid,
      author,
      name: 'CT Head',
      content: '<p>Once.</p>',
      signOff: false,
      baseLocalVersion: null,
    });
    sync.start();
    await waitFor('the write to be taken up', () => store.report(uid)?.state === 'SYNCED');
    expect(lost).toBeGreaterThanOrEqual(2);
    expect(await cloudVersions(row.id)).toEqual([{ version: 1, content: '<p>Once.</p>', by: author.id }]);
    expect(store.report(uid)?.cloudVersion).toBe(1);
  });

  it('waits through a cut link and sends when it returns', async () => {
    const author = await hybridDoctor();
    const { study, row } = await cloudStudy();
    const proxy = await startFaultProxy({ targetHost: '127.0.0.1', targetPort: cloud.port });
    try {
      const { store, sync } = await offlineRouter({ serverUrl: `http://127.0.0.1:${proxy.port}` });
      const uid = study.studyInstanceUid;
      const linkBack = proxy.cut(1_500);
      await store.save({
        studyInstanceUid: uid,
        author,
        name: 'CT Head',
        content: '<p>Cut.</p>',
        signOff: false,
        baseLocalVersion: null,
      });
      sync.start();
      await waitFor('the router to find the link down', () => proxy.stats.refused > 0);
      expect(store.report(uid)?.state).toBe('PENDING');
      await linkBack;
      await waitFor('the write to be taken up', () => store.report(uid)?.state === 'SYNCED');
      expect(await cloudVersions(row.id)).toHaveLength(1);
    } finally {
      await proxy.close();
    }
  });

  it('keeps a study whose images are not in the cloud yet waiting, and sends it once they are', async () => {
    const author = await hybridDoctor();
    const { store, sync } = await offlineRouter();
    const uid = `1.2.826.0.1.${Date.now()}.77`;
    await store.save({
      studyInstanceUid: uid,
      author,
      name: 'CT Head',
      content: '<p>Early.</p>',
      signOff: false,
      baseLocalVersion: null,
    });
    sync.start();
    await waitFor('a first attempt', () => sync.attempts > 0);
    expect(store.report(uid)?.state).toBe('PENDING');
    const { row } = await createTestStudy(cloud.t.db, {
      groupId: cloud.groupId,
      centerId: cloud.centerId,
      study: { studyInstanceUid: uid },
    });
    await waitFor('the write to be taken up', () => store.report(uid)?.state === 'SYNCED');
    expect(store.report(uid)?.reportStatusId).toBe(row.id);
  });

  it('keeps a save whose author has no grant waiting (not in conflict) until they sign in online', async () => {
    const user = await createTestUser(cloud.t.db, {
      roles: ['ROLE_DOCTOR'],
      groupId: cloud.groupId,
      hybridModeOn: true,
    });
    const author = { email: user.email, identifier: user.identifier, id: user.id };
    const { study, row } = await cloudStudy();
    const { store, sync } = await offlineRouter();
    const uid = study.studyInstanceUid;
    await store.save({
      studyInstanceUid: uid,
      author,
      name: 'CT Head',
      content: '<p>Mine.</p>',
      signOff: false,
      baseLocalVersion: null,
    });
    sync.start();
    await waitFor('a first attempt', () => sync.attempts > 0);
    expect(store.report(uid)?.state).toBe('PENDING');
    expect(await cloudVersions(row.id)).toEqual([]);

    await signInOnline(user);
    await waitFor('the write to be taken up', () => store.report(uid)?.state === 'SYNCED');
    expect(await cloudVersions(row.id)).toEqual([{ version: 1, content: '<p>Mine.</p>', by: author.id }]);
  });
});

describe("the offline viewer's measurements go up too (HYBRID.md 'Measurements offline')", () => {
  const length = (uid: string, x = 10) => ({
    annotationUid: uid,
    toolName: 'Length' as const,
    seriesInstanceUid: '1.2.3.1',
    sopInstanceUid: '1.2.3.1.1',
    frameNumber: 1,
    data: {
      handles: {
        points: [
          [0, 0, 0],
          [x, 0, 0],
        ],
      },
    },
  });
  const cloudAnnotations = (reportStatusId: number) =>
    cloud.t.db
      .select({ uid: viewerAnnotations.annotationUid, data: viewerAnnotations.data, by: users.email })
      .from(viewerAnnotations)
      .leftJoin(users, eq(users.id, viewerAnnotations.createdByUserId))
      .where(eq(viewerAnnotations.reportStatusId, reportStatusId))
      .orderBy(asc(viewerAnnotations.annotationUid));

  it("as their author on the study's row; deleted ones never arrive; another user's uid is kept here", async () => {
    const author = await hybridDoctor();
    const { study, row } = await cloudStudy();
    const uid = study.studyInstanceUid;
    // A colleague measured in the cloud with the uid the router's drawing has (a uid clash).
    const colleague = await createTestUser(cloud.t.db, { roles: ['ROLE_DOCTOR'], groupId: cloud.groupId });
    const theirs = await signInAs(cloud.t, colleague);
    const put = await theirs.request({
      method: 'PUT',
      url: `/api/viewer/${row.id}/annotations/clash`,
      payload: length('clash'),
    });
    expect(put.statusCode, put.body).toBe(200);

    const { sync, annotations } = await offlineRouter();
    await annotations.save(uid, length('kept'), author.email);
    await annotations.save(uid, length('kept', 30), author.email);
    await annotations.save(uid, length('gone'), author.email);
    await annotations.remove(uid, 'gone', author.email);
    await annotations.save(uid, length('clash', 77), author.email);

    sync.start();
    await waitFor(
      'the measurements to be taken up',
      () =>
        JSON.stringify(annotations.cloudStates(uid)) ===
        JSON.stringify({ kept: 'IN_CLOUD', clash: 'REFUSED' }),
    );
    expect(await cloudAnnotations(row.id)).toEqual([
      { uid: 'clash', data: length('clash').data, by: colleague.email },
      { uid: 'kept', data: length('kept', 30).data, by: author.email },
    ]);
    // Both stay on the router as drawn; a change of the kept one goes up again, a delete too.
    expect(annotations.list(uid).annotations.map((a) => a.annotationUid)).toEqual(['kept', 'clash']);
    await annotations.remove(uid, 'kept', author.email);
    sync.kick();
    await waitFor('the delete to be taken up', () => !('kept' in annotations.cloudStates(uid)));
    expect((await cloudAnnotations(row.id)).map((a) => a.uid)).toEqual(['clash']);
  });
});

describe('resolving an offline conflict from the router (issue 27 §4)', () => {
  /** A study the cloud holds with a report; the router's offline text for it held in CONFLICT. */
  async function conflictOn(cloudReport: (uid: string) => Promise<{ rowId: number }>) {
    const author = await hybridDoctor();
    const { study } = await cloudStudy();
    const uid = study.studyInstanceUid;
    const { rowId } = await cloudReport(uid);
    const dir = join(work, `router-${++n}`);
    const store = await OfflineReportStore.open(dir);
    await store.save({
      studyInstanceUid: uid,
      author,
      name: 'CT Head',
      content: '<p>Written offline.</p>',
      signOff: true,
      baseLocalVersion: null,
    });
    await store.markConflict(uid, 'This report was saved elsewhere');
    return { author, uid, rowId, dir, store };
  }

  /** The router restarted on the same data directory, its sync running. */
  async function restarted(dir: string) {
    const { store, sync } = await offlineRouter({}, dir);
    sync.start();
    return Object.assign(store, { kick: () => sync.kick() });
  }

  /** Another doctor's report in the cloud, saved (not signed off). */
  const reportedByAnother = async (uid: string) => {
    const [row] = await cloud.t.db
      .select({ id: reportStatuses.id })
      .from(reportStatuses)
      .innerJoin(studies, eq(studies.id, reportStatuses.studyId))
      .where(eq(studies.studyInstanceUid, uid));
    const other = await createTestUser(cloud.t.db, { roles: ['ROLE_DOCTOR'], groupId: cloud.groupId });
    const browser = await signInAs(cloud.t, other);
    expect((await browser.post(`/api/report/lock/${row!.id}`, {})).statusCode).toBe(200);
    const saved = await browser.post(`/api/report/save/${row!.id}`, {
      name: 'CT Head',
      content: '<p>Reported in the cloud.</p>',
      signOff: false,
      baseVersion: null,
    });
    expect(saved.statusCode, saved.body).toBe(200);
    return { rowId: row!.id };
  };

  it('keeps the cloud’s report: queued while down, sent after a restart, my text kept as history', async () => {
    const { uid, rowId, dir, store, author } = await conflictOn(reportedByAnother);
    // Chosen while the link is down (no sync runs): durable, queued.
    await store.resolve(uid, 'KEEP_CLOUD', author);
    expect(store.report(uid)?.resolution).toMatchObject({ state: 'QUEUED' });
    await store.close();

    const again = await restarted(dir);
    await waitFor('the resolution to be taken', () => again.report(uid)?.state === 'SYNCED');
    expect(again.report(uid)).toMatchObject({
      content: '<p>Reported in the cloud.</p>',
      reportStatusId: rowId,
      cloudVersion: 1,
      signedOff: false,
      resolution: { action: 'KEEP_CLOUD', state: 'DONE' },
    });
    expect(again.history(uid).map((w) => w.content)).toEqual(['<p>Written offline.</p>']);
    expect((await cloudVersions(rowId)).map((v) => v.content)).toEqual(['<p>Reported in the cloud.</p>']);
  });

  it('sends mine as an addendum of the report its author signed off in the cloud', async () => {
    // The author's first offline sign-off went up from another router; this router's text conflicts.
    const { uid, rowId, dir, store } = await conflictOn(async (uid) => {
      const first = await offlineRouter();
      const doctor = await hybridDoctor();
      await first.store.save({
        studyInstanceUid: uid,
        author: doctor,
        name: 'CT Head',
        content: '<p>Signed in the cloud.</p>',
        signOff: true,
        baseLocalVersion: null,
      });
      first.sync.start();
      await waitFor('the first report to be signed off', () => first.store.report(uid)?.state === 'SYNCED');
      sharedAuthor = doctor;
      return { rowId: first.store.report(uid)!.reportStatusId! };
    });
    // The doctor who signed off in the cloud chooses: the addendum is theirs.
    await store.close();
    const again = await restarted(dir);
    await again.resolve(uid, 'ADDENDUM', sharedAuthor!);
    again.kick(); // as the local API does after a choice
    await waitFor('the cloud to answer', () => again.report(uid)?.resolution?.state !== 'QUEUED');
    expect(again.report(uid)).toMatchObject({ state: 'SYNCED', content: '<p>Signed in the cloud.</p>' });
    const addenda = await cloud.t.db
      .select({ content: reports.contentHtml, by: reports.signedOffByUserId })
      .from(reports)
      .where(and(eq(reports.reportStatusId, rowId), eq(reports.isAddendum, true)));
    expect(addenda).toEqual([{ content: '<p>Written offline.</p>', by: sharedAuthor!.id }]);
    expect(await statusOf(rowId)).toBe('SIGNED_OFF');
  });

  it('keeps the conflict with the cloud’s reason when the addendum rules refuse it', async () => {
    const { uid, rowId, dir, store, author } = await conflictOn(async (uid) => {
      const { rowId } = await reportedByAnother(uid);
      return { rowId };
    });
    await store.resolve(uid, 'ADDENDUM', author);
    await store.close();
    const again = await restarted(dir);
    await waitFor('the refusal', () => again.report(uid)?.resolution === null);
    expect(again.report(uid)).toMatchObject({
      state: 'CONFLICT',
      reason: OFFLINE_REPORT_MESSAGES.heldInCloud,
      content: '<p>Written offline.</p>',
    });
    expect((await cloudVersions(rowId)).map((v) => v.content)).toEqual(['<p>Reported in the cloud.</p>']);
  });
});

let sharedAuthor: { email: string; identifier: string; id: number } | undefined;

describe("a hybrid doctor's templates for the offline editor (HYBRID.md 'Templates offline')", () => {
  it('are read from the real cloud at their online sign-in on the router, with their own session', async () => {
    const admin = await signInAs(
      cloud.t,
      await createTestUser(cloud.t.db, { roles: ['ROLE_ADMIN'], groupId: cloud.groupId }),
    );
    const made = await admin.post('/api/report-template/', {
      name: 'CT Head normal (group)',
      content: '<p>No acute intracranial abnormality.</p>',
      modalities: ['CT'],
      bodyParts: [],
      gender: null,
    });
    expect(made.statusCode, made.body).toBe(200);
    const doctor = await createTestUser(cloud.t.db, {
      roles: ['ROLE_DOCTOR'],
      groupId: cloud.groupId,
      hybridModeOn: true,
    });
    const verified = await createCloudLogin({ serverUrl: `http://127.0.0.1:${cloud.port}` }).verify({
      email: doctor.email,
      password: TEST_PASSWORD,
    });
    expect(verified.hybrid).toBe(true);
    expect(verified.templates?.map((t) => t.name)).toContain('CT Head normal (group)');
  });
});
