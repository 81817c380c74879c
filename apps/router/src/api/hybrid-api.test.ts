import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  AppError,
  HYBRID_PATHS,
  ZOfflineTemplates,
  MESSAGE_HYBRID_ONLY,
  REPORTING_MESSAGES,
  ROUTER_SERVED_META,
  ZHybridStudies,
  ZOfflineReport,
  ZOfflineVersions,
  ZRouterLoginAnswer,
  ZReportDraft,
  ZViewerAnnotation,
  ZViewerAnnotations,
  MESSAGE_OFFLINE_ANNOTATION_NOT_YOURS,
} from '@radflow/core';
import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildStudy } from '../../test/study-builder.js';
import { hybridReportsOf } from '../hybrid/hybrid-reports.js';
import { OfflineAnnotationStore } from '../hybrid/annotation-store.js';
import { OfflineDraftStore } from '../hybrid/draft-store.js';
import { OfflineReportStore } from '../hybrid/report-store.js';
import { InstanceQueue } from '../queue/queue.js';
import { startLocalApi } from './local-api.js';
import type { CloudLogin, VerifiedUser } from './ports.js';
import { uploadQueueOf } from './queue-adapter.js';

/*
 * Issue 27 §4 on the local API: the hybrid list and the offline report calls (hybrid users only),
 * and the web app's own files served at / so the browser opens it with the cloud unreachable.
 */

const APP_ORIGIN = 'https://cloud.radflow.example';
const HYBRID: VerifiedUser = { email: 'dr@radflow.example', identifier: 'Dr Hybrid', hybrid: true };
const SECOND: VerifiedUser = { email: 'dr2@radflow.example', identifier: 'Dr Second', hybrid: true };
const CENTER: VerifiedUser = { email: 'center@radflow.example', identifier: 'City Scans', hybrid: false };
const PASSWORD = 'pw';
const TEMPLATE = {
  id: 3,
  name: 'XR Chest normal',
  content: '<p>Lungs are clear.</p>',
  modalities: ['DX'],
  bodyParts: [],
  gender: null,
  owner: HYBRID.email,
  isOwn: true,
  createdAt: '2026-11-01T10:00:00.000Z',
  updatedAt: '2026-11-02T10:00:00.000Z',
};

let dataDir: string;
let queue: InstanceQueue;
let store: OfflineReportStore;
let annotations: OfflineAnnotationStore;
let drafts: OfflineDraftStore;
let app: FastifyInstance;
let base: string;
let port: number;
let kicks = 0;

beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'router-hybrid-api-'));
  const webDir = join(dataDir, 'web');
  await mkdir(join(webDir, 'assets'), { recursive: true });
  await writeFile(
    join(webDir, 'index.html'),
    '<!doctype html><html><head><title>Radflow</title></head><body></body></html>',
  );
  await writeFile(join(webDir, 'assets', 'app-1.js'), 'console.log(1)');
  queue = await InstanceQueue.open({ dataDir });
  store = await OfflineReportStore.open(dataDir);
  annotations = await OfflineAnnotationStore.open(dataDir);
  drafts = await OfflineDraftStore.open(dataDir);
  kicks = 0;
  await startApi();
});

/** The local API on the stores of this test (again after a test reopens them). */
async function startApi() {
  const cloudLogin: CloudLogin = {
    async verify({ email, password }) {
      const user = [HYBRID, SECOND, CENTER].find((u) => u.email === email);
      if (user && password === PASSWORD) return user;
      throw new AppError('UNAUTHORIZED', 'Invalid credentials');
    },
  };
  const unused = () => Promise.reject(new Error('not in this test'));
  const started = await startLocalApi({
    port: 0,
    version: '0.1.0',
    serverUrl: APP_ORIGIN,
    incomingDir: queue.tempDir,
    queue: uploadQueueOf(queue),
    sendJobs: { get: unused, run: unused },
    printer: { print: unused },
    releases: { checkVersion: unused, update: unused },
    cloudLogin,
    settings: { settings: () => ({}) },
    hybrid: hybridReportsOf(uploadQueueOf(queue), { reports: store, annotations, drafts }, () => kicks++),
    // What offline-sign-in.ts keeps of each doctor's online sign-in.
    hybridTemplates: (email) => ({
      savedAt: '2026-11-02T10:00:00.000Z',
      templates: email === HYBRID.email ? [TEMPLATE] : [],
    }),
    webDir: join(dataDir, 'web'),
  });
  app = started.app;
  port = Number(new URL(started.url).port);
  base = `http://localhost:${port}`;
}

