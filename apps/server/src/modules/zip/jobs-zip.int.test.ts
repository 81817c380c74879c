import { createHash } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import yauzl from 'yauzl';
import { parseInstance } from '@radflow/dicom';
import type { TJobProgress, TJobRequest, TJobRunResponse } from '@radflow/core';
import { instances, jobs, reportStatuses } from '../../db/schema.js';
import { ingestInstance } from '../archive/ingest.js';
import { jobRunnerOf } from '../jobs/job-registry.js';
import { zipBlobKey } from './build-study-zip.js';
import type { TestClient } from '../../../test/test-app.js';
import {
  type TestApp,
  createTestApp,
  createTestCenter,
  createTestGroup,
  createTestUser,
  setGroupPreference,
  signInAs,
} from '../../../test/test-app.js';
import { LIVER, corpus, readFixture } from '../../../test/archive/fixtures.js';

/**
 * The story of a zip download (issue 3 §5, spec-core §4 Job run and Zip download): the center asks
 * for the zip job, polls its progress, gets a signed link and downloads the study byte-for-byte.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await jobRunnerOf(t.app.ctx, t.app.log).startWorkers({ pollingIntervalSeconds: 0.5 });
});
afterAll(() => t.close());

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const LIVER_SHA = new Set(LIVER.map((p) => corpus.find((f) => f.path === p)!.sha256));

/** A group with a center, its center user, its admin, and the liver study uploaded to the center. */
async function createStudySetup(opts: { files?: string[]; uploaded?: boolean } = {}) {
  const group = await createTestGroup(t.db);
  const center = await createTestCenter(t.db, { groupId: group.id });
  let reportStatusId = 0;
  for (const file of opts.files ?? LIVER) {
    const result = await ingestInstance(
      t.app.ctx,
      { bytes: readFixture(file) },
      { centerId: center.id, source: 'UPLOAD' },
    );
    if (!result.ok) throw new Error(result.reason);
    reportStatusId = result.reportStatusId;
  }
  await t.db
    .update(reportStatuses)
    .set({ lastUploadCompletedAt: opts.uploaded === false ? null : t.app.ctx.now() })
    .where(eq(reportStatuses.id, reportStatusId));
  const centerUser = await createTestUser(t.db, {
    roles: ['ROLE_CENTER'],
    groupId: group.id,
    centerId: center.id,
  });
  const admin = await createTestUser(t.db, { roles: ['ROLE_ADMIN'], groupId: group.id });
  return { group, center, reportStatusId, centerUser, admin };
}

const signIn = (user: { email: string; password: string }) => signInAs(t, user);

async function runJob(client: TestClient, body: TJobRequest) {
  const response = await client.post('/api/batch/run', body);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<TJobRunResponse>();
}

