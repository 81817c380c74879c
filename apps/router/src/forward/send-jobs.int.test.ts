// send-job (issue 27 §3): the router C-STOREs a study to a PACS on the center's network, with the
// spec's Router-send record per instance, kept on disk, against real peers on 127.0.0.1.
import { copyFile, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { parseInstance } from '@radflow/dicom';
import { type StoreScp, startStoreScp } from '@radflow/dicom/dimse';
import { type RunningPeer, freePort, startStorescp } from '@radflow/dicom/test-support';
import { FIXTURES_DIR, manifest } from '../../../../packages/dicom/src/test-fixtures.js';
import { DESTINATION_MESSAGES } from './destination.js';
import { SEND_JOB_MESSAGES, SendJobInputError, SendJobs, type SendJobsOptions } from './send-jobs.js';
import { DirectoryStudySource, type StudySource } from './study-source.js';

const FIXTURES = manifest.files.filter((f) => f.path.startsWith('mr/series_ge_4slices/'));
const STUDY_UID = FIXTURES[0]!.study_instance_uid!;
const SOP_UIDS = FIXTURES.map((f) => f.sop_instance_uid!);

let work: string;
let store: string;
let storescp: RunningPeer;
const open: SendJobs[] = [];

beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'radflow-send-jobs-'));
  store = path.join(work, 'store');
  // The local store's layout: a folder per study, plus a stray file of another study that must not go.
  await mkdir(path.join(store, STUDY_UID, 'series'), { recursive: true });
  for (const file of FIXTURES)
    await copyFile(
      path.join(FIXTURES_DIR, file.path),
      path.join(store, STUDY_UID, 'series', path.basename(file.path)),
    );
  const stray = manifest.files.find((f) => f.expected === 'valid' && f.study_instance_uid !== STUDY_UID)!;
  await copyFile(path.join(FIXTURES_DIR, stray.path), path.join(store, STUDY_UID, 'stray.dcm'));
  storescp = await startStorescp({ aeTitle: 'CENTERPACS' });
}, 30_000);

afterEach(async () => {
  await Promise.all(open.splice(0).map((jobs) => jobs.close()));
});

afterAll(async () => {
  await storescp?.stop();
  await rm(work, { recursive: true, force: true });
});

async function openJobs(options: Partial<SendJobsOptions> & { dataDir: string }): Promise<SendJobs> {
  const jobs = await SendJobs.open({
    source: new DirectoryStudySource(store),
    callingAet: 'RADROUTER',
    retryDelaysMs: [],
    ...options,
  });
  open.push(jobs);
  return jobs;
}

const newDataDir = () => mkdtemp(path.join(work, 'data-'));

describe('send-job to DCMTK storescp', () => {
  it('sends every instance; the record goes SEND with each instance SEND, and is there after a restart', async () => {
    const dataDir = await newDataDir();
    const jobs = await openJobs({ dataDir });
    const started = await jobs.run({
      studyId: STUDY_UID,
      reportStatusId: 42,
      aeTitle: 'CENTERPACS',
      destination: `127.0.0.1:${storescp.port}`,
      createdAt: '2026-11-27T10:00:00.000Z',
      userEmail: 'tech@center.test',
    });
    expect(started.status).toBe('IN_PROGRESS');
    const done = await jobs.settled(started.id);
    expect(done.status, done.lastError ?? '').toBe('SEND');
    expect(done.instanceSendStatuses.map((i) => [i.sopInstanceUid, i.status]).sort()).toEqual(
      SOP_UIDS.map((uid) => [uid, 'SEND']).sort(),
    );

    const received = new Set<string>();
    for (const name of await readdir(storescp.dir)) {
      received.add(
        parseInstance(new Uint8Array(await readFile(path.join(storescp.dir, name)))).sopInstanceUid,
      );
    }
    expect([...received].sort()).toEqual([...SOP_UIDS].sort());

    await jobs.close();
    const reopened = await openJobs({ dataDir });
    const [record] = reopened.get([STUDY_UID]);
    expect(record).toMatchObject({
      id: started.id,
      studyInstanceId: STUDY_UID,
      status: 'SEND',
      aeTitle: 'CENTERPACS',
      destination: `127.0.0.1:${storescp.port}`,
      reportStatusId: 42,
      userEmail: 'tech@center.test',
      createdAt: '2026-11-27T10:00:00.000Z',
    });
    expect(reopened.get(['1.2.3'])).toEqual([]);
  }, 60_000);
});

