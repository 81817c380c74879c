import { MESSAGES, RETRY_DELAY_MS, RETRY_TRIES } from '@radflow/core';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { errorBody, fakeApi } from '../../test/fake-api';
import { buildFile, fakeXhr, uploadAnswer } from '../../test/fake-xhr';
import { renderScreen } from '../../test/render';
import { UploadStudyDialog } from './UploadStudyDialog';

function renderDialog(reportStatusId = 9) {
  fakeApi({});
  const onClose = vi.fn();
  const view = renderScreen(<UploadStudyDialog open reportStatusId={reportStatusId} onClose={onClose} />);
  const dialog = screen.getByRole('dialog', { name: 'Upload images' });
  return { ...view, dialog, onClose };
}

const pick = (dialog: HTMLElement, label: string, files: File[]) =>
  fireEvent.change(within(dialog).getByLabelText(label), { target: { files } });

describe('UploadStudyDialog', () => {
  it("adds the images to the study, says 'Image attached' and refreshes the lists", async () => {
    const xhr = fakeXhr((request) => ({ body: uploadAnswer(request, { reportStatusId: 9 }) }));
    const { dialog, onClose, queryClient } = renderDialog();
    queryClient.setQueryData(['studies', 'studyList'], []);
    expect(within(dialog).getByRole('button', { name: 'Upload' }).hasAttribute('disabled')).toBe(true);

    const picked = buildFile('a.dcm', 1024);
    pick(dialog, 'Files', [picked]);
    // Picking the same file again adds it once.
    pick(dialog, '.zip', [buildFile('series.zip', 2048), picked]);
    expect(within(dialog).getByText('2 files selected, 3 KB')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Upload' }));

    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(xhr.requests[0]?.field('reportStatusId')).toBe('9');
    expect(xhr.requests[0]?.files().map((f) => f.name)).toEqual(['a.dcm', 'series.zip']);
    expect(screen.getByText('Image attached')).toBeTruthy();
    expect(queryClient.getQueryState(['studies', 'studyList'])?.isInvalidated).toBe(true);
  });

  it(`tries ${RETRY_TRIES} times, then shows the failure and offers to try again`, async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      const xhr = fakeXhr(() => 'network-error');
      const { dialog, onClose } = renderDialog();
      pick(dialog, 'Files', [buildFile('a.dcm')]);
      fireEvent.click(within(dialog).getByRole('button', { name: 'Upload' }));
      expect(await within(dialog).findByText(/trying again \(2 of 3\)/)).toBeTruthy();
      await vi.advanceTimersByTimeAsync(RETRY_DELAY_MS * RETRY_TRIES);
      expect(
        await within(dialog).findByText(
          'The upload stopped: The server could not be reached. Please try again.',
        ),
      ).toBeTruthy();
      expect(xhr.requests).toHaveLength(RETRY_TRIES);
      expect(within(dialog).getByText('file uploaded 0 out of 1')).toBeTruthy();
      expect(within(dialog).getByRole('button', { name: 'Try again' })).toBeTruthy();
      expect(onClose).not.toHaveBeenCalled();
    } finally {
      vi.useRealTimers();
    }
  });

  it('cancels a running upload and cannot be closed meanwhile', async () => {
    const xhr = fakeXhr(() => 'hang');
    const { dialog, onClose } = renderDialog();
    pick(dialog, 'Files', [buildFile('a.dcm')]);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Upload' }));
    await waitFor(() => expect(xhr.requests).toHaveLength(1));
    fireEvent.keyDown(dialog, { key: 'Escape' });
    expect(onClose).not.toHaveBeenCalled();

    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel upload' }));
    expect(await within(dialog).findByText('The upload was cancelled.')).toBeTruthy();
    expect(xhr.aborted).toBe(1);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Close' }));
    expect(onClose).toHaveBeenCalled();
  });

  it('asks to log in again on a 403, like every other call', async () => {
    const xhr = fakeXhr(() => ({ status: 403, body: errorBody(403, 'Forbidden') }));
    const { dialog } = renderDialog();
    pick(dialog, 'Files', [buildFile('a.dcm')]);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Upload' }));
    expect(await within(dialog).findByText('The upload stopped: The upload was refused.')).toBeTruthy();
    const alerts = screen.getAllByRole('alert').map((a) => a.textContent);
    expect(alerts).toContain(MESSAGES.pleaseLoginAgain);
    expect(xhr.requests).toHaveLength(1);
  });
});