afterEach(async () => {
  await app.close();
  await store.close();
  await annotations.close();
  await drafts.close();
  await queue.close();
  await rm(dataDir, { recursive: true, force: true });
});

/** A call from the web app as the router serves it (its own origin). */
async function call(path: string, token: string, body?: unknown): Promise<Response> {
  return fetch(`${base}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: {
      Origin: base,
      Authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

async function signIn(user: VerifiedUser): Promise<string> {
  const form = new FormData();
  form.set('email', user.email);
  form.set('password', PASSWORD);
  const response = await fetch(`${base}/login`, { method: 'POST', body: form, headers: { Origin: base } });
  expect(response.status).toBe(200);
  const answer = ZRouterLoginAnswer.parse(await response.json());
  expect(answer.hybrid).toBe(user.hybrid);
  return answer.token;
}

async function heldStudy() {
  // Born 1981-03-15, scanned 2026-11-27 (the builder's study date): 45 years old.
  const study = buildStudy({ count: 2, patientSex: 'F', patientBirthDate: '19810315' });
  for (const instance of study.instances) await queue.enqueueFile(instance.bytes);
  return study;
}

const reportOf = (studyInstanceUid: string, extra: Record<string, unknown> = {}) => ({
  studyInstanceUid,
  name: 'CT Head',
  content: '<p>Offline.</p>',
  signOff: false,
  baseLocalVersion: null,
  ...extra,
});

describe('the hybrid calls (issue 27 §4)', () => {
  it('lists the router’s studies with their offline report, and keeps a save durable', async () => {
    const study = await heldStudy();
    const token = await signIn(HYBRID);
    const before = ZHybridStudies.parse(await (await call(HYBRID_PATHS.studies, token)).json());
    expect(before).toEqual([
      expect.objectContaining({
        studyInstanceUid: study.studyInstanceUid,
        patientSex: 'F',
        patientAge: '045Y',
        images: 2,
        uploaded: false,
        report: null,
      }),
    ]);

    const saved = await call(HYBRID_PATHS.report, token, reportOf(study.studyInstanceUid));
    expect(saved.status).toBe(200);
    expect(ZOfflineReport.parse(await saved.json())).toMatchObject({
      localVersion: 1,
      state: 'PENDING',
      authorEmail: HYBRID.email,
    });
    expect(kicks).toBe(1);

    const after = ZHybridStudies.parse(await (await call(HYBRID_PATHS.studies, token)).json());
    expect(after[0]?.report).toMatchObject({
      state: 'PENDING',
      content: '<p>Offline.</p>',
      authorName: HYBRID.identifier,
    });
    const one = await call(`${HYBRID_PATHS.report}?studyInstanceUid=${study.studyInstanceUid}`, token);
    expect(ZOfflineReport.parse(await one.json()).localVersion).toBe(1);

    // Its versions, as the report dialog's Versions lists them.
    const second = reportOf(study.studyInstanceUid, { content: '<p>Two.</p>', baseLocalVersion: 1 });
    expect((await call(HYBRID_PATHS.report, token, second)).status).toBe(200);
    const versions = await call(`${HYBRID_PATHS.versions}?studyInstanceUid=${study.studyInstanceUid}`, token);
    expect(ZOfflineVersions.parse(await versions.json())).toMatchObject([
      { localVersion: 1, content: '<p>Offline.</p>', state: 'WAITING', authorEmail: HYBRID.email },
      { localVersion: 2, content: '<p>Two.</p>', state: 'WAITING' },
    ]);
    const unnamed = await call(HYBRID_PATHS.versions, token);
    expect(unnamed.status).toBe(400);
    expect(await unnamed.json()).toMatchObject({ additionalInfo: 'studyInstanceUid' });
  });

  it('refuses a stale version 409, an unknown study 404, a bad body 400 naming the field', async () => {
    const study = await heldStudy();
    const token = await signIn(HYBRID);
    expect((await call(HYBRID_PATHS.report, token, reportOf(study.studyInstanceUid))).status).toBe(200);
    const stale = await call(HYBRID_PATHS.report, token, reportOf(study.studyInstanceUid));
    expect(stale.status).toBe(409);
    expect(await stale.json()).toMatchObject({ errorDescription: REPORTING_MESSAGES.savedElsewhere });
    expect((await call(HYBRID_PATHS.report, token, reportOf('1.2.3.999'))).status).toBe(404);
    const bad = await call(HYBRID_PATHS.report, token, reportOf(study.studyInstanceUid, { name: '' }));
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ additionalInfo: 'name' });
  });

  it('is for hybrid users: a center user gets 403, no session 401', async () => {
    const token = await signIn(CENTER);
    const versions = `${HYBRID_PATHS.versions}?studyInstanceUid=1.2.3`;
    const annotations = `${HYBRID_PATHS.annotations}?studyInstanceUid=1.2.3`;
    const draft = `${HYBRID_PATHS.draft}?studyInstanceUid=1.2.3`;
    for (const path of [HYBRID_PATHS.studies, HYBRID_PATHS.templates, versions, annotations, draft]) {
      const refused = await call(path, token);
      expect(refused.status).toBe(403);
      expect(await refused.json()).toMatchObject({ errorDescription: MESSAGE_HYBRID_ONLY });
      expect((await fetch(`${base}${path}`)).status).toBe(401);
    }
  });

  it('keeps the measurements drawn offline per study, changed or deleted by their author only', async () => {
    const study = await heldStudy();
    const uid = study.studyInstanceUid;
    const token = await signIn(HYBRID);
    const listed = async (as = token) =>
      ZViewerAnnotations.parse(
        await (await call(`${HYBRID_PATHS.annotations}?studyInstanceUid=${uid}`, as)).json(),
      );
    expect(await listed()).toEqual({ annotations: [], keyImages: [] });

    const length = {
      annotationUid: 'a-1',
      toolName: 'Length',
      seriesInstanceUid: study.seriesInstanceUid,
      sopInstanceUid: study.instances[0]!.sopInstanceUid,
      frameNumber: 1,
      data: {
        handles: {
          points: [
            [0, 0, 0],
            [10, 0, 0],
          ],
        },
        label: '',
      },
    };
    const saved = await call(HYBRID_PATHS.annotations, token, { studyInstanceUid: uid, annotation: length });
    expect(saved.status).toBe(200);
    expect(ZViewerAnnotation.parse(await saved.json())).toMatchObject({ ...length, createdBy: HYBRID.email });
    const moved = {
      ...length,
      data: {
        handles: {
          points: [
            [0, 0, 0],
            [20, 0, 0],
          ],
        },
        label: '',
      },
    };
    expect(
      (await call(HYBRID_PATHS.annotations, token, { studyInstanceUid: uid, annotation: moved })).status,
    ).toBe(200);
    expect((await listed()).annotations).toMatchObject([moved]);

    // Another hybrid doctor sees it but may not change or delete it.
    const second = await signIn(SECOND);
    expect((await listed(second)).annotations).toHaveLength(1);
    const taken = await call(HYBRID_PATHS.annotations, second, { studyInstanceUid: uid, annotation: length });
    expect(taken.status).toBe(403);
    expect(await taken.json()).toMatchObject({ errorDescription: MESSAGE_OFFLINE_ANNOTATION_NOT_YOURS });
    const ref = { studyInstanceUid: uid, annotationUid: 'a-1' };
    expect((await call(HYBRID_PATHS.annotationDelete, second, ref)).status).toBe(403);

    // Kept durably: a restart of the store reads them back.
    await annotations.close();
    annotations = await OfflineAnnotationStore.open(dataDir);
    await app.close();
    await startApi();
    const again = await signIn(HYBRID);
    expect((await listed(again)).annotations).toMatchObject([{ ...moved, createdBy: HYBRID.email }]);

    expect((await call(HYBRID_PATHS.annotationDelete, again, ref)).status).toBe(200);
    expect((await listed(again)).annotations).toEqual([]);
    expect((await call(HYBRID_PATHS.annotationDelete, again, ref)).status).toBe(404);

    // A study the router does not hold, a tool the viewer does not save, no study: refused, nothing kept.
    const other = { studyInstanceUid: '1.2.3.999', annotation: length };
    expect((await call(HYBRID_PATHS.annotations, again, other)).status).toBe(404);
    const bad = await call(HYBRID_PATHS.annotations, again, {
      studyInstanceUid: uid,
      annotation: { ...length, toolName: 'Probe' },
    });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ additionalInfo: 'annotation.toolName' });
    expect((await call(HYBRID_PATHS.annotations, again)).status).toBe(400);
    expect((await listed(again)).annotations).toEqual([]);
  });

  it("keeps each doctor's unsaved text of a study's report, until their save takes it", async () => {
    const study = await heldStudy();
    const uid = study.studyInstanceUid;
    const token = await signIn(HYBRID);
    const second = await signIn(SECOND);
    const draftOf = async (as: string) =>
      (await call(`${HYBRID_PATHS.draft}?studyInstanceUid=${uid}`, as)).json() as Promise<unknown>;
    expect(await draftOf(token)).toBeNull();

    const typed = await call(HYBRID_PATHS.draft, token, {
      studyInstanceUid: uid,
      name: 'CT Head',
      content: '<p>Typing…</p>',
      baseVersion: null,
    });
    expect(typed.status).toBe(200);
    expect(ZReportDraft.parse(await typed.json())).toMatchObject({
      content: '<p>Typing…</p>',
      baseVersion: null,
    });
    expect(ZReportDraft.parse(await draftOf(token))).toMatchObject({
      name: 'CT Head',
      content: '<p>Typing…</p>',
    });
    // Another doctor's are theirs: none here.
    expect(await draftOf(second)).toBeNull();

    // A save on the router takes the text: the draft is gone (as the cloud's save removes it).
    expect((await call(HYBRID_PATHS.report, token, reportOf(uid))).status).toBe(200);
    expect(await draftOf(token)).toBeNull();

    await call(HYBRID_PATHS.draft, token, {
      studyInstanceUid: uid,
      content: '<p>Again.</p>',
      baseVersion: 1,
    });
    expect((await call(HYBRID_PATHS.draftDelete, token, { studyInstanceUid: uid })).status).toBe(200);
    expect(await draftOf(token)).toBeNull();

    const elsewhere = await call(HYBRID_PATHS.draft, token, {
      studyInstanceUid: '1.2.3.999',
      content: '<p>x</p>',
    });
    expect(elsewhere.status).toBe(404);
    const bad = await call(HYBRID_PATHS.draft, token, { studyInstanceUid: uid, content: 7 });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ additionalInfo: 'content' });
  });

  it("answers the signed-in doctor's own templates, as kept at their online sign-in", async () => {
    const token = await signIn(HYBRID);
    const answer = await call(HYBRID_PATHS.templates, token);
    expect(answer.status).toBe(200);
    expect(ZOfflineTemplates.parse(await answer.json())).toEqual({
      savedAt: '2026-11-02T10:00:00.000Z',
      templates: [TEMPLATE],
    });
  });
});

function rawGet(path: string): Promise<{ status: number; body: string; type: string | undefined }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: '127.0.0.1', port, path, headers: { Host: `localhost:${port}` } },
      (res) => {
        let body = '';
        res.on('data', (chunk: Buffer) => (body += chunk.toString()));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, body, type: res.headers['content-type'] }),
        );
      },
    );
    req.on('error', reject);
    req.end();
  });
}

describe('the web app served by the router (HYBRID.md)', () => {
  it('opens an app route as index.html marked as served by the router', async () => {
    const page = await rawGet('/hybrid-study-list');
    expect(page.status).toBe(200);
    expect(page.type).toContain('text/html');
    expect(page.body).toContain(
      `<meta name="${ROUTER_SERVED_META.name}" content="${ROUTER_SERVED_META.content}">`,
    );
  });

  it('serves built assets, and nothing outside the web directory or under /api', async () => {
    const asset = await rawGet('/assets/app-1.js');
    expect(asset).toMatchObject({ status: 200, body: 'console.log(1)' });
    expect(asset.type).toContain('javascript');
    expect((await rawGet('/assets/missing.js')).status).toBe(404);
    expect((await rawGet('/../credentials.json')).status).toBe(404);
    expect((await rawGet('/%2e%2e/hybrid/reports.journal')).status).toBe(404);
    expect((await rawGet('/api/user/')).status).toBe(404);
  });

  it('refuses another site’s page still (only the router’s own origin is added)', async () => {
    const token = await signIn(HYBRID);
    const response = await fetch(`${base}${HYBRID_PATHS.studies}`, {
      headers: { Origin: 'http://evil.example', Authorization: `Bearer ${token}` },
    });
    expect(response.status).toBe(403);
  });
});