describe('send-job to a PACS that refuses instances', () => {
  let pacs: StoreScp;
  const refused = new Set<string>();
  /** Refused the first time only (a PACS that was briefly out of space). */
  const refusedOnce = new Set<string>();
  const stored: string[] = [];

  beforeAll(async () => {
    pacs = await startStoreScp({
      aeTitle: 'PICKYPACS',
      port: 0,
      onInstance: (instance) => {
        if (refusedOnce.delete(instance.sopInstanceUid) || refused.has(instance.sopInstanceUid))
          return { status: 0xa700, errorComment: 'Disk full' };
        stored.push(instance.sopInstanceUid);
        return { status: 0 };
      },
    });
  });
  afterAll(() => pacs?.close());
  afterEach(() => {
    refused.clear();
    stored.length = 0;
  });

  it('marks the refused instances FAILED with the reason, the record FAILED; a retry sends them', async () => {
    refused.add(SOP_UIDS[1]!);
    const jobs = await openJobs({ dataDir: await newDataDir() });
    const input = {
      studyId: STUDY_UID,
      reportStatusId: 7,
      aeTitle: 'PICKYPACS',
      destination: `127.0.0.1:${pacs.port}`,
    };
    const first = await jobs.settled((await jobs.run(input)).id);
    expect(first.status).toBe('FAILED');
    expect(first.lastError).toMatch(/^1 of 4 instances failed: C-STORE status 0xa700: Disk full/);
    // Counted and worded as the cloud's forwarding record (spec-core §8 'Report Id: {id} | {message}').
    expect(first).toMatchObject({ total: 4, success: 3, failed: 1, pending: 0, percentage: 75 });
    expect(first.failureMessage).toBe(`Report Id: 7 | ${first.lastError}`);
    const failed = first.instanceSendStatuses.filter((i) => i.status === 'FAILED');
    expect(failed).toEqual([
      {
        sopInstanceUid: SOP_UIDS[1],
        status: 'FAILED',
        attempts: 1,
        error: 'C-STORE status 0xa700: Disk full',
      },
    ]);
    expect(first.instanceSendStatuses.filter((i) => i.status === 'SEND')).toHaveLength(3);

    // The PACS has room again; running the same send again retries only what failed.
    refused.clear();
    stored.length = 0;
    const retried = await jobs.run(input);
    expect(retried.id).toBe(first.id);
    const second = await jobs.settled(retried.id);
    expect(second.status).toBe('SEND');
    expect(second).toMatchObject({ lastError: null, failureMessage: null, percentage: 100 });
    expect(stored).toEqual([SOP_UIDS[1]]);
    expect(second.instanceSendStatuses.every((i) => i.status === 'SEND')).toBe(true);
    await expect(jobs.retry(first.id)).rejects.toThrow(SEND_JOB_MESSAGES.nothingToRetry);
  }, 60_000);

  it('tries a failed instance again after the back-off and ends SEND when the PACS recovers', async () => {
    refusedOnce.add(SOP_UIDS[0]!);
    const jobs = await openJobs({ dataDir: await newDataDir(), retryDelaysMs: [100] });
    const record = await jobs.settled(
      (await jobs.run({ studyId: STUDY_UID, aeTitle: 'PICKYPACS', destination: `127.0.0.1:${pacs.port}` }))
        .id,
    );
    expect(record.status).toBe('SEND');
    expect(record.instanceSendStatuses.find((i) => i.sopInstanceUid === SOP_UIDS[0])).toMatchObject({
      status: 'SEND',
      attempts: 2,
      error: null,
    });
  }, 60_000);

  it('a PACS that is not listening: every instance FAILED with the connection error', async () => {
    const port = await freePort();
    const jobs = await openJobs({ dataDir: await newDataDir() });
    const record = await jobs.settled(
      (await jobs.run({ studyId: STUDY_UID, aeTitle: 'GONE', destination: `127.0.0.1:${port}` })).id,
    );
    expect(record.status).toBe('FAILED');
    expect(record.instanceSendStatuses).toHaveLength(4);
    expect(
      record.instanceSendStatuses.every((i) => i.status === 'FAILED' && /refused/i.test(i.error ?? '')),
    ).toBe(true);
  }, 30_000);

  it('a source that fails for a while (the cloud link down) is tried again', async () => {
    let opens = 0;
    const directory = new DirectoryStudySource(store);
    const flaky: StudySource = {
      open: (uid) => (++opens === 1 ? Promise.reject(new Error('fetch failed')) : directory.open(uid)),
    };
    const jobs = await openJobs({ dataDir: await newDataDir(), source: flaky, retryDelaysMs: [50] });
    const record = await jobs.settled(
      (await jobs.run({ studyId: STUDY_UID, aeTitle: 'PICKYPACS', destination: `127.0.0.1:${pacs.port}` }))
        .id,
    );
    expect(record.status, record.lastError ?? '').toBe('SEND');
    expect(opens).toBe(2);
  });

  it('a study the router does not have: FAILED with the reason', async () => {
    const jobs = await openJobs({ dataDir: await newDataDir() });
    const record = await jobs.settled(
      (await jobs.run({ studyId: '1.2.3.4', aeTitle: 'PICKYPACS', destination: `127.0.0.1:${pacs.port}` }))
        .id,
    );
    expect(record.status).toBe('FAILED');
    expect(record.lastError).toMatch(/^The study could not be read: Study 1\.2\.3\.4 is not in/);
  });
});

