import {
  JOB_POLL_INTERVAL_MS,
  JOB_POLL_MAX_TRIES,
  type TJobProgress,
  type TJobRequest,
  type TJobRunStatus,
} from '@radflow/core';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../api/client';
import { errorBody, fakeApi, type TRecordedRequest } from '../../test/fake-api';
import { isAbortError } from './abortable';
import { JOB_MESSAGES, jobDisplayName } from './job-messages';
import { JobError, JobRegistry, runJob, type TJobRunProgress } from './run-job';

const payload = (reportStatusId = 7, extra: Partial<TJobRequest> = {}): TJobRequest => ({
  jobName: 'ZIP_STUDY',
  studyId: '1.2.3',
  reportStatusId,
  ...extra,
});

const record = (jobStatus: TJobRunStatus, extra: Partial<TJobProgress> = {}): TJobProgress => ({
  jobName: 'ZIP_STUDY',
  jobStatus,
  error: null,
  numberOfJob: 1,
  completedJob: jobStatus === 'COMPLETED' ? 1 : 0,
  progress: 0,
  fileDownloadProgress: 0,
  patientName: 'DOE^JANE',
  ...extra,
});

/** Settles a promise into a value or the error, so a test can advance timers before looking. */
const settle = <T>(promise: Promise<T>) =>
  promise.then(
    (value) => ({ value, error: undefined }),
    (error: unknown) => ({ value: undefined, error }),
  );

const never = () => vi.fn(() => Promise.resolve(false));

