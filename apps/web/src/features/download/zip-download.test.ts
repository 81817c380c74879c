import type { TJobRequest } from '@radflow/core';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../api/client';
import { errorBody, fakeApi, type TFakeReply } from '../../test/fake-api';
import { fakeXhr } from '../../test/fake-xhr';
import { JobError, JobRegistry } from '../jobs/run-job';
import {
  BETWEEN_DOWNLOADS_MS,
  DownloadError,
  OBJECT_URL_LIFETIME_MS,
  downloadManyZips,
  downloadPercent,
  downloadStudyZip,
  saveBlob,
  withProxy,
  zipFileName,
  type TZipPhase,
  type TZipStudy,
} from './zip-download';

const TOKEN_PATH = '/api/dicom-web/zip-v2/download/tok';
const linkPath = (id: number) => `/api/dicom-web/zip-v2/complete/studies/link/${id}`;
const linkAnswer: TFakeReply = {
  body: { data: { zipUrl: { downloadUrl: TOKEN_PATH, expiresAt: '2026-01-01T00:15:00.000Z' } } },
};
const completed: TFakeReply = { body: { jobStatus: 'COMPLETED', error: null } };
const zipBytes = () => new Blob([new Uint8Array(100)], { type: 'application/zip' });

const study = (id = 42, patientName: string | null = 'Jane Doe'): TZipStudy => ({
  id,
  instanceId: `1.2.${id}`,
  patientName,
});

/** A zip download's options with a fresh registry, no confirm, and a save that records. */
function setup() {
  const saved: { blob: Blob; fileName: string }[] = [];
  return {
    saved,
    options: {
      confirm: vi.fn(() => Promise.resolve(false)),
      registry: new JobRegistry(),
      save: (blob: Blob, fileName: string) => saved.push({ blob, fileName }),
    },
  };
}

