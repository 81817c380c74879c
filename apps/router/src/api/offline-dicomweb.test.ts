import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  AppError,
  HYBRID_PATHS,
  MESSAGE_HYBRID_ONLY,
  ROUTER_VIEWER_COOKIE,
  ZRouterLoginAnswer,
} from '@radflow/core';
import type { FastifyInstance } from 'fastify';
import sharp from 'sharp';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildStudy } from '../../test/study-builder.js';
import { hybridReportsOf } from '../hybrid/hybrid-reports.js';
import { OfflineAnnotationStore } from '../hybrid/annotation-store.js';
import { OfflineDraftStore } from '../hybrid/draft-store.js';
import { OfflineReportStore } from '../hybrid/report-store.js';
import { SpoolImages } from '../hybrid/spool-images.js';
import { InstanceQueue } from '../queue/queue.js';
import { ROUTER_DICOMWEB_ROOT } from './dicomweb-routes.js';
import { startLocalApi } from './local-api.js';
import type { CloudLogin, VerifiedUser } from './ports.js';
import { uploadQueueOf } from './queue-adapter.js';

/*
 * Issue 27 §4 "the viewer … served locally from the router's store": the DICOMweb reads the web
 * viewer makes, answered from the router's spool for a hybrid user's session (HYBRID.md).
 */

const HYBRID: VerifiedUser = { email: 'dr@radflow.example', identifier: 'Dr Hybrid', hybrid: true };
const CENTER: VerifiedUser = { email: 'center@radflow.example', identifier: 'City Scans', hybrid: false };
const PASSWORD = 'pw';

let dataDir: string;
let queue: InstanceQueue;
let store: OfflineReportStore;
let annotations: OfflineAnnotationStore;
let drafts: OfflineDraftStore;
let app: FastifyInstance;
let base: string;

beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'router-offline-dicomweb-'));
  queue = await InstanceQueue.open({ dataDir });
  store = await OfflineReportStore.open(dataDir);
  annotations = await OfflineAnnotationStore.open(dataDir);
  drafts = await OfflineDraftStore.open(dataDir);
  const cloudLogin: CloudLogin = {
    async verify({ email, password }) {
      const user = [HYBRID, CENTER].find((u) => u.email === email);
      if (user && password === PASSWORD) return user;
      throw new AppError('UNAUTHORIZED', 'Invalid credentials');
    },
  };
  const unused = () => Promise.reject(new Error('not in this test'));
  const started = await startLocalApi({
    port: 0,
    version: '0.1.0',
    serverUrl: 'https://cloud.radflow.example',
    incomingDir: queue.tempDir,
    queue: uploadQueueOf(queue),
    sendJobs: { get: unused, run: unused },
    printer: { print: unused },
    releases: { checkVersion: unused, update: unused },
    cloudLogin,
    settings: { settings: () => ({}) },
    hybrid: hybridReportsOf(uploadQueueOf(queue), { reports: store, annotations, drafts }, () => undefined),
    offlineImages: new SpoolImages((uid) => queue.studyFiles(uid)),
  });
  app = started.app;
  base = `http://localhost:${new URL(started.url).port}`;
});

afterEach(async () => {
  await app.close();
  await store.close();
  await annotations.close();
  await drafts.close();
  await queue.close();
  await rm(dataDir, { recursive: true, force: true });
});

async function signIn(user: VerifiedUser): Promise<string> {
  const form = new FormData();
  form.set('email', user.email);
  form.set('password', PASSWORD);
  const response = await fetch(`${base}/login`, { method: 'POST', body: form });
  expect(response.status).toBe(200);
  return ZRouterLoginAnswer.parse(await response.json()).token;
}

const get = (path: string, token: string | null) =>
  fetch(`${base}${ROUTER_DICOMWEB_ROOT}${path}`, {
    headers: token ? { Authorization: `Bearer ${token}` } : {},
  });

type TJson = Record<string, { Value?: unknown[] }>;
const value = (dataset: TJson | undefined, tag: string) => dataset?.[tag]?.Value?.[0];