describe('runJob (spec-core §4 Job run)', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('resolves at once when the server answers COMPLETED (a current zip exists)', async () => {
    const api = fakeApi({ 'POST /api/batch/run': { body: { jobStatus: 'COMPLETED', error: null } } });
    await expect(runJob(payload(), { confirm: never(), registry: new JobRegistry() })).resolves.toBe(
      'COMPLETED',
    );
    expect(api.calls('POST', '/api/batch/run')[0]?.json()).toEqual(payload());
    expect(api.calls('GET', '/api/batch/progress/7')).toHaveLength(0);
  });

  it(`polls every ${JOB_POLL_INTERVAL_MS} ms until COMPLETED, reporting the record's percent`, async () => {
    const answers = [
      record('RUNNING', { progress: 30 }),
      record('RUNNING', { progress: 80 }),
      record('COMPLETED', { progress: 100 }),
    ];
    const api = fakeApi({
      'POST /api/batch/run': { body: { jobStatus: 'QUEUED', error: null } },
      'GET /api/batch/progress/7': () => ({ body: answers.shift() }),
    });
    const seen: TJobRunProgress[] = [];
    const run = settle(
      runJob(payload(), { confirm: never(), registry: new JobRegistry(), onProgress: (p) => seen.push(p) }),
    );

    await vi.advanceTimersByTimeAsync(JOB_POLL_INTERVAL_MS - 1);
    expect(api.calls('GET', '/api/batch/progress/7')).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(api.calls('GET', '/api/batch/progress/7')).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(JOB_POLL_INTERVAL_MS * 2);

    expect(await run).toEqual({ value: 'COMPLETED', error: undefined });
    expect(api.calls('GET', '/api/batch/progress/7')).toHaveLength(3);
    expect(seen.map((p) => [p.jobStatus, p.percent, p.tries])).toEqual([
      ['QUEUED', null, 0],
      ['RUNNING', 30, 1],
      ['RUNNING', 80, 2],
      ['COMPLETED', 100, 3],
    ]);
    // The poll names the job it follows.
    expect(api.requests.at(-1)?.path).toBe('/api/batch/progress/7');
  });

  it("rejects 'Job failed {name} {error}' when the run fails, naming the patient of the progress record", async () => {
    fakeApi({
      'POST /api/batch/run': { body: { jobStatus: 'QUEUED', error: null } },
      'GET /api/batch/progress/7': { body: record('FAILED', { error: 'No space left on device' }) },
    });
    const run = settle(runJob(payload(), { confirm: never(), registry: new JobRegistry() }));
    await vi.advanceTimersByTimeAsync(JOB_POLL_INTERVAL_MS);
    const { error } = await run;
    expect(error).toBeInstanceOf(JobError);
    expect((error as JobError).message).toBe('Job failed JANE DOE (study 7) No space left on device');
    expect((error as JobError).kind).toBe('failed');
  });

  it('uses the name the caller gives, and leaves out an absent error', async () => {
    fakeApi({
      'POST /api/batch/run': { body: { jobStatus: 'RUNNING', error: null } },
      'GET /api/batch/progress/7': { body: record('FAILED') },
    });
    const run = settle(
      runJob(payload(), { confirm: never(), registry: new JobRegistry(), name: 'Chest CT' }),
    );
    await vi.advanceTimersByTimeAsync(JOB_POLL_INTERVAL_MS);
    expect(((await run).error as Error).message).toBe('Job failed Chest CT');
  });

  it(`rejects 'Job timeout {name}' after ${JOB_POLL_MAX_TRIES} polls without an end`, async () => {
    const api = fakeApi({
      'POST /api/batch/run': { body: { jobStatus: 'QUEUED', error: null } },
      'GET /api/batch/progress/7': { body: record('RUNNING', { patientName: '' }) },
    });
    const run = settle(runJob(payload(), { confirm: never(), registry: new JobRegistry() }));
    for (let i = 0; i < JOB_POLL_MAX_TRIES - 1; i++) await vi.advanceTimersByTimeAsync(JOB_POLL_INTERVAL_MS);
    expect(api.calls('GET', '/api/batch/progress/7')).toHaveLength(JOB_POLL_MAX_TRIES - 1);
    await vi.advanceTimersByTimeAsync(JOB_POLL_INTERVAL_MS);

    const { error } = await run;
    expect((error as Error).message).toBe('Job timeout study 7');
    expect(api.calls('GET', '/api/batch/progress/7')).toHaveLength(JOB_POLL_MAX_TRIES);
    // No 201st poll.
    await vi.advanceTimersByTimeAsync(JOB_POLL_INTERVAL_MS * 3);
    expect(api.calls('GET', '/api/batch/progress/7')).toHaveLength(JOB_POLL_MAX_TRIES);
  });

  it("refuses a second run of the same job for the same study: 'Job still running {name}'", async () => {
    let finish: (() => void) | undefined;
    const api = fakeApi({
      'POST /api/batch/run': (request: TRecordedRequest) =>
        request.json<TJobRequest>().reportStatusId === 7
          ? new Promise((resolve) => {
              finish = () => resolve({ body: { jobStatus: 'COMPLETED', error: null } });
            })
          : { body: { jobStatus: 'COMPLETED', error: null } },
    });
    const registry = new JobRegistry();
    const first = settle(runJob(payload(7), { confirm: never(), registry, name: 'Jane Doe (study 7)' }));

    const second = await settle(
      runJob(payload(7), { confirm: never(), registry, name: 'Jane Doe (study 7)' }),
    );
    expect((second.error as JobError).message).toBe('Job still running Jane Doe (study 7)');
    expect((second.error as JobError).kind).toBe('running');
    // Another study is not held up.
    await expect(runJob(payload(8), { confirm: never(), registry })).resolves.toBe('COMPLETED');
    expect(api.calls('POST', '/api/batch/run')).toHaveLength(2);

    await vi.waitFor(() => expect(finish).toBeDefined());
    finish?.();
    expect((await first).value).toBe('COMPLETED');
    // Once over, the job may run again.
    expect(registry.has(payload(7))).toBe(false);
  });

  it('releases the study after a failure too', async () => {
    fakeApi({ 'POST /api/batch/run': { status: 409, body: errorBody(409, 'Study is not uploaded yet') } });
    const registry = new JobRegistry();
    const { error } = await settle(runJob(payload(), { confirm: never(), registry }));
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).message).toBe('Study is not uploaded yet (code 409, ref txn-1)');
    expect(registry.has(payload())).toBe(false);
  });

  describe('FAILED_PREVIOUSLY', () => {
    const failedPreviously = { jobStatus: 'FAILED_PREVIOUSLY', error: 'Disk full' };

    it('asks with the spec text and the error; yes posts again with forceTrigger and follows the new run', async () => {
      const api = fakeApi({
        'POST /api/batch/run': (request: TRecordedRequest) => ({
          body: request.json<TJobRequest>().forceTrigger
            ? { jobStatus: 'QUEUED', error: null }
            : failedPreviously,
        }),
        'GET /api/batch/progress/7': { body: record('COMPLETED') },
      });
      const confirm = vi.fn(() => Promise.resolve(true));
      const run = settle(runJob(payload(), { confirm, registry: new JobRegistry(), name: 'Jane' }));
      await vi.advanceTimersByTimeAsync(JOB_POLL_INTERVAL_MS);

      expect((await run).value).toBe('COMPLETED');
      expect(confirm).toHaveBeenCalledWith({
        message:
          'This job has failed already less than 30 mins ago. Do you want to forcefully trigger it again?',
        error: 'Disk full',
        name: 'Jane',
      });
      const posts = api.calls('POST', '/api/batch/run').map((r) => r.json<TJobRequest>());
      expect(posts).toEqual([payload(), { ...payload(), forceTrigger: true }]);
    });

    it("no resolves 'DECLINED' and runs nothing", async () => {
      const api = fakeApi({ 'POST /api/batch/run': { body: failedPreviously } });
      const confirm = vi.fn(() => Promise.resolve(false));
      await expect(runJob(payload(), { confirm, registry: new JobRegistry() })).resolves.toBe('DECLINED');
      expect(confirm).toHaveBeenCalledTimes(1);
      expect(api.requests).toHaveLength(1);
    });

    it("a poll answering FAILED_PREVIOUSLY rejects 'Job failed {name} {error}'", async () => {
      // The progress route is missing here: the poll asks batch/run again, never forcing or recreating.
      const api = fakeApi({
        'POST /api/batch/run': (request: TRecordedRequest) => ({
          body:
            api.calls('POST', '/api/batch/run').length === 1
              ? { jobStatus: 'QUEUED', error: null }
              : {
                  jobStatus: request.json<TJobRequest>().forceTrigger ? 'QUEUED' : 'FAILED_PREVIOUSLY',
                  error: 'Bad file',
                },
        }),
      });
      const run = settle(
        runJob(payload(7, { recreateZip: true }), {
          confirm: never(),
          registry: new JobRegistry(),
          name: 'Jane',
        }),
      );
      await vi.advanceTimersByTimeAsync(JOB_POLL_INTERVAL_MS);
      expect(((await run).error as Error).message).toBe('Job failed Jane Bad file');
      expect(api.calls('POST', '/api/batch/run')[1]?.json()).toEqual({
        ...payload(),
        recreateZip: false,
        forceTrigger: false,
      });
    });
  });

  it('counts a poll without an answer as a try and goes on', async () => {
    const answers = [{ status: 503, body: errorBody(503, 'Unavailable') }, { body: record('COMPLETED') }];
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    fakeApi({
      'POST /api/batch/run': { body: { jobStatus: 'QUEUED', error: null } },
      'GET /api/batch/progress/7': () => answers.shift() ?? { body: record('COMPLETED') },
    });
    const run = settle(runJob(payload(), { confirm: never(), registry: new JobRegistry() }));
    await vi.advanceTimersByTimeAsync(JOB_POLL_INTERVAL_MS * 2);
    expect((await run).value).toBe('COMPLETED');
    expect(warn).toHaveBeenCalledTimes(1);
  });

  it('stops polling when aborted', async () => {
    const api = fakeApi({
      'POST /api/batch/run': { body: { jobStatus: 'QUEUED', error: null } },
      'GET /api/batch/progress/7': { body: record('RUNNING') },
    });
    const abort = new AbortController();
    const registry = new JobRegistry();
    const run = settle(runJob(payload(), { confirm: never(), registry, signal: abort.signal }));
    await vi.advanceTimersByTimeAsync(JOB_POLL_INTERVAL_MS);
    abort.abort();
    expect(isAbortError((await run).error)).toBe(true);
    await vi.advanceTimersByTimeAsync(JOB_POLL_INTERVAL_MS * 5);
    expect(api.calls('GET', '/api/batch/progress/7')).toHaveLength(1);
    expect(registry.has(payload())).toBe(false);
  });
});

describe('job texts (spec-core §8)', () => {
  it('reads word for word', () => {
    expect(JOB_MESSAGES.stillRunning('X')).toBe('Job still running X');
    expect(JOB_MESSAGES.failed('X', 'boom')).toBe('Job failed X boom');
    expect(JOB_MESSAGES.timeout('X')).toBe('Job timeout X');
  });

  it('names a job by patient and study, or the study alone', () => {
    expect(jobDisplayName('DOE^JANE^^', 42)).toBe('JANE DOE (study 42)');
    expect(jobDisplayName('', 42)).toBe('study 42');
    expect(jobDisplayName(null, 42)).toBe('study 42');
  });
});