describe('zip download helpers', () => {
  it('gives whole percents, never above 100, null when the size is unknown', () => {
    expect(downloadPercent(0, 200)).toBe(0);
    expect(downloadPercent(99, 200)).toBe(49);
    expect(downloadPercent(200, 200)).toBe(100);
    expect(downloadPercent(250, 200)).toBe(100);
    expect(downloadPercent(10, 0)).toBeNull();
    expect(downloadPercent(10, null)).toBeNull();
  });

  it('names the file <study id>_<random number>.zip', () => {
    expect(zipFileName(42, () => 0.123456789)).toBe('42_123456.zip');
    expect(zipFileName(42)).toMatch(/^42_\d{1,6}\.zip$/);
  });

  it("prefixes the link with the user's proxyUrl when set", () => {
    expect(withProxy(TOKEN_PATH, null)).toBe(TOKEN_PATH);
    expect(withProxy(TOKEN_PATH, '  ')).toBe(TOKEN_PATH);
    expect(withProxy(TOKEN_PATH, 'https://proxy.example/')).toBe(`https://proxy.example${TOKEN_PATH}`);
    expect(withProxy(TOKEN_PATH, 'https://proxy.example/radflow')).toBe(
      `https://proxy.example/radflow${TOKEN_PATH}`,
    );
    expect(withProxy('https://radflow.example/x.zip', 'https://proxy.example/?url=')).toBe(
      'https://proxy.example/?url=https://radflow.example/x.zip',
    );
  });

  it('saves through an <a download> on an object URL and revokes the URL afterwards', () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const create = vi.fn(() => 'blob:zip-1');
      const revoke = vi.fn();
      vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: create, revokeObjectURL: revoke }));
      const clicked: { href: string; download: string; attached: boolean }[] = [];
      vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
        clicked.push({ href: this.href, download: this.download, attached: document.body.contains(this) });
      });
      const blob = zipBytes();
      saveBlob(blob, '42_7.zip');

      expect(create).toHaveBeenCalledWith(blob);
      expect(clicked).toEqual([{ href: 'blob:zip-1', download: '42_7.zip', attached: true }]);
      expect(document.querySelector('a[download]')).toBeNull();
      expect(revoke).not.toHaveBeenCalled();
      vi.advanceTimersByTime(OBJECT_URL_LIFETIME_MS);
      expect(revoke).toHaveBeenCalledWith('blob:zip-1');
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('downloadStudyZip (spec-core §4 Zip download)', () => {
  it('runs the ZIP_STUDY job, gets the link and saves the file with percent progress capped at 100', async () => {
    const api = fakeApi({ 'POST /api/batch/run': completed, [`GET ${linkPath(42)}`]: linkAnswer });
    const blob = zipBytes();
    const xhr = fakeXhr(() => ({
      blob,
      download: [
        [25, 100],
        [60, 100],
        [130, 100],
      ],
    }));
    const { saved, options } = setup();
    const phases: TZipPhase[] = [];

    const result = await downloadStudyZip(study(), { ...options, onPhase: (p) => phases.push(p) });

    expect(result).toEqual({ kind: 'saved', fileName: expect.stringMatching(/^42_\d+\.zip$/) as string });
    expect(saved).toEqual([{ blob, fileName: (result as { fileName: string }).fileName }]);
    expect(api.calls('POST', '/api/batch/run')[0]?.json<TJobRequest>()).toEqual({
      jobName: 'ZIP_STUDY',
      studyId: '1.2.42',
      reportStatusId: 42,
      zipAnonymizationTypeEnum: null,
      recreateZip: false,
    });
    expect(api.calls('GET', linkPath(42))).toHaveLength(1);
    expect(xhr.requests.map((r) => [r.method, r.url, r.responseType])).toEqual([['GET', TOKEN_PATH, 'blob']]);
    // Same origin: the device headers go along (spec-core §7).
    expect(Object.keys(xhr.requests[0]!.headers)).toEqual(expect.arrayContaining(['X-Device-Id']));
    const percents = phases.filter((p) => p.step === 'downloading').map((p) => p.percent);
    expect(percents).toEqual([0, 25, 60, 100, 100]);
    expect(Math.max(...percents.map(Number))).toBe(100);
    expect(phases[0]).toEqual({ step: 'preparing', percent: null, job: null });
  });

  it('asks for the link with withName=true', async () => {
    const seen: string[] = [];
    const fetchSpy = vi.fn((input: RequestInfo | URL) => {
      seen.push(String(input));
      return Promise.resolve(
        new Response(JSON.stringify(String(input).includes('/link/') ? linkAnswer.body : completed.body), {
          headers: { 'Content-Type': 'application/json' },
        }),
      );
    });
    vi.stubGlobal('fetch', fetchSpy);
    fakeXhr(() => ({ blob: zipBytes() }));
    await downloadStudyZip(study(), setup().options);
    expect(seen).toContain(`${linkPath(42)}?withName=true`);
  });

  it("goes through the user's proxy when set, without the device headers", async () => {
    fakeApi({ 'POST /api/batch/run': completed, [`GET ${linkPath(42)}`]: linkAnswer });
    const xhr = fakeXhr(() => ({ blob: zipBytes() }));
    await downloadStudyZip(study(), { ...setup().options, proxyUrl: 'https://proxy.example/' });
    expect(xhr.requests[0]?.url).toBe(`https://proxy.example${TOKEN_PATH}`);
    expect(xhr.requests[0]?.headers).toEqual({});
  });

  it("says 'Failed to download {name}' with the server's reason when the file cannot be fetched", async () => {
    fakeApi({ 'POST /api/batch/run': completed, [`GET ${linkPath(42)}`]: linkAnswer });
    fakeXhr(() => ({
      status: 410,
      body: errorBody(410, 'This download link has expired; please request a new one'),
    }));
    const { saved, options } = setup();
    const error = await downloadStudyZip(study(), options).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DownloadError);
    expect((error as DownloadError).message).toBe('Failed to download Jane Doe (study 42)');
    expect((error as DownloadError).reason).toBe(
      'This download link has expired; please request a new one (code 410, ref txn-1)',
    );
    expect(saved).toHaveLength(0);
  });

  it("says 'Failed to download {name}' when the link is refused or the network drops", async () => {
    fakeApi({
      'POST /api/batch/run': completed,
      [`GET ${linkPath(42)}`]: {
        status: 409,
        body: errorBody(409, 'The zip of this study is not ready yet'),
      },
    });
    const refused = await downloadStudyZip(study(), setup().options).catch((e: unknown) => e);
    expect((refused as Error).message).toBe('Failed to download Jane Doe (study 42)');
    expect((refused as DownloadError).reason).toBe(
      'The zip of this study is not ready yet (code 409, ref txn-1)',
    );

    fakeApi({ 'POST /api/batch/run': completed, [`GET ${linkPath(42)}`]: linkAnswer });
    fakeXhr(() => 'network-error');
    const dropped = await downloadStudyZip(study(42, null), setup().options).catch((e: unknown) => e);
    expect((dropped as Error).message).toBe('Failed to download study 42');
  });

  it("shows the server's refusal of the job as it is (spec-core §5)", async () => {
    const text = 'Backup duration of study (3 months) has passed by 12 days';
    fakeApi({ 'POST /api/batch/run': { status: 403, body: errorBody(403, text) } });
    // A 403 with a message on a public path is a message, not a "log in again".
    window.history.replaceState(null, '', '/share');
    const error = await downloadStudyZip(study(), setup().options).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).message).toBe(`${text} (code 403, ref txn-1)`);
  });

  it('resolves declined when the user does not force a previously failed job', async () => {
    const api = fakeApi({ 'POST /api/batch/run': { body: { jobStatus: 'FAILED_PREVIOUSLY', error: 'x' } } });
    const xhr = fakeXhr(() => ({ blob: zipBytes() }));
    await expect(downloadStudyZip(study(), setup().options)).resolves.toEqual({ kind: 'declined' });
    expect(api.requests).toHaveLength(1);
    expect(xhr.requests).toHaveLength(0);
  });

  it('aborts the file transfer', async () => {
    fakeApi({ 'POST /api/batch/run': completed, [`GET ${linkPath(42)}`]: linkAnswer });
    const xhr = fakeXhr(() => 'hang');
    const abort = new AbortController();
    const run = downloadStudyZip(study(), { ...setup().options, signal: abort.signal }).catch(
      (e: unknown) => e,
    );
    await vi.waitFor(() => expect(xhr.requests).toHaveLength(1));
    abort.abort();
    expect(((await run) as DOMException).name).toBe('AbortError');
    expect(xhr.aborted).toBe(1);
  });
});

