/**
 * Issue 27: the router's parts wired into one running router (ROUTER.md "How the parts are wired"):
 * storescu → router → cloud, and through the local API as the browser calls it: sign-in with cloud
 * credentials, the pending cases, a send-job to a DCMTK storescp, a print, the version check.
 */
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ROUTER_PATHS,
  type TPendingCase,
  type TPrintAnswer,
  type TRouterLoginAnswer,
  type TRouterSendRecord,
  type TRouterVersionCheck,
} from '@radflow/core';
import { type RunningPeer, runStorescu, startStorescp } from '@radflow/dicom/test-support';
import { loadRouterConfig } from '../src/config.js';
import { ROUTER_VERSION } from '../src/release/index.js';
import { type RunningRouter, startRouter } from '../src/router.js';
import { startTestCloud, waitFor, type TestCloud } from './cloud.js';
import { buildStudy, writeStudy } from './study-builder.js';

const ROUTER_AET = 'WIRED_ROUTER';
const PACS_AET = 'CENTERPACS';

let cloud: TestCloud;
let pacs: RunningPeer;
let router: RunningRouter;
let work: string;
let printed: string;

beforeAll(async () => {
  [cloud, pacs, work] = await Promise.all([
    // The send-job below needs the group's sendCapabilityAtCenter (issue 29 §6).
    startTestCloud({ sendCapabilityAtCenter: true }),
    startStorescp({ aeTitle: PACS_AET }),
    mkdtemp(join(tmpdir(), 'router-wired-')),
  ]);
  // A stand-in for `lp`: keeps the PDF it reads on stdin (the printer setting runs it without a shell).
  const lp = join(work, 'lp.cjs');
  printed = join(work, 'printed.pdf');
  await writeFile(lp, "require('fs').writeFileSync(process.argv[2], require('fs').readFileSync(0));\n");
  router = await startRouter(
    loadRouterConfig({
      ROUTER_DATA_DIR: join(work, 'data'),
      ROUTER_SERVER_URL: `http://127.0.0.1:${cloud.port}`,
      ROUTER_API_TOKEN: cloud.token,
      ROUTER_PORT: '0',
      ROUTER_DICOM_PORT: '0',
      ROUTER_DICOM_HOST: '127.0.0.1',
      ROUTER_AE_TITLE: ROUTER_AET,
      ROUTER_FORWARD_DESTINATIONS: `${PACS_AET}@127.0.0.1:${pacs.port}`,
      ROUTER_PRINTER: `command:${process.execPath} ${lp} ${printed}`,
    }),
  );
}, 60_000);
afterAll(async () => {
  await router?.stop();
  await Promise.all([cloud?.close(), pacs?.stop()]);
  await rm(work, { recursive: true, force: true });
});

/** A call of the local API as the browser makes it (JSON or a form), with the router session. */
async function call<T>(path: string, init: { json?: unknown; form?: FormData; token?: string } = {}) {
  const response = await fetch(`${router.api.url}${path}`, {
    method: init.json !== undefined || init.form ? 'POST' : 'GET',
    headers: {
      ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
      ...(init.json !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    body: init.form ?? (init.json !== undefined ? JSON.stringify(init.json) : undefined),
  });
  return { status: response.status, body: (await response.json()) as T };
}

describe('the wired router', () => {
  it('receives, uploads, forwards, prints and checks its version through its local API', async () => {
    const login = new FormData();
    login.set('email', cloud.centerUser.email);
    login.set('password', cloud.centerUser.password);
    const signedIn = await call<TRouterLoginAnswer>(ROUTER_PATHS.login, { form: login });
    expect(signedIn.status, JSON.stringify(signedIn.body)).toBe(200);
    const token = signedIn.body.token;

    // storescu → the router's SCP → the queue → the cloud.
    const study = buildStudy({ count: 3 });
    const files = await writeStudy(study, join(work, 'study'));
    const run = await runStorescu({
      host: '127.0.0.1',
      port: router.scp.port,
      callingAet: 'WIRED_CT',
      calledAet: ROUTER_AET,
      files,
    });
    expect(run.exitCode, run.stderr).toBe(0);
    let pending: TPendingCase | undefined;
    await waitFor('the study uploaded', async () => {
      const cases = await call<TPendingCase[]>(ROUTER_PATHS.pendingCases, { token });
      pending = cases.body.find((c) => c.studyInstanceUid === study.studyInstanceUid);
      return pending?.state === 'DONE';
    });
    expect(pending).toMatchObject({ total: 3, sent: 3, error: null });
    expect(await cloud.instancesOf(study.studyInstanceUid)).toHaveLength(3);

    // send-job: from the router's own spool to the center's PACS.
    const job = await call<TRouterSendRecord>(ROUTER_PATHS.sendJobRun, {
      token,
      json: {
        studyId: study.studyInstanceUid,
        reportStatusId: 7,
        aeTitle: PACS_AET,
        destination: `127.0.0.1:${pacs.port}`,
        createdAt: new Date().toISOString(),
        userEmail: cloud.centerUser.email,
      },
    });
    expect(job.status, JSON.stringify(job.body)).toBe(202);
    let record: TRouterSendRecord | undefined;
    await waitFor('the send-job to finish', async () => {
      const records = await call<TRouterSendRecord[]>(ROUTER_PATHS.sendJobGet, {
        token,
        json: { studyIds: [study.studyInstanceUid] },
      });
      record = records.body[0];
      return record !== undefined && record.status !== 'IN_PROGRESS';
    });
    expect(record).toMatchObject({ status: 'SEND', aeTitle: PACS_AET });
    expect(record!.instanceSendStatuses.map((i) => i.status)).toEqual(['SEND', 'SEND', 'SEND']);
    expect(await readdir(pacs.dir)).toHaveLength(3);

    // A destination the router is not configured for is refused with the reason, not a 500.
    const elsewhere = await call<{ errorDescription: string }>(ROUTER_PATHS.sendJobRun, {
      token,
      json: {
        studyId: study.studyInstanceUid,
        reportStatusId: 7,
        aeTitle: PACS_AET,
        destination: '127.0.0.1:1',
        createdAt: new Date().toISOString(),
        userEmail: cloud.centerUser.email,
      },
    });
    expect(elsewhere.status).toBe(400);
    expect(elsewhere.body.errorDescription).toBe(
      'Destination is not one of the PACS configured on this router',
    );

    // Print: one image through the configured command printer.
    const png = await sharp({ create: { width: 32, height: 32, channels: 3, background: '#888' } })
      .png()
      .toBuffer();
    const print = new FormData();
    print.set('content', JSON.stringify({ layout: '1,1', copies: 1 }));
    print.append('images', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'film.png');
    const answer = await call<TPrintAnswer>(ROUTER_PATHS.imagePrint, { token, form: print });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body).toMatchObject({ status: 'PRINTED', error: null });
    expect((await readFile(printed)).subarray(0, 5).toString()).toBe('%PDF-');

    // The version check reaches the cloud with the router's API token; this cloud offers no release.
    const version = await call<TRouterVersionCheck>(ROUTER_PATHS.checkVersion, { token });
    expect(version.status, JSON.stringify(version.body)).toBe(200);
    expect(version.body).toEqual({
      currentVersion: ROUTER_VERSION,
      latestVersion: null,
      updateAvailable: false,
      notes: null,
    });
  });
});
