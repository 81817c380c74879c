import { RETRY_DELAY_MS, RETRY_TRIES } from '@radflow/core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../api/client';
import { errorBody } from '../../test/fake-api';
import { buildFile, fakeXhr, uploadAnswer } from '../../test/fake-xhr';
import { uploadFiles, type TUploadProgress } from './upload-files';
import { uploadedText } from './upload-batches';

const files = (n: number, size = 100) => Array.from({ length: n }, (_, i) => buildFile(`im${i}.dcm`, size));

afterEach(() => {
  vi.useRealTimers();
});

describe('uploadFiles', () => {
  it('sends the files in batches to the study, with the device headers', async () => {
    const xhr = fakeXhr((request) => ({ body: uploadAnswer(request, { reportStatusId: 7 }) }));
    const outcome = await uploadFiles({ files: files(45), reportStatusId: 7 });

    expect(xhr.requests.map((r) => r.files().length)).toEqual([20, 20, 5]);
    for (const request of xhr.requests) {
      expect(request.method).toBe('POST');
      expect(request.path).toBe('/api/dicom-web/upload');
      expect(request.field('reportStatusId')).toBe('7');
      expect(request.field('centerId')).toBeNull();
      expect(request.headers['X-Device-Id']).toMatch(/^[0-9a-f-]{36}$/);
      expect(request.headers['X-Device-Name']).toMatch(/ on /);
    }
    expect(xhr.requests[2]?.files().map((f) => f.name)).toEqual(
      files(45)
        .slice(40)
        .map((f) => f.name),
    );
    expect(outcome).toMatchObject({
      filesTotal: 45,
      stored: 45,
      failed: 0,
      refused: [],
      reportStatusIds: [7],
    });
  });

  it('names the center for new studies of a group user', async () => {
    const xhr = fakeXhr((request) => ({ body: uploadAnswer(request) }));
    await uploadFiles({ files: files(1), centerId: 3 });
    expect(xhr.requests[0]?.field('centerId')).toBe('3');
    expect(xhr.requests[0]?.field('reportStatusId')).toBeNull();
  });

  it("reports byte percent (never above 100) and 'file uploaded N out of M'", async () => {
    // Two batches of 20 files of 100 bytes; the multipart body is larger than the files.
    fakeXhr((request) => ({
      body: uploadAnswer(request),
      progress: [
        [1000, 4000],
        [4000, 4000],
        [4500, 4000],
      ],
    }));
    const seen: TUploadProgress[] = [];
    await uploadFiles({ files: files(40), onProgress: (p) => seen.push(p) });

    expect(seen.map((p) => p.percent)).toEqual([0, 12, 50, 50, 50, 62, 100, 100, 100]);
    expect(seen.every((p) => p.percent <= 100)).toBe(true);
    // Sent whole, the server still storing: said, so 100% with no file done yet reads right.
    expect(seen.map((p) => p.awaitingServer === true)).toEqual([
      false,
      false,
      true,
      true,
      false,
      false,
      true,
      true,
      false,
    ]);
    expect(seen.map((p) => uploadedText(p.filesDone, p.filesTotal))).toEqual([
      ...Array<string>(4).fill('file uploaded 0 out of 40'),
      ...Array<string>(4).fill('file uploaded 20 out of 40'),
      'file uploaded 40 out of 40',
    ]);
  });

  it('lists refused files with their reasons', async () => {
    fakeXhr((request) => ({ body: uploadAnswer(request, { refuse: { 'notes.txt': 'not a DICOM file' } }) }));
    const outcome = await uploadFiles({ files: [buildFile('a.dcm'), buildFile('notes.txt')] });
    expect(outcome.stored).toBe(1);
    expect(outcome.refused.map((r) => [r.fileName, r.reason])).toEqual([['notes.txt', 'not a DICOM file']]);
  });

  it('tries a failed batch again after 1000 ms and goes on', async () => {
    vi.useFakeTimers();
    const xhr = fakeXhr((request, index) =>
      index === 0 ? 'network-error' : { body: uploadAnswer(request) },
    );
    const retries: number[] = [];
    const done = uploadFiles({
      files: files(2),
      onProgress: (p) => p.retryingTry !== undefined && retries.push(p.retryingTry),
    });
    await vi.advanceTimersByTimeAsync(RETRY_DELAY_MS - 1);
    expect(xhr.requests).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    await expect(done).resolves.toMatchObject({ stored: 2 });
    expect(xhr.requests).toHaveLength(2);
    expect(retries).toEqual([2]);
  });

  it(`gives up after ${RETRY_TRIES} tries with the server's message`, async () => {
    vi.useFakeTimers();
    const xhr = fakeXhr(() => ({ status: 503, body: errorBody(503, 'Storage unavailable', 's1') }));
    const done = uploadFiles({ files: files(3) });
    const failure = expect(done).rejects.toThrow('Storage unavailable (code 503, ref s1)');
    await vi.advanceTimersByTimeAsync(RETRY_DELAY_MS * RETRY_TRIES);
    await failure;
    expect(xhr.requests).toHaveLength(RETRY_TRIES);
  });

  it('does not repeat a request the server refused (413 over the limits)', async () => {
    const xhr = fakeXhr(() => ({ status: 413, body: errorBody(413, 'Too many files in one request') }));
    const error = await uploadFiles({ files: files(1) }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(413);
    expect(xhr.requests).toHaveLength(1);
  });

  it('stops when cancelled', async () => {
    const xhr = fakeXhr(() => 'hang');
    const controller = new AbortController();
    const done = uploadFiles({ files: files(30), signal: controller.signal });
    await vi.waitFor(() => expect(xhr.requests).toHaveLength(1));
    controller.abort();
    await expect(done).rejects.toMatchObject({ name: 'AbortError' });
    expect(xhr.aborted).toBe(1);
    expect(xhr.requests).toHaveLength(1);
  });
});