async function heldStudy(count = 3) {
  const study = buildStudy({ count });
  for (const instance of study.instances) await queue.enqueueFile(instance.bytes);
  return study;
}

describe('the offline viewer’s DICOMweb reads (issue 27 §4)', () => {
  it('answers QIDO series and instances and WADO-RS metadata from the spool', async () => {
    const study = await heldStudy(3);
    const token = await signIn(HYBRID);
    const s = study.studyInstanceUid;

    const studies = await get(`/studies?StudyInstanceUID=${s}`, token);
    expect(studies.status).toBe(200);
    expect(value(((await studies.json()) as TJson[])[0], '00201208')).toBe(3);

    const series = await get(`/studies/${s}/series`, token);
    expect(series.status).toBe(200);
    expect(series.headers.get('content-type')).toContain('application/dicom+json');
    const seriesList = (await series.json()) as TJson[];
    expect(seriesList).toHaveLength(1);
    expect(value(seriesList[0], '0020000E')).toBe(study.seriesInstanceUid);
    expect(value(seriesList[0], '00080060')).toBe('CT');
    expect(value(seriesList[0], '00201209')).toBe(3);

    const instances = (await (
      await get(`/studies/${s}/series/${study.seriesInstanceUid}/instances`, token)
    ).json()) as TJson[];
    expect(instances.map((i) => value(i, '00080018')).sort()).toEqual(
      study.instances.map((i) => i.sopInstanceUid).sort(),
    );
    expect(value(instances[0], '00280010')).toBe(64);
    expect(value(instances[0], '00083002')).toBe('1.2.840.10008.1.2.1');

    const metadata = (await (
      await get(`/studies/${s}/series/${study.seriesInstanceUid}/metadata`, token)
    ).json()) as TJson[];
    expect(metadata).toHaveLength(3);
    expect(value(metadata[0], '00100020')).toBe('ROUTER-1');
  });

  it('sends a frame as stored and a rendered frame fitted to the viewport, windowed as asked', async () => {
    const study = await heldStudy(1);
    const token = await signIn(HYBRID);
    const sop = study.instances[0]!;
    const at = `/studies/${study.studyInstanceUid}/series/${study.seriesInstanceUid}/instances/${sop.sopInstanceUid}`;

    const frame = await get(`${at}/frames/1`, token);
    expect(frame.status).toBe(200);
    expect(frame.headers.get('content-type')).toMatch(
      /^multipart\/related; type="application\/octet-stream"/,
    );
    const body = Buffer.from(await frame.arrayBuffer());
    // The pixel data is the file's last 64×64×2 bytes: the part carries exactly them.
    expect(body.includes(sop.bytes.subarray(sop.bytes.length - 64 * 64 * 2))).toBe(true);

    const rendered = await get(`${at}/frames/1/rendered?viewport=32,32`, token);
    expect(rendered.status).toBe(200);
    expect(rendered.headers.get('content-type')).toBe('image/jpeg');
    const jpeg = Buffer.from(await rendered.arrayBuffer());
    expect(await sharp(jpeg).metadata()).toMatchObject({ format: 'jpeg', width: 32, height: 32 });
    const stats = await sharp(jpeg).stats();
    expect(stats.channels[0]!.max).toBeGreaterThan(stats.channels[0]!.min); // an image, not a blank

    // A window far above every pixel (12-bit values ≤ 4095) draws black.
    const dark = await get(`${at}/frames/1/rendered?window=100000,10`, token);
    const darkStats = await sharp(Buffer.from(await dark.arrayBuffer())).stats();
    expect(darkStats.channels[0]!.max).toBeLessThan(10);

    const thumbnail = await get(
      `/studies/${study.studyInstanceUid}/series/${study.seriesInstanceUid}/thumbnail`,
      token,
    );
    expect(thumbnail.status).toBe(200);
    expect(thumbnail.headers.get('content-type')).toBe('image/jpeg');
  });

  it('refuses bad input 400 naming it, an unknown study or frame 404', async () => {
    const study = await heldStudy(1);
    const token = await signIn(HYBRID);
    const sop = study.instances[0]!.sopInstanceUid;
    const at = `/studies/${study.studyInstanceUid}/series/${study.seriesInstanceUid}/instances/${sop}`;
    const badViewport = await get(`${at}/frames/1/rendered?viewport=big`, token);
    expect(badViewport.status).toBe(400);
    expect(await badViewport.json()).toMatchObject({ additionalInfo: 'viewport' });
    expect((await get(`${at}/frames/0`, token)).status).toBe(400);
    expect((await get(`${at}/frames/2`, token)).status).toBe(404);
    expect((await get(`/studies/1.2.3.999/series`, token)).status).toBe(404);
    expect((await get(`/studies?StudyInstanceUID=1.2.3.999`, token)).status).toBe(204);
    expect((await get(`/studies/${study.studyInstanceUid}/series/1.2.3/instances`, token)).status).toBe(404);
  });

  it('is for hybrid users’ router sessions: a center user 403, no session 401', async () => {
    const study = await heldStudy(1);
    const center = await signIn(CENTER);
    const refused = await get(`/studies/${study.studyInstanceUid}/series`, center);
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ errorDescription: MESSAGE_HYBRID_ONLY });
    expect((await get(`/studies/${study.studyInstanceUid}/series`, null)).status).toBe(401);
  });

  it('lets the diagnostic viewer read images with a cookie its session set, and nothing else', async () => {
    const study = await heldStudy(1);
    const token = await signIn(HYBRID);
    const seriesPath = `${base}${ROUTER_DICOMWEB_ROOT}/studies/${study.studyInstanceUid}/series`;
    const traded = await fetch(`${base}${HYBRID_PATHS.viewerSession}`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}` },
    });
    expect(traded.status).toBe(200);
    const setCookie = traded.headers.get('set-cookie') ?? '';
    expect(setCookie).toMatch(
      new RegExp(`^${ROUTER_VIEWER_COOKIE}=[^;]+; Path=/api/dicomweb; HttpOnly; SameSite=Strict$`),
    );
    const cookie = setCookie.split(';')[0]!;

    expect((await fetch(seriesPath, { headers: { cookie } })).status).toBe(200);
    // Only image reads: the hybrid calls and every write still need the bearer token.
    expect((await fetch(`${base}${HYBRID_PATHS.studies}`, { headers: { cookie } })).status).toBe(401);
    const asWrite = await fetch(`${base}${HYBRID_PATHS.viewerSession}`, {
      method: 'POST',
      headers: { cookie },
    });
    expect(asWrite.status).toBe(401);
    // No session, no cookie: a bearer-less caller is asked to sign in; a forged cookie too.
    expect((await fetch(`${base}${HYBRID_PATHS.viewerSession}`, { method: 'POST' })).status).toBe(401);
    expect((await fetch(seriesPath, { headers: { cookie: `${ROUTER_VIEWER_COOKIE}=forged` } })).status).toBe(
      401,
    );

    // The cookie is the session: it ends with it, and logout clears it.
    const out = await fetch(`${base}/logout`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}` },
    });
    expect(out.headers.get('set-cookie')).toMatch(new RegExp(`^${ROUTER_VIEWER_COOKIE}=;.*Max-Age=0`));
    expect((await fetch(seriesPath, { headers: { cookie } })).status).toBe(401);
  });

  it('trades no cookie to a center user’s session', async () => {
    const center = await signIn(CENTER);
    const refused = await fetch(`${base}${HYBRID_PATHS.viewerSession}`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${center}` },
    });
    expect(refused.status).toBe(403);
    expect(refused.headers.get('set-cookie')).toBeNull();
  });

  it('forgets a study’s images once the router deletes it', async () => {
    const study = await heldStudy(1);
    const token = await signIn(HYBRID);
    expect((await get(`/studies/${study.studyInstanceUid}/series`, token)).status).toBe(200);
    const [key] = [...(queue.takeBatch(1e9, 100) ?? [])].map((f) => f.key);
    await queue.markSent([key!]);
    expect(await queue.deleteUploadedStudy(study.studyInstanceUid)).toBe('deleted');
    expect((await get(`/studies/${study.studyInstanceUid}/series`, token)).status).toBe(404);
  });
});
