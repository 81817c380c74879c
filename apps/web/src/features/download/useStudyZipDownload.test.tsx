import type { TJobProgress, TJobRequest } from '@radflow/core';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { errorBody, fakeApi, type TFakeReply } from '../../test/fake-api';
import { buildUser } from '../../test/builders';
import { fakeXhr, type TXhrReply } from '../../test/fake-xhr';
import { renderScreen } from '../../test/render';
import { SESSION_QUERY_KEY } from '../auth/session';
import { useStudyZipDownload, type TStudyZipDownloadOptions } from './useStudyZipDownload';
import type { TZipStudy } from './zip-download';

const TOKEN_PATH = '/api/dicom-web/zip-v2/download/tok';
const linkAnswer: TFakeReply = {
  body: { data: { zipUrl: { downloadUrl: TOKEN_PATH, expiresAt: '2026-01-01T00:15:00.000Z' } } },
};
const status = (jobStatus: string, error: string | null = null): TFakeReply => ({
  body: { jobStatus, error },
});
const record = (extra: Partial<TJobProgress>): TFakeReply => ({
  body: {
    jobName: 'ZIP_STUDY',
    jobStatus: 'RUNNING',
    error: null,
    numberOfJob: 1,
    completedJob: 0,
    progress: 0,
    fileDownloadProgress: 0,
    patientName: 'Jane Doe',
    ...extra,
  },
});
const jane: TZipStudy = { id: 42, instanceId: '1.2.42', patientName: 'Jane Doe' };
const bob: TZipStudy = { id: 43, instanceId: '1.2.43', patientName: 'Bob Roe' };

function Harness({ rows, options }: { rows: TZipStudy[]; options?: TStudyZipDownloadOptions }) {
  const zip = useStudyZipDownload(options);
  return (
    <>
      <button type="button" onClick={() => void zip.start(rows)}>
        Download zip
      </button>
      {zip.dialog}
    </>
  );
}

/** The object URL and the click of the `<a download>` the browser would follow. */
function stubSaving() {
  const names: string[] = [];
  vi.stubGlobal(
    'URL',
    Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:zip'), revokeObjectURL: vi.fn() }),
  );
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    names.push(this.download);
  });
  return names;
}

const progressDialog = () =>
  screen.getByRole('dialog', { name: /Download study zip|Downloading \d+ studies/ });