/** Polls the progress record as the web does (faster), until the run has finished. */
async function waitForRun(client: TestClient, reportStatusId: number): Promise<TJobProgress> {
  for (let i = 0; i < 200; i++) {
    const response = await client.get(`/api/batch/progress/${reportStatusId}`);
    if (response.statusCode === 200) {
      const progress = response.json<TJobProgress>();
      if (progress.jobStatus === 'COMPLETED' || progress.jobStatus === 'FAILED') return progress;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('the job did not finish in 20 s');
}

async function zipLink(client: TestClient, reportStatusId: number, query = 'withName=true') {
  const response = await client.get(`/api/dicom-web/zip-v2/complete/studies/link/${reportStatusId}?${query}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ data: { zipUrl: { downloadUrl: string } } }>().data.zipUrl.downloadUrl;
}

/** Every entry of a zip: name → bytes (yauzl, the reader the archive tests use). */
function readZip(buffer: Buffer): Promise<Map<string, Buffer>> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(buffer, { lazyEntries: true }, (error, zip) => {
      if (error) return reject(error);
      const out = new Map<string, Buffer>();
      zip.on('entry', (entry: yauzl.Entry) => {
        zip.openReadStream(entry, (err, stream) => {
          if (err) return reject(err);
          const chunks: Buffer[] = [];
          stream.on('data', (c: Buffer) => chunks.push(c));
          stream.on('end', () => {
            out.set(entry.fileName, Buffer.concat(chunks));
            zip.readEntry();
          });
          stream.on('error', reject);
        });
      });
      zip.on('end', () => resolve(out));
      zip.on('error', reject);
      zip.readEntry();
    });
  });
}

const zipJob = (reportStatusId: number, extra: Partial<TJobRequest> = {}): TJobRequest => ({
  jobName: 'ZIP_STUDY',
  studyId: null,
  seriesId: null,
  reportStatusId,
  zipAnonymizationTypeEnum: 'NONE',
  recreateZip: false,
  forceTrigger: false,
  ...extra,
});

describe('the zip job and its download', () => {
  it('queues one run, zips every instance byte-for-byte in the layout, then serves it by a signed link', async () => {
    const { reportStatusId, centerUser } = await createStudySetup();
    const center = await signIn(centerUser);

    // Two clicks at once: one run; the second answer is the first run's (in progress) status.
    const [first, second] = await Promise.all([
      runJob(center, zipJob(reportStatusId)),
      runJob(center, zipJob(reportStatusId)),
    ]);
    expect(['QUEUED', 'RUNNING']).toContain(first.jobStatus);
    expect(['QUEUED', 'RUNNING']).toContain(second.jobStatus);
    expect(await t.db.select().from(jobs).where(eq(jobs.reportStatusId, reportStatusId))).toHaveLength(1);

    const progress = await waitForRun(center, reportStatusId);
    expect(progress).toMatchObject({
      jobName: 'ZIP_STUDY',
      jobStatus: 'COMPLETED',
      error: null,
      numberOfJob: 4,
      completedJob: 4,
      progress: 100,
      fileDownloadProgress: 100,
      patientName: 'JANCT000',
    });
    // A finished zip and no recreateZip: COMPLETED at once.
    expect(await runJob(center, zipJob(reportStatusId))).toEqual({ jobStatus: 'COMPLETED', error: null });

    const url = await zipLink(center, reportStatusId);
    expect(url).toMatch(/^\/api\/dicom-web\/zip-v2\/download\/[\w-]+\.[\w-]+$/);
    // The link is the credential: no cookie needed.
    const download = await t.app.inject({ method: 'GET', url });
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-type']).toBe('application/zip');
    expect(download.headers['content-disposition']).toContain(`filename="${reportStatusId}_JANCT000.zip"`);
    expect(download.headers['accept-ranges']).toBe('bytes');
    expect(Number(download.headers['content-length'])).toBe(download.rawPayload.length);

    const entries = await readZip(download.rawPayload);
    const names = [...entries.keys()].sort();
    expect(names).toHaveLength(5);
    const dcm = names.filter((n) => n.endsWith('.dcm'));
    for (const name of dcm) {
      expect(name).toMatch(/^JANCT000_\d{8}\/\d+_[^/]+\/\d+\.dcm$/);
      expect(LIVER_SHA.has(sha256(entries.get(name)!)), name).toBe(true);
    }
    expect(new Set(dcm.map((n) => sha256(entries.get(n)!))).size).toBe(4);
    const readme = names.find((n) => n.endsWith('/README.txt'))!;
    expect(entries.get(readme)!.toString('utf8')).toContain('Instances: 4');

    // Range: the first 100 bytes, a suffix, and one outside the file.
    const part = await t.app.inject({ method: 'GET', url, headers: { range: 'bytes=0-99' } });
    expect(part.statusCode).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 0-99/${download.rawPayload.length}`);
    expect(part.rawPayload.equals(download.rawPayload.subarray(0, 100))).toBe(true);
    const tail = await t.app.inject({ method: 'GET', url, headers: { range: 'bytes=-10' } });
    expect(tail.statusCode).toBe(206);
    expect(tail.rawPayload.equals(download.rawPayload.subarray(-10))).toBe(true);
    const outside = await t.app.inject({ method: 'GET', url, headers: { range: 'bytes=999999999-' } });
    expect(outside.statusCode).toBe(416);
    expect(outside.headers['content-range']).toBe(`bytes */${download.rawPayload.length}`);

    // Tampered: 403. Expired (15 minutes): 410.
    const token = url.split('/').pop()!;
    const [payload, mac] = token.split('.');
    const forged = Buffer.from(
      Buffer.from(payload!, 'base64url').toString('utf8').replace('.NONE.', '.ANONYMIZED.'),
    ).toString('base64url');
    expect(forged).not.toBe(payload);
    const flipped = `${mac![0] === 'A' ? 'B' : 'A'}${mac!.slice(1)}`;
    for (const bad of [`${forged}.${mac}`, `${payload}.${flipped}`, 'garbage']) {
      const response = await t.app.inject({ method: 'GET', url: `/api/dicom-web/zip-v2/download/${bad}` });
      expect(response.statusCode, bad).toBe(403);
    }
    t.clock.advance(16 * 60);
    const expired = await t.app.inject({ method: 'GET', url });
    expect(expired.statusCode).toBe(410);
    expect(expired.json()).toMatchObject({ errorStatusCode: 410 });
  });

  it('makes the anonymised zip: every file parses and carries no patient name', async () => {
    const { reportStatusId, admin } = await createStudySetup();
    const client = await signIn(admin);
    const request = zipJob(reportStatusId, { zipAnonymizationTypeEnum: 'ALL' });
    expect((await runJob(client, request)).jobStatus).toBe('QUEUED');
    const progress = await waitForRun(client, reportStatusId);
    expect(progress).toMatchObject({ jobStatus: 'COMPLETED', completedJob: 4, patientName: '' });

    const url = await zipLink(client, reportStatusId, 'withName=true&zipAnonymizationTypeEnum=ALL');
    const download = await t.app.inject({ method: 'GET', url });
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-disposition']).toContain(`filename="${reportStatusId}.zip"`);
    const entries = await readZip(download.rawPayload);
    const dcm = [...entries.keys()].filter((n) => n.endsWith('.dcm'));
    expect(dcm).toHaveLength(4);
    for (const name of entries.keys()) expect(name).not.toContain('JANCT000');
    for (const name of dcm) {
      const bytes = entries.get(name)!;
      const parsed = parseInstance(new Uint8Array(bytes));
      expect(parsed.index.patientName ?? '').not.toContain('JANCT000');
      expect(bytes.includes('JANCT000')).toBe(false);
      expect(LIVER_SHA.has(sha256(bytes))).toBe(false);
    }
    // The original zip was never made, so there is no link to it.
    const original = await client.get(`/api/dicom-web/zip-v2/complete/studies/link/${reportStatusId}`);
    expect(original.statusCode).toBe(409);
  });

  it('records a failing run as FAILED, then answers FAILED_PREVIOUSLY for 30 minutes unless forced', async () => {
    const { reportStatusId, centerUser } = await createStudySetup({ files: [LIVER[0]!] });
    const client = await signIn(centerUser);
    const rows = await t.db
      .select({ blobKey: instances.blobKey })
      .from(instances)
      .innerJoin(reportStatuses, eq(reportStatuses.studyId, instances.studyId))
      .where(eq(reportStatuses.id, reportStatusId));
    const blobKey = rows[0]!.blobKey;
    const saved = await t.blobs.read(blobKey);
    await t.blobs.delete(blobKey);

    expect((await runJob(client, zipJob(reportStatusId))).jobStatus).toBe('QUEUED');
    const failed = await waitForRun(client, reportStatusId);
    expect(failed).toMatchObject({
      jobStatus: 'FAILED',
      error: 'A file of the study is missing from storage',
    });
    // The half-written zip is gone, and no zip was published.
    expect((await readdir(t.blobs.tempDir())).filter((f) => f.startsWith('zip-'))).toEqual([]);
    expect(await t.blobs.size(zipBlobKey(reportStatusId, 'NONE'))).toBeNull();
    expect(await runJob(client, zipJob(reportStatusId))).toEqual({
      jobStatus: 'FAILED_PREVIOUSLY',
      error: 'A file of the study is missing from storage',
    });

    await t.blobs.put(blobKey, saved);
    expect((await runJob(client, zipJob(reportStatusId, { forceTrigger: true }))).jobStatus).toBe('QUEUED');
    expect(await waitForRun(client, reportStatusId)).toMatchObject({
      jobStatus: 'COMPLETED',
      numberOfJob: 1,
    });

    // recreateZip runs again even though a zip exists.
    expect((await runJob(client, zipJob(reportStatusId, { recreateZip: true }))).jobStatus).toBe('QUEUED');
    expect((await waitForRun(client, reportStatusId)).jobStatus).toBe('COMPLETED');
  });

  it('lets a failure older than 30 minutes run again without forceTrigger', async () => {
    const { reportStatusId, centerUser } = await createStudySetup({ files: [LIVER[1]!] });
    const client = await signIn(centerUser);
    const [row] = await t.db
      .select({ blobKey: instances.blobKey })
      .from(instances)
      .innerJoin(reportStatuses, eq(reportStatuses.studyId, instances.studyId))
      .where(eq(reportStatuses.id, reportStatusId));
    const saved = await t.blobs.read(row!.blobKey);
    await t.blobs.delete(row!.blobKey);
    await runJob(client, zipJob(reportStatusId));
    expect((await waitForRun(client, reportStatusId)).jobStatus).toBe('FAILED');
    await t.blobs.put(row!.blobKey, saved);
    t.clock.advance(31 * 60);
    expect((await runJob(client, zipJob(reportStatusId))).jobStatus).toBe('QUEUED');
    expect((await waitForRun(client, reportStatusId)).jobStatus).toBe('COMPLETED');
  });
});