describe('send-job after a restart', () => {
  it('resumes a send that was running when the router stopped, and drops a half-written record file', async () => {
    const dataDir = await newDataDir();
    const record = {
      id: 'interrupted',
      studyId: STUDY_UID,
      studyInstanceId: STUDY_UID,
      reportStatusId: null,
      status: 'IN_PROGRESS',
      aeTitle: 'CENTERPACS',
      destination: `127.0.0.1:${storescp.port}`,
      userEmail: null,
      createdAt: '2026-11-27T09:00:00.000Z',
      updatedAt: '2026-11-27T09:00:01.000Z',
      lastError: null,
      instanceSendStatuses: SOP_UIDS.map((uid, i) => ({
        sopInstanceUid: uid,
        status: i === 0 ? 'SEND' : 'PENDING',
        attempts: i === 0 ? 1 : 0,
        error: null,
      })),
    };
    await mkdir(path.join(dataDir, 'send-jobs'));
    await writeFile(path.join(dataDir, 'send-jobs', 'interrupted.json'), JSON.stringify(record));
    await writeFile(path.join(dataDir, 'send-jobs', 'interrupted.json.1.tmp'), '{"half');
    const jobs = await openJobs({ dataDir });
    const done = await jobs.settled('interrupted');
    expect(done.status).toBe('SEND');
    // The instance already stored was not sent again.
    expect(done.instanceSendStatuses.map((i) => i.attempts)).toEqual([1, 1, 1, 1]);
    expect(await readdir(path.join(dataDir, 'send-jobs'))).toEqual(['interrupted.json']);
  }, 30_000);
});

describe('send-job input', () => {
  it('refuses bad input and destinations off the center network with a message naming it', async () => {
    const jobs = await openJobs({ dataDir: await newDataDir() });
    const base = { studyId: STUDY_UID, aeTitle: 'PACS', destination: '192.168.1.20:104' };
    const refusal = (input: Record<string, unknown>) =>
      jobs.run({ ...base, ...input } as typeof base).then(
        () => 'accepted',
        (error: unknown) => (error instanceof SendJobInputError ? error.message : String(error)),
      );
    expect(await refusal({ studyId: '../etc' })).toBe(SEND_JOB_MESSAGES.studyId);
    expect(await refusal({ destination: 'pacs.example.com:104' })).toBe(
      DESTINATION_MESSAGES.invalidDestination,
    );
    expect(await refusal({ destination: '192.168.1.20:70000' })).toBe(
      DESTINATION_MESSAGES.invalidDestination,
    );
    expect(await refusal({ destination: '8.8.8.8:104' })).toBe(DESTINATION_MESSAGES.notPrivate);
    expect(await refusal({ aeTitle: 'A\\B' })).toMatch(/AE title/);
    expect(jobs.list()).toEqual([]);

    const strict = await openJobs({
      dataDir: await newDataDir(),
      policy: { allowed: ['PACS@10.0.0.5:104'] },
    });
    await expect(strict.run({ ...base, destination: '10.0.0.6:104' })).rejects.toThrow(
      DESTINATION_MESSAGES.notConfigured,
    );
    await expect(strict.run({ ...base, aeTitle: 'OTHER', destination: '10.0.0.5:104' })).rejects.toThrow(
      DESTINATION_MESSAGES.notConfigured,
    );
  });
});
