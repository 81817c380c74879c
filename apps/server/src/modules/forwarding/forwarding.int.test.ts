// Forwarding a study to a PACS (issue 3 §6) against real peers: Orthanc as the destination, DCMTK
// storescp as a PACS that comes up late, and a port with nothing listening as a PACS that is down.
// The worker is driven batch by batch (`runForwardingBatch`) and the app clock moved for back-off.
import { spawn } from 'node:child_process';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  FORWARDING_MESSAGES,
  type TForwardRecord,
  type TForwardStatusResponse,
  type TRole,
} from '@radflow/core';
import {
  type OrthancPeer,
  freePort,
  peerEnvironment,
  startOrthanc,
  stopProcess,
  waitForPort,
} from '@radflow/dicom/test-support';
import { inArray } from 'drizzle-orm';
import { forwardSendInstances } from '../../db/schema.js';
import { ingestInstance } from '../archive/ingest.js';
import { runForwardingBatch, startForwardingWorker } from './forward-worker.js';
import type { TestClient } from '../../../test/test-app.js';
import {
  type TestApp,
  createTestApp,
  createTestCenter,
  createTestGroup,
  setGroupPreference,
  signIn as signInUser,
} from '../../../test/test-app.js';
import { LIVER, fixturePath } from '../../../test/archive/fixtures.js';

const OUR_AET = 'RADFLOW';
let t: TestApp;
let orthanc: OrthancPeer;

beforeAll(async () => {
  [t, orthanc] = await Promise.all([
    createTestApp({}),
    startOrthanc({ aeTitle: 'ORTHANC', modalities: { radflow: [OUR_AET, '127.0.0.1', 11112] } }),
  ]);
}, 60_000);
afterAll(async () => {
  await Promise.all([t?.close(), orthanc?.stop()]);
});

const worker = (batchSize?: number) =>
  runForwardingBatch(t.app.ctx, {
    callingAet: OUR_AET,
    timeoutMs: 20_000,
    ...(batchSize ? { batchSize } : {}),
  });

/** A group with forwarding on, a center with the liver study (3 CT + 1 SEG), and signed-in users. */
async function createForwardingWorld(opts: { featureOn?: boolean } = {}) {
  const group = await createTestGroup(t.db);
  if (opts.featureOn ?? true) {
    await setGroupPreference(t.db, group.id, 'GROUP_SWITCHES', { addForwardingPacsFeature: true });
  }
  const center = await createTestCenter(t.db, { groupId: group.id });
  let reportStatusId = 0;
  const sopInstanceUids: string[] = [];
  for (const file of LIVER) {
    const result = await ingestInstance(
      t.app.ctx,
      { filePath: fixturePath(file) },
      { centerId: center.id, source: 'UPLOAD' },
    );
    if (!result.ok) throw new Error(`${file}: ${result.reason}`);
    reportStatusId = result.reportStatusId;
    sopInstanceUids.push(result.sopInstanceUid);
  }
  const signIn = async (roles: TRole[], centerId: number | null = null) =>
    (await signInUser(t, { roles, groupId: group.id, centerId })).browser;
  return {
    group,
    center,
    reportStatusId,
    sopInstanceUids,
    centerUser: await signIn(['ROLE_CENTER'], center.id),
    groupAdmin: await signIn(['ROLE_GROUP']),
    doctor: await signIn(['ROLE_DOCTOR']),
  };
}