describe('who may run the job and get the link (spec-core §5, issue 3 §4)', () => {
  it('refuses a study that is not fully uploaded, with the spec message', async () => {
    const { reportStatusId, centerUser } = await createStudySetup({ files: [LIVER[2]!], uploaded: false });
    const client = await signIn(centerUser);
    for (const response of [
      await client.post('/api/batch/run', zipJob(reportStatusId)),
      await client.get(`/api/dicom-web/zip-v2/complete/studies/link/${reportStatusId}?withName=true`),
    ]) {
      expect(response.statusCode).toBe(409);
      expect(response.json().errorDescription).toBe(
        'Study is not uploaded yet so cannot be downladed. Please try after some time',
      );
    }
  });

  it('refuses a study past the backup duration, with the spec message', async () => {
    const { group, reportStatusId, centerUser } = await createStudySetup({ files: [LIVER[2]!] });
    await setGroupPreference(t.db, group.id, 'ADMIN_PREFERENCES', { durationOfBackupInMonth: 1 });
    const fortyDaysAgo = new Date(t.app.ctx.now().getTime() - 40 * 86_400_000 - 3_600_000);
    await t.db
      .update(reportStatuses)
      .set({ createdAt: fortyDaysAgo })
      .where(eq(reportStatuses.id, reportStatusId));
    const client = await signIn(centerUser);
    const response = await client.post('/api/batch/run', zipJob(reportStatusId));
    expect(response.statusCode).toBe(403);
    expect(response.json().errorDescription).toBe(
      'Backup duration of study (1 months) has passed by 10 days',
    );
  });

  it('refuses a center whose group disabled zip downloads for centers, but not the admin', async () => {
    const { group, reportStatusId, centerUser, admin } = await createStudySetup({ files: [LIVER[2]!] });
    await setGroupPreference(t.db, group.id, 'USER_ADMIN_VISIBLE_PREFERENCES', {
      disableZipDownloadingForCenter: true,
    });
    const center = await signIn(centerUser);
    const refused = await center.post('/api/batch/run', zipJob(reportStatusId));
    expect(refused.statusCode).toBe(403);
    expect(refused.json().errorDescription).toBe('Zip download is disabled for you');
    const adminClient = await signIn(admin);
    expect((await runJob(adminClient, zipJob(reportStatusId))).jobStatus).toBe('QUEUED');
    await waitForRun(adminClient, reportStatusId);
  });

  it('hides the study from a doctor of another group (404) and from another center (404)', async () => {
    const { reportStatusId, admin } = await createStudySetup({ files: [LIVER[2]!] });
    const adminClient = await signIn(admin);
    await runJob(adminClient, zipJob(reportStatusId));
    await waitForRun(adminClient, reportStatusId);

    const otherGroup = await createTestGroup(t.db);
    const doctor = await createTestUser(t.db, { roles: ['ROLE_DOCTOR'], groupId: otherGroup.id });
    const otherCenter = await createTestCenter(t.db, { groupId: admin.groupId });
    const centerUser = await createTestUser(t.db, {
      roles: ['ROLE_CENTER'],
      groupId: admin.groupId,
      centerId: otherCenter.id,
    });
    for (const user of [doctor, centerUser]) {
      const client = await signIn(user);
      expect((await client.post('/api/batch/run', zipJob(reportStatusId))).statusCode).toBe(404);
      expect((await client.get(`/api/batch/progress/${reportStatusId}`)).statusCode).toBe(404);
      expect(
        (await client.get(`/api/dicom-web/zip-v2/complete/studies/link/${reportStatusId}`)).statusCode,
      ).toBe(404);
    }
  });

  it('answers 400 for an unknown job name and 401 without a session', async () => {
    const { reportStatusId, admin } = await createStudySetup({ files: [LIVER[2]!] });
    const client = await signIn(admin);
    const unknown = await client.post('/api/batch/run', {
      ...zipJob(reportStatusId),
      jobName: 'FORMAT_DISK',
    });
    expect(unknown.statusCode).toBe(400);
    const anonymous = await t.app.inject({
      method: 'POST',
      url: '/api/batch/run',
      payload: zipJob(reportStatusId),
      headers: { 'x-device-id': 'anonymous-device', 'x-device-name': 'Test browser' },
    });
    expect(anonymous.statusCode).toBe(401);
  });
});
