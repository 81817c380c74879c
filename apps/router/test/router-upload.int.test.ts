/**
 * Issue 27 §1: storescu → router → cloud through the fault proxy, with real peers — every
 * instance storescu saw acknowledged arrives in the cloud exactly once: on a good link, through a
 * cut link, after a kill -9 of the router mid-upload or mid-receive, and with the disk quota full.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { runStorescu } from '@radflow/dicom/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadRouterConfig } from '../src/config.js';
import { keyOfSopInstanceUid } from '../src/queue/queue.js';
import { startRouter } from '../src/router.js';
import { startTestCloud, waitFor, type TestCloud } from './cloud.js';
import { startFaultProxy, type FaultProxy } from './fault-proxy.js';
import { buildStudy, writeStudy, type SyntheticStudy } from './study-builder.js';

const ROUTER_AET = 'TEST_ROUTER';
const MODALITY_AET = 'TEST_CT';

let cloud: TestCloud;
let work: string;
beforeAll(async () => {
  cloud = await startTestCloud();
  work = await mkdtemp(join(tmpdir(), 'router-int-'));
});
afterAll(async () => {
  await cloud?.close();
  await rm(work, { recursive: true, force: true });
});

function routerEnv(
  dataDir: string,
  proxy: FaultProxy,
  extra: Record<string, string> = {},
): Record<string, string> {
  return {
    ROUTER_DATA_DIR: dataDir,
    ROUTER_SERVER_URL: `http://127.0.0.1:${proxy.port}`,
    ROUTER_API_TOKEN: cloud.token,
    ROUTER_DICOM_PORT: '0',
    // The local API on a free port: tests never take a fixed one.
    ROUTER_PORT: '0',
    ROUTER_DICOM_HOST: '127.0.0.1',
    ROUTER_AE_TITLE: ROUTER_AET,
    ROUTER_MODALITY_AE_TITLES: MODALITY_AET,
    ROUTER_UPLOAD_BATCH_COUNT: '4',
    ROUTER_RETRY_BASE_MS: '100',
    ROUTER_RETRY_MAX_MS: '800',
    ...extra,
  };
}

async function send(study: SyntheticStudy, port: number, name: string) {
  const files = await writeStudy(study, join(work, name));
  const run = await runStorescu({
    host: '127.0.0.1',
    port,
    callingAet: MODALITY_AET,
    calledAet: ROUTER_AET,
    files,
    extraArgs: ['-v'],
  });
  return { run, files, acknowledged: acknowledgedFiles(run.stdout + run.stderr) };
}

/** The files storescu -v reports a Success store response for. */
function acknowledgedFiles(log: string): string[] {
  const out: string[] = [];
  let current: string | undefined;
  for (const line of log.split('\n')) {
    const sending = /Sending file: (.+)$/.exec(line);
    if (sending) current = sending[1]!.trim();
    if (current && /Received Store Response \(Success\)/.test(line)) {
      out.push(current);
      current = undefined;
    }
  }
  return out;
}

/** Exactly once: one row per instance, and each row's sha256 is that of the router's spool copy. */
async function expectExactlyOnce(
  study: SyntheticStudy,
  dataDir: string,
  sops = study.instances.map((i) => i.sopInstanceUid),
) {
  const rows = await cloud.instancesOf(study.studyInstanceUid);
  expect(rows.map((r) => r.sopInstanceUid).sort()).toEqual([...sops].sort());
  for (const row of rows) {
    const spool = await readFile(
      join(dataDir, 'spool', 'objects', `${keyOfSopInstanceUid(row.sopInstanceUid)}.dcm`),
    );
    expect(row.sha256).toBe(createHash('sha256').update(spool).digest('hex'));
  }
}