async function addPacs(client: TestClient, pacs: { aeTitle: string; ip?: string; port: number }) {
  const response = await client.post('/api/forwarding-pacs', {
    ip: '127.0.0.1',
    ...pacs,
    port: String(pacs.port),
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ id: number }>().id;
}

async function send(client: TestClient, reportStatusId: number, pacsId: number): Promise<TForwardRecord> {
  const response = await client.post('/api/forward/send', { reportStatusId, pacsId });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<TForwardRecord>();
}

async function statusOf(client: TestClient, reportStatusId: number) {
  const response = await client.get(`/api/forward/status?reportStatusIds=${reportStatusId}`);
  expect(response.statusCode, response.body).toBe(200);
  const study = response.json<TForwardStatusResponse>().studies[0];
  if (!study) throw new Error('study missing from the status');
  return study;
}

/** DCMTK storescp on a chosen port (a PACS that was down coming up), writing to a temp dir. */
async function startStorescpOn(port: number, aeTitle: string) {
  const dir = await mkdtemp(path.join(tmpdir(), 'radflow-fwd-storescp-'));
  const child = spawn('storescp', ['--aetitle', aeTitle, '-od', dir, '+xa', String(port)], {
    env: peerEnvironment(),
    stdio: 'ignore',
  });
  await waitForPort(port);
  return {
    dir,
    async stop() {
      await stopProcess(child);
      await rm(dir, { recursive: true, force: true });
    },
  };
}

describe('the forwarding PACS list', () => {
  // An empty list is what makes the web say 'Please create pacs server' (forwarding.test.tsx).
  it("starts empty (the web's 'Please create pacs server'), validates as spec-lab §5 says, and echoes", async () => {
    const w = await createForwardingWorld();
    const empty = await w.centerUser.get('/api/forwarding-pacs');
    expect(empty.statusCode).toBe(200);
    expect(empty.json()).toEqual([]);

    const invalid = async (body: object) => {
      const response = await w.centerUser.post('/api/forwarding-pacs', body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      return response.json<{ errorDescription: string }>().errorDescription;
    };
    expect(await invalid({})).toBe('Please add all details');
    expect(await invalid({ aeTitle: 'PACS', ip: '', port: '104' })).toBe('Please add all details');
    expect(await invalid({ aeTitle: 'PACS', ip: '10.0.0.256', port: '104' })).toBe(
      FORWARDING_MESSAGES.invalidIp,
    );
    expect(await invalid({ aeTitle: 'PACS', ip: '10.0.0.1', port: '70000' })).toBe(
      FORWARDING_MESSAGES.invalidPort,
    );

    const pacsId = await addPacs(w.centerUser, { aeTitle: orthanc.aeTitle, port: orthanc.port });
    const list = await w.centerUser.get('/api/forwarding-pacs');
    expect(list.json()).toEqual([
      expect.objectContaining({
        id: pacsId,
        centerId: w.center.id,
        aeTitle: 'ORTHANC',
        ip: '127.0.0.1',
        port: orthanc.port,
      }),
    ]);

    const echo = await w.centerUser.post(`/api/forwarding-pacs/${pacsId}/echo`);
    expect(echo.statusCode, echo.body).toBe(200);
    expect(echo.json()).toMatchObject({ ok: true, status: 0, error: null });
    expect(echo.json<{ elapsedMs: number }>().elapsedMs).toBeGreaterThanOrEqual(0);

    const downId = await addPacs(w.centerUser, { aeTitle: 'DOWN', port: await freePort() });
    const failing = await w.centerUser.post(`/api/forwarding-pacs/${downId}/echo`);
    expect(failing.statusCode).toBe(200);
    expect(failing.json()).toMatchObject({ ok: false, elapsedMs: null });
    expect(failing.json<{ error: string }>().error).toMatch(/connection refused/i);

    const removed = await w.centerUser.request({ method: 'DELETE', url: `/api/forwarding-pacs/${downId}` });
    expect(removed.statusCode).toBe(200);
    expect((await w.centerUser.get('/api/forwarding-pacs')).json()).toHaveLength(1);
  });

  it('group admins keep the list of a center of their group, named in the request', async () => {
    const w = await createForwardingWorld();
    const other = await createTestCenter(t.db, { groupId: (await createTestGroup(t.db)).id });
    const body = { aeTitle: 'PACS', ip: '10.1.2.3', port: 104 };
    expect((await w.groupAdmin.post('/api/forwarding-pacs', body)).statusCode).toBe(400);
    expect(
      (await w.groupAdmin.post('/api/forwarding-pacs', { ...body, centerId: other.id })).statusCode,
    ).toBe(404);
    const created = await w.groupAdmin.post('/api/forwarding-pacs', { ...body, centerId: w.center.id });
    expect(created.statusCode, created.body).toBe(200);
    const seenByCenter = await w.centerUser.get('/api/forwarding-pacs');
    expect(seenByCenter.json()).toEqual([
      expect.objectContaining({ aeTitle: 'PACS', ip: '10.1.2.3', port: 104 }),
    ]);
    expect((await w.groupAdmin.get(`/api/forwarding-pacs?centerId=${w.center.id}`)).json()).toHaveLength(1);
  });

  it('a doctor may not forward (403); with addForwardingPacsFeature off nobody may', async () => {
    const w = await createForwardingWorld();
    for (const response of [
      await w.doctor.get('/api/forwarding-pacs'),
      await w.doctor.post('/api/forwarding-pacs', { aeTitle: 'PACS', ip: '10.1.2.3', port: 104 }),
      await w.doctor.post('/api/forward/send', { reportStatusId: w.reportStatusId, pacsId: 1 }),
      await w.doctor.get(`/api/forward/status?reportStatusIds=${w.reportStatusId}`),
    ]) {
      expect(response.statusCode).toBe(403);
    }
    const off = await createForwardingWorld({ featureOn: false });
    const response = await off.centerUser.get('/api/forwarding-pacs');
    expect(response.statusCode).toBe(403);
    expect(response.json()).toMatchObject({
      errorDescription: 'Forwarding to a PACS is not enabled for this group',
    });
  });
});

describe('forwarding a study', () => {
  it('sends every instance to Orthanc, with counts, the in-progress percentage and Case Send', async () => {
    const w = await createForwardingWorld();
    const pacsId = await addPacs(w.centerUser, { aeTitle: orthanc.aeTitle, port: orthanc.port });
    const created = await send(w.centerUser, w.reportStatusId, pacsId);
    expect(created).toMatchObject({
      status: 'IN_PROGRESS',
      aeTitle: 'ORTHANC',
      destination: `127.0.0.1:${orthanc.port}`,
      total: 4,
      pending: 4,
      success: 0,
      failed: 0,
    });
    expect((await statusOf(w.centerUser, w.reportStatusId)).badge).toMatchObject({
      state: 'IN_PROGRESS',
      label: '0%',
    });

    expect(await worker(2)).toMatchObject({ claimed: 2, sent: 2, failed: 0 });
    const half = await statusOf(w.centerUser, w.reportStatusId);
    expect(half.badge).toEqual({ state: 'IN_PROGRESS', label: '50%', percentage: 50 });
    expect(half.records[0]).toMatchObject({ pending: 2, success: 2, percentage: 50 });

    expect(await worker(2)).toMatchObject({ claimed: 2, sent: 2 });
    expect(await worker()).toBeNull();
    const done = await statusOf(w.centerUser, w.reportStatusId);
    expect(done.badge).toEqual({ state: 'SEND', label: 'Case Send', percentage: 100 });
    expect(done.records).toEqual([
      expect.objectContaining({
        id: created.id,
        status: 'SEND',
        pending: 0,
        success: 4,
        failed: 0,
        percentage: 100,
      }),
    ]);

    // Orthanc holds every SOP Instance UID of the study.
    const ids = await orthanc.get<string[]>('/instances');
    const uids = await Promise.all(
      ids.map(
        async (id) =>
          (await orthanc.get<{ MainDicomTags: { SOPInstanceUID: string } }>(`/instances/${id}`)).MainDicomTags
            .SOPInstanceUID,
      ),
    );
    expect(uids).toEqual(expect.arrayContaining(w.sopInstanceUids));

    // Group staff see it too; a center user of another center does not (the study is not told).
    const { browser: staff } = await signInUser(t, { roles: ['ROLE_ASSIGNOR'], groupId: w.group.id });
    expect((await statusOf(staff, w.reportStatusId)).badge.label).toBe('Case Send');
    const elsewhere = await createTestCenter(t.db, { groupId: w.group.id });
    const { browser: strangerClient } = await signInUser(t, {
      roles: ['ROLE_CENTER'],
      groupId: w.group.id,
      centerId: elsewhere.id,
    });
    const hidden = await strangerClient.get(`/api/forward/status?reportStatusIds=${w.reportStatusId}`);
    expect(hidden.json()).toEqual({ studies: [] });
    const refused = await strangerClient.post('/api/forward/send', {
      reportStatusId: w.reportStatusId,
      pacsId,
    });
    expect(refused.statusCode).toBe(404);
  });

  it('retries with back-off while the PACS is down and delivers once it is up', async () => {
    const w = await createForwardingWorld();
    const port = await freePort();
    const pacsId = await addPacs(w.centerUser, { aeTitle: 'LATEPACS', port });
    await send(w.centerUser, w.reportStatusId, pacsId);

    const first = await worker();
    expect(first).toMatchObject({ claimed: 4, sent: 0, failed: 4 });
    expect(first?.error).toMatch(/connection refused/i);
    const waiting = await statusOf(w.centerUser, w.reportStatusId);
    expect(waiting.records[0]).toMatchObject({ status: 'IN_PROGRESS', failed: 4, success: 0 });
    const retryIn = (Date.parse(waiting.records[0]!.nextRetryAt!) - t.app.ctx.now().getTime()) / 1000;
    expect(retryIn).toBeGreaterThan(25);
    expect(retryIn).toBeLessThanOrEqual(30);
    expect(await worker()).toBeNull(); // not due yet

    const pacs = await startStorescpOn(port, 'LATEPACS');
    try {
      t.clock.advance(31);
      expect(await worker()).toMatchObject({ claimed: 4, sent: 4, failed: 0 });
      const done = await statusOf(w.centerUser, w.reportStatusId);
      expect(done.records[0]).toMatchObject({ status: 'SEND', success: 4, failed: 0, nextRetryAt: null });
      expect(done.badge.label).toBe('Case Send');
      expect(await readdir(pacs.dir)).toHaveLength(4);
    } finally {
      await pacs.stop();
    }
  });

  it("gives up after its attempts (Case Failed, 'Report Id: {id} | …'), and resend delivers the failed ones", async () => {
    const w = await createForwardingWorld();
    const port = await freePort();
    const pacsId = await addPacs(w.centerUser, { aeTitle: 'DEADPACS', port });
    const created = await send(w.centerUser, w.reportStatusId, pacsId);

    for (const wait of [0, 30, 120, 600, 1800]) {
      t.clock.advance(wait);
      expect(await worker(), `after ${wait} s`).toMatchObject({ failed: 4 });
    }
    t.clock.advance(3600);
    expect(await worker()).toBeNull();
    const failed = await statusOf(w.centerUser, w.reportStatusId);
    expect(failed.badge).toMatchObject({ state: 'FAILED', label: 'Case Failed' });
    expect(failed.records[0]).toMatchObject({ status: 'FAILED', failed: 4, nextRetryAt: null });
    expect(failed.records[0]!.failureMessage).toMatch(
      new RegExp(`^Report Id: ${w.reportStatusId} \\| .*connection refused`, 'i'),
    );

    const pacs = await startStorescpOn(port, 'DEADPACS');
    try {
      const resent = await w.centerUser.post(`/api/forward/${created.id}/resend`);
      expect(resent.statusCode, resent.body).toBe(200);
      expect(resent.json()).toMatchObject({
        status: 'IN_PROGRESS',
        pending: 4,
        failed: 0,
        failureMessage: null,
      });
      expect(await worker()).toMatchObject({ sent: 4 });
      expect((await statusOf(w.centerUser, w.reportStatusId)).badge.label).toBe('Case Send');
      const again = await w.centerUser.post(`/api/forward/${created.id}/resend`);
      expect(again.statusCode).toBe(409);
      expect(await readdir(pacs.dir)).toHaveLength(4);
    } finally {
      await pacs.stop();
    }
  });

  it('workers running side by side never claim the same instance (FOR UPDATE SKIP LOCKED + lease)', async () => {
    const w = await createForwardingWorld();
    const pacsId = await addPacs(w.centerUser, { aeTitle: orthanc.aeTitle, port: orthanc.port });
    await send(w.centerUser, w.reportStatusId, pacsId);
    await send(w.centerUser, w.reportStatusId, pacsId);
    const outcomes = (await Promise.all([worker(2), worker(2), worker(2), worker(2), worker(2)])).filter(
      (o) => o !== null,
    );
    const claimed = outcomes.reduce((n, o) => n + o.claimed, 0);
    while ((await worker(2)) !== null); // whatever a busy moment left for later
    const study = await statusOf(w.centerUser, w.reportStatusId);
    expect(study.records.map((r) => [r.status, r.success, r.total])).toEqual([
      ['SEND', 4, 4],
      ['SEND', 4, 4],
    ]);
    expect(claimed).toBeLessThanOrEqual(8);
    const rows = await t.db
      .select()
      .from(forwardSendInstances)
      .where(
        inArray(
          forwardSendInstances.sendId,
          study.records.map((r) => r.id),
        ),
      );
    expect(rows.map((r) => r.attempts)).toEqual(rows.map(() => 1));
  });

  it('the background worker picks a new send up by itself', async () => {
    const w = await createForwardingWorld();
    const pacsId = await addPacs(w.centerUser, { aeTitle: orthanc.aeTitle, port: orthanc.port });
    const running = startForwardingWorker(t.app.ctx, { callingAet: OUR_AET, pollMs: 50 });
    try {
      await send(w.centerUser, w.reportStatusId, pacsId);
      await expect
        .poll(async () => (await statusOf(w.centerUser, w.reportStatusId)).badge.label, { timeout: 15_000 })
        .toBe('Case Send');
    } finally {
      await running.stop();
    }
  });

  it('is documented in the OpenAPI document', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/openapi.json' });
    expect(response.statusCode).toBe(200);
    const paths = Object.keys(response.json<{ paths: Record<string, unknown> }>().paths);
    expect(paths).toEqual(
      expect.arrayContaining([
        '/api/forwarding-pacs',
        '/api/forwarding-pacs/{id}',
        '/api/forwarding-pacs/{id}/echo',
        '/api/forward/send',
        '/api/forward/status',
        '/api/forward/{sendId}/resend',
      ]),
    );
  });
});