describe('downloadManyZips', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it(`downloads one after another with ${BETWEEN_DOWNLOADS_MS} ms between, and goes on after a failure`, async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const postedAt: [number, number][] = [];
    const api = fakeApi({
      'POST /api/batch/run': (request) => {
        const { reportStatusId } = request.json<TJobRequest>();
        postedAt.push([Number(reportStatusId), Date.now()]);
        return reportStatusId === 2 ? { body: { jobStatus: 'QUEUED', error: null } } : completed;
      },
      'GET /api/batch/progress/2': {
        body: {
          jobName: 'ZIP_STUDY',
          jobStatus: 'FAILED',
          error: 'Disk full',
          numberOfJob: 1,
          completedJob: 0,
          progress: 10,
          fileDownloadProgress: 0,
          patientName: 'B',
        },
      },
      [`GET ${linkPath(1)}`]: linkAnswer,
      [`GET ${linkPath(3)}`]: linkAnswer,
    });
    fakeXhr(() => ({ blob: zipBytes() }));
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const { saved, options } = setup();
    const events: [string, number, number][] = [];

    let finished = false;
    const run = downloadManyZips([study(1, 'A'), study(2, 'B'), study(3, 'C')], {
      ...options,
      onStudyDone: (s) => events.push(['saved', s.id, Date.now()]),
      onStudyFailed: (s) => events.push(['failed', s.id, Date.now()]),
    }).finally(() => {
      finished = true;
    });
    for (let i = 0; i < 100 && !finished; i++) await vi.advanceTimersByTimeAsync(250);
    const outcome = await run;

    expect(api.calls('POST', '/api/batch/run')).toHaveLength(3);
    expect(events.map(([kind, id]) => [kind, id])).toEqual([
      ['saved', 1],
      ['failed', 2],
      ['saved', 3],
    ]);
    // Each study starts 2 s after the previous one ended, whether it was saved or failed.
    expect(postedAt[1]![1] - events[0]![2]).toBe(BETWEEN_DOWNLOADS_MS);
    expect(postedAt[2]![1] - events[1]![2]).toBe(BETWEEN_DOWNLOADS_MS);
    // Study 2's job failed on its first poll, 4 s after it was posted.
    expect(events[1]![2] - postedAt[1]![1]).toBe(4_000);

    expect(outcome.saved.map((s) => s.study.id)).toEqual([1, 3]);
    expect(saved.map((s) => s.fileName)).toEqual([
      expect.stringMatching(/^1_\d+\.zip$/),
      expect.stringMatching(/^3_\d+\.zip$/),
    ]);
    expect(outcome.failed).toHaveLength(1);
    const error = outcome.failed[0]?.error;
    expect(error).toBeInstanceOf(JobError);
    expect((error as Error).message).toBe('Job failed B (study 2) Disk full');
    expect(logged).toHaveBeenCalledWith('Zip download of study 2 failed', error);
  });

  it('stops the loop when cancelled during the wait', async () => {
    const api = fakeApi({ 'POST /api/batch/run': completed, [`GET ${linkPath(1)}`]: linkAnswer });
    fakeXhr(() => ({ blob: zipBytes() }));
    const abort = new AbortController();
    const paused: number[] = [];
    const run = downloadManyZips([study(1), study(2)], {
      ...setup().options,
      signal: abort.signal,
      onPause: (i) => paused.push(i),
    }).catch((e: unknown) => e);
    await vi.waitFor(() => expect(paused).toEqual([1]));
    abort.abort();
    expect(((await run) as DOMException).name).toBe('AbortError');
    await vi.advanceTimersByTimeAsync(BETWEEN_DOWNLOADS_MS);
    expect(api.calls('POST', '/api/batch/run')).toHaveLength(1);
  });
});
