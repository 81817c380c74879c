import { mkdtemp, rm } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  AppError,
  ZPendingCases,
  ZRouterEvent,
  ZRouterInfo,
  ZRouterLoginAnswer,
  type TRouterEvent,
  type TRouterSendRecord,
  type TSendJobRunRequest,
} from '@radflow/core';
import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import yazl from 'yazl';
import { buildStudy } from '../../test/study-builder.js';
import { InstanceQueue } from '../queue/queue.js';
import { MESSAGE_SIGN_IN, startLocalApi } from './local-api.js';
import type { CloudLogin, ImagePrinter, PrintImage, Releases, SendJobs } from './ports.js';
import { uploadQueueOf } from './queue-adapter.js';
import { MESSAGE_HOST_REFUSED, MESSAGE_ORIGIN_REFUSED } from './request-guard.js';

const APP_ORIGIN = 'https://cloud.radflow.example';
const FOREIGN_ORIGIN = 'https://evil.example';
const CENTER = { email: 'center@radflow.example', identifier: 'City Scans' };
const PASSWORD = 'correct horse battery';

/** Fakes of the parts other branches build (forward, print, release) and of the cloud's check. */
function fakes() {
  const runs: TSendJobRunRequest[] = [];
  const prints: { images: readonly PrintImage[]; content: string; userEmail: string }[] = [];
  let updates = 0;
  const sendJobs: SendJobs = {
    async get(studyIds) {
      return studyIds.map((id): TRouterSendRecord => ({
        studyInstanceId: id,
        status: 'SEND',
        aeTitle: 'PACS_A',
        destination: '127.0.0.1:11112',
        instanceSendStatuses: [{ sopInstanceUid: `${id}.1`, status: 'SEND' }],
      }));
    },
    async run(request) {
      runs.push(request);
      return {
        studyInstanceId: request.studyId,
        status: 'IN_PROGRESS',
        aeTitle: request.aeTitle,
        destination: request.destination,
        instanceSendStatuses: [],
      };
    },
  };
  const printer: ImagePrinter = {
    async print(job) {
      prints.push(job);
      return { jobId: 'print-1', status: 'QUEUED', error: null };
    },
  };
  const releases: Releases = {
    async checkVersion() {
      return { currentVersion: '0.1.0', latestVersion: '0.2.0', updateAvailable: true, notes: 'Faster' };
    },
    async update() {
      updates += 1;
      return { status: 'STARTED', version: '0.2.0' };
    },
  };
  const cloudLogin: CloudLogin = {
    async verify({ email, password }) {
      if (email === CENTER.email && password === PASSWORD) return CENTER;
      throw new AppError('UNAUTHORIZED', 'Invalid credentials');
    },
  };
  return { sendJobs, printer, releases, cloudLogin, runs, prints, updates: () => updates };
}

let dataDir: string;
let queue: InstanceQueue;
let app: FastifyInstance;
let base: string;
let port: number;
let parts: ReturnType<typeof fakes>;

beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'router-api-'));
  queue = await InstanceQueue.open({ dataDir });
  parts = fakes();
  const started = await startLocalApi({
    port: 0,
    version: '0.1.0',
    serverUrl: `${APP_ORIGIN}/`,
    incomingDir: queue.tempDir,
    queue: uploadQueueOf(queue),
    sendJobs: parts.sendJobs,
    printer: parts.printer,
    releases: parts.releases,
    cloudLogin: parts.cloudLogin,
    settings: { settings: () => ({ ROUTER_PORT: 8090, ROUTER_SERVER_URL: APP_ORIGIN }) },
  });
  app = started.app;
  // Browsers reach the router as localhost; fetch sends the Host of the URL it is given.
  port = Number(new URL(started.url).port);
  base = `http://localhost:${port}`;
});

afterEach(async () => {
  await app.close();
  await queue.close();
  await rm(dataDir, { recursive: true, force: true });
});

const fromApp = (init: RequestInit = {}, token?: string): RequestInit => {
  const headers = new Headers(init.headers);
  headers.set('Origin', APP_ORIGIN);
  if (token) headers.set('Authorization', `Bearer ${token}`);
  return { ...init, headers };
};
const json = (body: unknown): RequestInit => ({
  method: 'POST',
  headers: { 'Content-Type': 'application/json' },
  body: JSON.stringify(body),
});

async function signIn(): Promise<string> {
  const form = new FormData();
  form.set('email', CENTER.email);
  form.set('password', PASSWORD);
  const response = await fetch(`${base}/login`, fromApp({ method: 'POST', body: form }));
  expect(response.status).toBe(200);
  return ZRouterLoginAnswer.parse(await response.json()).token;
}