describe('storescu → router → cloud', () => {
  it('uploads every instance exactly once, and through a cut link resumes where it stopped', async () => {
    // 24 slices of ~128 KB through a 1 MB/s link: ~3 s of upload, cut for 1.5 s in the middle.
    const proxy = await startFaultProxy({
      targetHost: '127.0.0.1',
      targetPort: cloud.port,
      bytesPerSecond: 1_000_000,
      latencyMs: 5,
    });
    const dataDir = join(work, 'cut');
    const router = await startRouter(loadRouterConfig(routerEnv(dataDir, proxy)));
    try {
      const study = buildStudy({ count: 24, matrix: 256 });
      let cutDone: Promise<void> | undefined;
      router.queue.on('instance-sent', () => {
        if (!cutDone && router.queue.studyProgress(study.studyInstanceUid)!.sent >= 8)
          cutDone = proxy.cut(1500);
      });
      const { run, acknowledged } = await send(study, router.scp.port, 'cut');
      expect(run.exitCode, run.stderr).toBe(0);
      expect(acknowledged).toHaveLength(24);
      await waitFor(
        'the study to be done',
        () => router.queue.studyProgress(study.studyInstanceUid)?.state === 'DONE',
      );
      await cutDone;
      expect(proxy.stats.cuts).toBe(1);
      await expectExactlyOnce(study, dataDir);
      // Resumed, not restarted: what crossed the link is the study plus at most the batches cut short.
      const studyBytes = study.instances.reduce((n, i) => n + i.bytes.length, 0);
      expect(proxy.stats.bytesUp).toBeLessThan(studyBytes * 1.6);
      expect(router.queue.pendingCases()).toEqual([]);
      expect(router.queue.errors()).toEqual([]);
    } finally {
      await router.stop();
      await proxy.close();
    }
  });

  it('after kill -9 of the router mid-upload and a restart, every acknowledged instance reaches the cloud', async () => {
    const proxy = await startFaultProxy({
      targetHost: '127.0.0.1',
      targetPort: cloud.port,
      bytesPerSecond: 400_000,
    });
    const dataDir = join(work, 'kill');
    const env = routerEnv(dataDir, proxy);
    const study = buildStudy({ count: 30, matrix: 128 });
    let child = await spawnRouter(env);
    try {
      const { run, acknowledged } = await send(study, child.port, 'kill');
      expect(run.exitCode, run.stderr).toBe(0);
      expect(acknowledged).toHaveLength(30);
      await waitFor(
        'a few instances in the cloud',
        async () => (await cloud.instancesOf(study.studyInstanceUid)).length >= 3,
      );
      child.process.kill('SIGKILL');
      await child.exited;
      const before = (await cloud.instancesOf(study.studyInstanceUid)).length;
      expect(before).toBeLessThan(30);
      child = await spawnRouter(env);
      await waitFor(
        'every instance in the cloud',
        async () => (await cloud.instancesOf(study.studyInstanceUid)).length === 30,
      );
      await expectExactlyOnce(study, dataDir);
    } finally {
      child.process.kill('SIGKILL');
      await child.exited;
      await proxy.close();
    }
  });

  it('after kill -9 of the router while storescu sends, every acknowledged instance reaches the cloud once', async () => {
    const proxy = await startFaultProxy({ targetHost: '127.0.0.1', targetPort: cloud.port });
    const dataDir = join(work, 'kill-receive');
    const env = routerEnv(dataDir, proxy);
    // Instances of 512 KB: the kill lands inside the receive of the one after the tenth answer.
    const study = buildStudy({ count: 40, matrix: 512 });
    const files = await writeStudy(study, join(work, 'kill-receive-files'));
    let child = await spawnRouter(env);
    try {
      const storescu = spawn(
        'storescu',
        ['-v', '-aet', MODALITY_AET, '-aec', ROUTER_AET, '127.0.0.1', String(child.port), ...files],
        { stdio: ['ignore', 'pipe', 'pipe'] },
      );
      let log = '';
      const gone = new Promise<void>((done) => storescu.once('exit', () => done()));
      await new Promise<void>((killed) => {
        const read = (chunk: string) => {
          log += chunk;
          if (acknowledgedFiles(log).length >= 10 && child.process.exitCode === null) {
            child.process.kill('SIGKILL');
            killed();
          }
        };
        storescu.stdout!.setEncoding('utf8').on('data', read);
        storescu.stderr!.setEncoding('utf8').on('data', read);
      });
      await Promise.all([child.exited, gone]);
      const acknowledged = acknowledgedFiles(log).map(
        (file) => study.instances[Number(/(\d+)\.dcm$/.exec(file)![1]) - 1]!.sopInstanceUid,
      );
      // The association died with the router: storescu did not get to the end.
      expect(acknowledged.length).toBeGreaterThanOrEqual(10);
      expect(acknowledged.length).toBeLessThan(40);

      child = await spawnRouter(env);
      await waitFor('the acknowledged instances in the cloud', async () => {
        const sops = new Set((await cloud.instancesOf(study.studyInstanceUid)).map((r) => r.sopInstanceUid));
        return acknowledged.every((sop) => sops.has(sop));
      });
      const rows = await cloud.instancesOf(study.studyInstanceUid);
      // At most the one whose receive the kill cut short, and only whole: its file was renamed
      // into the spool before the kill, so the restart adopted it (sending it is harmless).
      expect(rows.length).toBeLessThanOrEqual(acknowledged.length + 1);
      await expectExactlyOnce(
        study,
        dataDir,
        rows.map((r) => r.sopInstanceUid),
      );
      const sent = new Set(study.instances.map((i) => i.sopInstanceUid));
      expect(rows.every((r) => sent.has(r.sopInstanceUid))).toBe(true);
    } finally {
      child.process.kill('SIGKILL');
      await child.exited;
      await proxy.close();
    }
  });

  it('with the disk quota full refuses with a clear status and loses nothing it acknowledged', async () => {
    const proxy = await startFaultProxy({ targetHost: '127.0.0.1', targetPort: cloud.port });
    const dataDir = join(work, 'quota');
    const study = buildStudy({ count: 10, matrix: 128 });
    const size = study.instances[0]!.bytes.length + 200;
    // Room for four instances (the SCP's copies carry a slightly different meta header).
    const quotaMb = (size * 4.5) / (1024 * 1024);
    const router = await startRouter(
      loadRouterConfig(
        routerEnv(dataDir, proxy, { ROUTER_DISK_QUOTA_MB: String(quotaMb), ROUTER_DISK_ALARM_PERCENT: '80' }),
      ),
    );
    const alarms: unknown[] = [];
    router.queue.on('disk-alarm', (usage) => alarms.push(usage));
    try {
      const first = await send(study, router.scp.port, 'quota');
      expect(first.acknowledged).toHaveLength(4);
      expect(first.run.stdout + first.run.stderr).toMatch(/Refused: OutOfResources/);
      expect(alarms).toHaveLength(1);
      // A new association is refused at once while the disk is full.
      const second = await send(buildStudy({ count: 1 }), router.scp.port, 'quota-2');
      expect(second.acknowledged).toHaveLength(0);
      expect(second.run.stdout + second.run.stderr).toMatch(/Association Rejected/i);
      const acknowledgedSops = first.acknowledged.map(
        (file) => study.instances[Number(/(\d+)\.dcm$/.exec(file)![1]) - 1]!.sopInstanceUid,
      );
      await waitFor(
        'the acknowledged instances in the cloud',
        async () => (await cloud.instancesOf(study.studyInstanceUid)).length === 4,
      );
      await expectExactlyOnce(study, dataDir, acknowledgedSops);
    } finally {
      await router.stop();
      await proxy.close();
    }
  });
});

const ROUTER_MAIN = resolve(import.meta.dirname, '../src/main.ts');

/** The router as a program of its own (tsx), so that kill -9 is a real crash. */
async function spawnRouter(
  env: Record<string, string>,
): Promise<{ process: ChildProcess; port: number; exited: Promise<void> }> {
  const child = spawn(process.execPath, ['--import', 'tsx', ROUTER_MAIN], {
    env: { ...process.env, ...env, ROUTER_ANNOUNCE_PORT: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const port = await new Promise<number>((done, fail) => {
    const lines = createInterface({ input: child.stdout! });
    lines.on('line', (line) => {
      const match = /^ROUTER_DICOM_PORT=(\d+)$/.exec(line);
      if (match) done(Number(match[1]));
    });
    child.once('exit', (code) => fail(new Error(`The router exited (${code}) before listening: ${stderr}`)));
  });
  return { process: child, port, exited };
}