describe('useStudyZipDownload and its DownloadProgressDialog', () => {
  beforeEach(() => {
    vi.useFakeTimers({ shouldAdvanceTime: true, toFake: ['setTimeout', 'clearTimeout'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('shows the preparation with the job percent, then the file percent, saves <id>_<random>.zip and closes', async () => {
    const polls = [record({ progress: 40 }), record({ jobStatus: 'COMPLETED', progress: 100 })];
    const api = fakeApi({
      'POST /api/batch/run': status('QUEUED'),
      'GET /api/batch/progress/42': () => polls.shift()!,
      'GET /api/dicom-web/zip-v2/complete/studies/link/42': linkAnswer,
    });
    let answer: ((reply: TXhrReply) => void) | undefined;
    fakeXhr(() => new Promise<TXhrReply>((resolve) => (answer = resolve)));
    const names = stubSaving();
    renderScreen(<Harness rows={[jane]} />);

    fireEvent.click(screen.getByRole('button', { name: 'Download zip' }));
    const dialog = await screen.findByRole('dialog', { name: 'Download study zip' });
    expect(within(dialog).getByText('Jane Doe (study 42)')).toBeTruthy();
    expect(within(dialog).getByText('Preparing images to download')).toBeTruthy();
    expect(within(dialog).queryByText(/%$/)).toBeNull();

    await vi.advanceTimersByTimeAsync(4_000);
    expect(await within(dialog).findByText('40%')).toBeTruthy();
    expect(within(dialog).getByText('Preparing images to download')).toBeTruthy();

    await vi.advanceTimersByTimeAsync(4_000);
    expect(await within(dialog).findByText('Downloading zip')).toBeTruthy();
    expect(within(dialog).getByText('0%')).toBeTruthy();
    await waitFor(() => expect(answer).toBeDefined());
    answer?.({ blob: new Blob([new Uint8Array(8)]), download: [[70, 100]] });

    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(names).toEqual([expect.stringMatching(/^42_\d+\.zip$/)]);
    expect(api.calls('POST', '/api/batch/run')).toHaveLength(1);
  });

  it("shows 'Job failed {name} {error}' in the dialog and the snackbar, and closes on Close", async () => {
    fakeApi({
      'POST /api/batch/run': status('QUEUED'),
      'GET /api/batch/progress/42': record({ jobStatus: 'FAILED', error: 'Disk full' }),
    });
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    renderScreen(<Harness rows={[jane]} />);
    fireEvent.click(screen.getByRole('button', { name: 'Download zip' }));
    await screen.findByRole('dialog', { name: 'Download study zip' });
    await vi.advanceTimersByTimeAsync(4_000);

    const text = 'Job failed Jane Doe (study 42) Disk full';
    await waitFor(() => expect(screen.getAllByText(text)).toHaveLength(2));
    const dialog = progressDialog();
    expect(within(dialog).getByText(text)).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Download study zip' })).toBeNull());
  });

  it('asks before force-triggering a job that failed less than 30 minutes ago, with the error', async () => {
    const api = fakeApi({
      'POST /api/batch/run': (request) =>
        request.json<TJobRequest>().forceTrigger
          ? status('COMPLETED')
          : status('FAILED_PREVIOUSLY', 'Out of memory'),
      'GET /api/dicom-web/zip-v2/complete/studies/link/42': linkAnswer,
    });
    fakeXhr(() => ({ blob: new Blob([new Uint8Array(8)]) }));
    const names = stubSaving();
    renderScreen(<Harness rows={[jane]} />);
    fireEvent.click(screen.getByRole('button', { name: 'Download zip' }));

    const confirm = await screen.findByRole('dialog', { name: 'Job failed previously' });
    expect(
      within(confirm).getByText(
        'This job has failed already less than 30 mins ago. Do you want to forcefully trigger it again?',
      ),
    ).toBeTruthy();
    expect(within(confirm).getByText('Out of memory')).toBeTruthy();
    fireEvent.click(within(confirm).getByRole('button', { name: 'Confirm' }));

    await waitFor(() => expect(names).toHaveLength(1));
    expect(
      api.calls('POST', '/api/batch/run').map((r) => r.json<TJobRequest>().forceTrigger ?? false),
    ).toEqual([false, true]);
  });

  it('does nothing more when the force-trigger is cancelled', async () => {
    const api = fakeApi({ 'POST /api/batch/run': status('FAILED_PREVIOUSLY', 'Out of memory') });
    renderScreen(<Harness rows={[jane]} />);
    fireEvent.click(screen.getByRole('button', { name: 'Download zip' }));
    const confirm = await screen.findByRole('dialog', { name: 'Job failed previously' });
    fireEvent.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(api.requests).toHaveLength(1);
  });

  it("downloads several with a pause, shows the server's refusal of one and goes on", async () => {
    const refusal = 'Study is not uploaded yet so cannot be downladed. Please try after some time';
    fakeApi({
      'POST /api/batch/run': (request) =>
        request.json<TJobRequest>().reportStatusId === 42
          ? { status: 409, body: errorBody(409, refusal) }
          : status('COMPLETED'),
      'GET /api/dicom-web/zip-v2/complete/studies/link/43': linkAnswer,
    });
    fakeXhr(() => ({ blob: new Blob([new Uint8Array(8)]) }));
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const names = stubSaving();
    renderScreen(<Harness rows={[jane, bob]} />);
    fireEvent.click(screen.getByRole('button', { name: 'Download zip' }));

    const dialog = await screen.findByRole('dialog', { name: 'Downloading 2 studies' });
    expect(await within(dialog).findByText('The next download starts in a moment')).toBeTruthy();
    const message = `${refusal} (code 409, ref txn-1)`;
    // In the dialog's list and in the error snackbar.
    expect(within(dialog).getByText(message)).toBeTruthy();
    expect(screen.getAllByText(message)).toHaveLength(2);
    expect(within(dialog).getByText('Study 2 of 2: Bob Roe (study 43)')).toBeTruthy();
    await vi.advanceTimersByTimeAsync(2_000);
    expect(await within(dialog).findByText('1 of 2 downloaded')).toBeTruthy();
    expect(within(dialog).getByText(message)).toBeTruthy();
    expect(names).toEqual([expect.stringMatching(/^43_\d+\.zip$/)]);
  });

  it("says 'Failed to download {name}' with the reason when the file fails", async () => {
    fakeApi({
      'POST /api/batch/run': status('COMPLETED'),
      'GET /api/dicom-web/zip-v2/complete/studies/link/42': linkAnswer,
    });
    fakeXhr(() => ({
      status: 410,
      body: errorBody(410, 'This download link has expired; please request a new one'),
    }));
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    renderScreen(<Harness rows={[jane]} />);
    fireEvent.click(screen.getByRole('button', { name: 'Download zip' }));

    const dialog = await screen.findByRole('dialog', { name: 'Download study zip' });
    expect(await within(dialog).findByText('Failed to download Jane Doe (study 42)')).toBeTruthy();
    expect(
      within(dialog).getByText(
        'This download link has expired; please request a new one (code 410, ref txn-1)',
      ),
    ).toBeTruthy();
  });

  it('cancels a running download', async () => {
    fakeApi({
      'POST /api/batch/run': status('COMPLETED'),
      'GET /api/dicom-web/zip-v2/complete/studies/link/42': linkAnswer,
    });
    const xhr = fakeXhr(() => 'hang');
    renderScreen(<Harness rows={[jane]} />);
    fireEvent.click(screen.getByRole('button', { name: 'Download zip' }));
    const dialog = await screen.findByRole('dialog', { name: 'Download study zip' });
    await waitFor(() => expect(xhr.requests).toHaveLength(1));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(await within(dialog).findByText('The download was cancelled.')).toBeTruthy();
    expect(xhr.aborted).toBe(1);
  });

  it("fetches the file through the signed-in user's proxyUrl", async () => {
    fakeApi({
      'POST /api/batch/run': status('COMPLETED'),
      'GET /api/dicom-web/zip-v2/complete/studies/link/42': linkAnswer,
    });
    const xhr = fakeXhr(() => 'hang');
    const { queryClient } = renderScreen(<Harness rows={[jane]} />);
    queryClient.setQueryData(SESSION_QUERY_KEY, {
      user: buildUser(['ROLE_CENTER'], { proxyUrl: 'https://proxy.example' }),
    });
    fireEvent.click(screen.getByRole('button', { name: 'Download zip' }));
    await waitFor(() => expect(xhr.requests).toHaveLength(1));
    expect(xhr.requests[0]?.url).toBe(`https://proxy.example${TOKEN_PATH}`);
  });
});