/** A raw request with a Host header of our choosing (fetch does not let one set Host). */
function rawGet(path: string, host: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, headers: { Host: host } }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** Reads /events until `count` events matching `wanted` arrived. */
async function readEvents(
  response: Response,
  wanted: (event: TRouterEvent) => boolean,
  count: number,
): Promise<TRouterEvent[]> {
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  const found: TRouterEvent[] = [];
  let buffer = '';
  while (found.length < count) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += value;
    let end: number;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const message = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const data = message.split('\n').find((line) => line.startsWith('data: '));
      if (!data) continue;
      const event = ZRouterEvent.parse(JSON.parse(data.slice(6)));
      if (wanted(event)) found.push(event);
    }
  }
  await reader.cancel();
  return found;
}

describe('who may call the router (CORS, Host, session)', () => {
  it('gives our app CORS headers and answers its preflight, Private Network Access included', async () => {
    const preflight = await fetch(`${base}/send-job/run`, {
      method: 'OPTIONS',
      headers: {
        Origin: APP_ORIGIN,
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers': 'authorization,content-type',
        'Access-Control-Request-Private-Network': 'true',
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe(APP_ORIGIN);
    expect(preflight.headers.get('access-control-allow-headers')).toMatch(/Authorization/);
    expect(preflight.headers.get('access-control-allow-private-network')).toBe('true');

    const info = await fetch(`${base}/get-info`, fromApp());
    expect(info.status).toBe(200);
    expect(info.headers.get('access-control-allow-origin')).toBe(APP_ORIGIN);
  });

  it('refuses another site: no CORS headers, 403 on its preflight, its reads and its writes', async () => {
    const preflight = await fetch(`${base}/login`, {
      method: 'OPTIONS',
      headers: { Origin: FOREIGN_ORIGIN, 'Access-Control-Request-Method': 'POST' },
    });
    expect(preflight.status).toBe(403);
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull();

    const token = await signIn();
    for (const init of [{ method: 'GET' }, { ...json({ studyInstanceUid: '1.2.3' }) }]) {
      const path = init.method === 'GET' ? '/upload/pending-cases' : '/delete-uploaded-study';
      const headers = new Headers(init.headers);
      headers.set('Origin', FOREIGN_ORIGIN);
      headers.set('Authorization', `Bearer ${token}`);
      const response = await fetch(`${base}${path}`, { ...init, headers });
      expect(response.status).toBe(403);
      expect(response.headers.get('access-control-allow-origin')).toBeNull();
      expect(((await response.json()) as { errorDescription: string }).errorDescription).toBe(
        MESSAGE_ORIGIN_REFUSED,
      );
    }
    // A sandboxed page's "null" origin is not ours either.
    const opaque = await fetch(`${base}/get-info`, { headers: { Origin: 'null' } });
    expect(opaque.status).toBe(403);
  });

  it('refuses a Host that is not localhost at its port (DNS rebinding)', async () => {
    const rebound = await rawGet('/get-info', `evil.example:${port}`);
    expect(rebound.status).toBe(403);
    expect(JSON.parse(rebound.body)).toMatchObject({ errorDescription: MESSAGE_HOST_REFUSED });
    expect((await rawGet('/get-info', `localhost:${port + 1}`)).status).toBe(403);
    expect((await rawGet('/get-info', `127.0.0.1:${port}`)).status).toBe(200);
    expect((await rawGet('/get-info', `[::1]:${port}`)).status).toBe(200);
  });

  it('signs in with the cloud credentials, answers a bearer session, and signs out', async () => {
    const info = ZRouterInfo.parse(await (await fetch(`${base}/get-info`, fromApp())).json());
    expect(info).toMatchObject({ name: 'Radflow router', version: '0.1.0', user: null });

    const unsigned = await fetch(`${base}/upload/pending-cases`, fromApp());
    expect(unsigned.status).toBe(401);
    expect(((await unsigned.json()) as { errorDescription: string }).errorDescription).toBe(MESSAGE_SIGN_IN);

    const wrong = new FormData();
    wrong.set('email', CENTER.email);
    wrong.set('password', 'wrong');
    const refused = await fetch(`${base}/login`, fromApp({ method: 'POST', body: wrong }));
    expect(refused.status).toBe(401);

    const notMultipart = await fetch(
      `${base}/login`,
      fromApp(json({ email: CENTER.email, password: PASSWORD })),
    );
    expect(notMultipart.status).toBe(415);

    const token = await signIn();
    const mine = ZRouterInfo.parse(await (await fetch(`${base}/get-info`, fromApp({}, token))).json());
    expect(mine.user).toEqual({ ...CENTER, hybrid: false });
    expect((await fetch(`${base}/upload/pending-cases`, fromApp({}, token))).status).toBe(200);

    expect((await fetch(`${base}/logout`, fromApp({ method: 'POST' }, token))).status).toBe(200);
    expect((await fetch(`${base}/upload/pending-cases`, fromApp({}, token))).status).toBe(401);
  });
});

describe('the calls of spec-core §7', () => {
  it('upload-file and upload-zip put studies in the queue; pending-cases shows them by study', async () => {
    const token = await signIn();
    const one = buildStudy({ count: 1 });
    const file = new FormData();
    file.set('file', new Blob([new Uint8Array(one.instances[0]!.bytes)]), 'one.dcm');
    const uploaded = await fetch(`${base}/upload-file`, fromApp({ method: 'POST', body: file }, token));
    expect(uploaded.status).toBe(200);
    expect(await uploaded.json()).toEqual({
      queued: 1,
      studyInstanceUids: [one.studyInstanceUid],
      skipped: [],
    });

    const three = buildStudy({ count: 3 });
    const zip = new yazl.ZipFile();
    three.instances.forEach((instance, i) => zip.addBuffer(instance.bytes, `CT/IM${i}`));
    zip.addBuffer(Buffer.from('not an image'), 'README.txt');
    zip.end();
    const chunks: Buffer[] = [];
    for await (const chunk of zip.outputStream) chunks.push(chunk as Buffer);
    const zipForm = new FormData();
    zipForm.set('file', new Blob([Buffer.concat(chunks)]), 'study.zip');
    const zipped = await fetch(`${base}/upload-zip`, fromApp({ method: 'POST', body: zipForm }, token));
    expect(zipped.status).toBe(200);
    expect(await zipped.json()).toEqual({
      queued: 3,
      studyInstanceUids: [three.studyInstanceUid],
      skipped: ['README.txt'],
    });

    const cases = ZPendingCases.parse(
      await (await fetch(`${base}/upload/pending-cases`, fromApp({}, token))).json(),
    );
    expect(cases.map((c) => [c.studyInstanceUid, c.total, c.sent, c.state])).toEqual([
      [one.studyInstanceUid, 1, 0, 'QUEUED'],
      [three.studyInstanceUid, 3, 0, 'QUEUED'],
    ]);
    expect(cases[1]?.instances.every((i) => !i.sent)).toBe(true);

    const notDicom = new FormData();
    notDicom.set('file', new Blob(['hello']), 'x.txt');
    const bad = await fetch(`${base}/upload-file`, fromApp({ method: 'POST', body: notDicom }, token));
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { errorDescription: string }).errorDescription).toMatch(
      /^Not a DICOM file/,
    );

    const noFile = new FormData();
    noFile.set('other', 'x');
    expect((await fetch(`${base}/upload-zip`, fromApp({ method: 'POST', body: noFile }, token))).status).toBe(
      400,
    );
  });

  it('delete-uploaded-study keeps a study the cloud does not have in full, deletes one it has', async () => {
    const token = await signIn();
    const study = buildStudy({ count: 2 });
    for (const instance of study.instances) await queue.enqueueFile(instance.bytes);

    const early = await fetch(
      `${base}/delete-uploaded-study`,
      fromApp(json({ studyInstanceUid: study.studyInstanceUid }), token),
    );
    expect(early.status).toBe(409);

    // The uploader's part: the cloud confirmed both instances.
    await queue.markSent(queue.takeBatch(1e9, 100).map((f) => f.key));
    const done = await fetch(
      `${base}/delete-uploaded-study`,
      fromApp(json({ studyInstanceUid: study.studyInstanceUid }), token),
    );
    expect(done.status).toBe(200);
    expect(queue.allCases()).toEqual([]);

    const unknown = await fetch(
      `${base}/delete-uploaded-study`,
      fromApp(json({ studyInstanceUid: '1.2.3' }), token),
    );
    expect(unknown.status).toBe(404);
    const invalid = await fetch(
      `${base}/delete-uploaded-study`,
      fromApp(json({ studyInstanceUid: 'x' }), token),
    );
    expect(invalid.status).toBe(400);
  });

  it('a refused study shows its reason, and retry releases it', async () => {
    const token = await signIn();
    const study = buildStudy({ count: 1 });
    await queue.enqueueFile(study.instances[0]!.bytes);
    const batch = queue.takeBatch(1e9, 100);
    await queue.markFailed(
      batch.map((f) => f.key),
      'The cloud refused the instance: checksum mismatch',
      { permanent: true },
    );
    const [failed] = ZPendingCases.parse(
      await (await fetch(`${base}/upload/pending-cases`, fromApp({}, token))).json(),
    );
    expect(failed).toMatchObject({
      state: 'FAILED',
      error: 'The cloud refused the instance: checksum mismatch',
    });

    const retried = await fetch(
      `${base}/upload/retry`,
      fromApp(json({ studyInstanceUid: study.studyInstanceUid }), token),
    );
    expect(retried.status).toBe(200);
    const [again] = ZPendingCases.parse(
      await (await fetch(`${base}/upload/pending-cases`, fromApp({}, token))).json(),
    );
    expect(again).toMatchObject({ state: 'QUEUED', error: null });
  });

  it('send-job get and run pass the spec fields to the forwarder and name a bad one', async () => {
    const token = await signIn();
    const got = await fetch(`${base}/send-job/get`, fromApp(json({ studyIds: ['1.2.3', '1.2.4'] }), token));
    expect(got.status).toBe(200);
    expect(((await got.json()) as TRouterSendRecord[]).map((r) => r.studyInstanceId)).toEqual([
      '1.2.3',
      '1.2.4',
    ]);

    const job = {
      studyId: '1.2.3',
      reportStatusId: 42,
      aeTitle: 'PACS_A',
      destination: '192.168.1.20:104',
      createdAt: '2026-11-27 10:00:00',
      userEmail: CENTER.email,
    };
    const run = await fetch(`${base}/send-job/run`, fromApp(json(job), token));
    expect(run.status).toBe(202);
    expect(await run.json()).toMatchObject({ studyInstanceId: '1.2.3', status: 'IN_PROGRESS' });
    expect(parts.runs).toEqual([job]);

    const bad = await fetch(`${base}/send-job/run`, fromApp(json({ ...job, destination: 'pacs' }), token));
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({
      errorDescription: 'destination must be host:port',
      additionalInfo: 'destination',
    });
    expect((await fetch(`${base}/send-job/get`, fromApp(json({ studyIds: [] }), token))).status).toBe(400);
  });

  it('router/image/print takes multipart images and content, printed as the signed-in user', async () => {
    const token = await signIn();
    const form = new FormData();
    form.append('images', new Blob([Buffer.from('png-1')], { type: 'image/png' }), 'film-1.png');
    form.append('images', new Blob([Buffer.from('png-2')], { type: 'image/png' }), 'film-2.png');
    form.set('content', JSON.stringify({ copies: 1, filmSize: '14INX17IN' }));
    const printed = await fetch(`${base}/router/image/print`, fromApp({ method: 'POST', body: form }, token));
    expect(printed.status).toBe(200);
    expect(await printed.json()).toEqual({ jobId: 'print-1', status: 'QUEUED', error: null });
    expect(parts.prints).toHaveLength(1);
    expect(parts.prints[0]?.images.map((i) => [i.fileName, i.data.toString()])).toEqual([
      ['film-1.png', 'png-1'],
      ['film-2.png', 'png-2'],
    ]);
    expect(parts.prints[0]?.userEmail).toBe(CENTER.email);

    const empty = new FormData();
    empty.set('content', '{}');
    expect(
      (await fetch(`${base}/router/image/print`, fromApp({ method: 'POST', body: empty }, token))).status,
    ).toBe(400);
  });

  it('setting/get, app/check-version and app/update answer through their parts', async () => {
    const token = await signIn();
    expect(await (await fetch(`${base}/setting/get`, fromApp({}, token))).json()).toEqual({
      ROUTER_PORT: 8090,
      ROUTER_SERVER_URL: APP_ORIGIN,
    });
    expect(await (await fetch(`${base}/app/check-version`, fromApp({}, token))).json()).toEqual({
      currentVersion: '0.1.0',
      latestVersion: '0.2.0',
      updateAvailable: true,
      notes: 'Faster',
    });
    const update = await fetch(`${base}/app/update`, fromApp({ method: 'POST' }, token));
    expect(update.status).toBe(202);
    expect(parts.updates()).toBe(1);
  });
});

describe('/events', () => {
  it('needs a session and then delivers queued, sent and uploaded events as they happen', async () => {
    expect((await fetch(`${base}/events`, fromApp())).status).toBe(401);
    const token = await signIn();
    const stream = await fetch(`${base}/events?session=${encodeURIComponent(token)}`, fromApp());
    expect(stream.status).toBe(200);
    expect(stream.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(stream.headers.get('access-control-allow-origin')).toBe(APP_ORIGIN);

    const study = buildStudy({ count: 1 });
    const events = readEvents(stream, (e) => e.type !== 'hello', 3);
    await queue.enqueueFile(study.instances[0]!.bytes);
    await queue.markSent(queue.takeBatch(1e9, 100).map((f) => f.key));
    expect((await events).map((e) => [e.type, e.studyInstanceUid])).toEqual([
      ['queued', study.studyInstanceUid],
      ['sent', study.studyInstanceUid],
      ['uploaded', study.studyInstanceUid],
    ]);
  });
});
