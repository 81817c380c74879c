import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiError, NETWORK_ERROR_MESSAGE, reportFailure } from '../../api/client';
import { uploadFiles, type TUploadOptions, type TUploadOutcome, type TUploadProgress } from './upload-files';
import { isAbortError } from './xhr-post';

export type TUploadState =
  | { phase: 'idle' }
  | { phase: 'uploading'; progress: TUploadProgress }
  | { phase: 'done'; progress: TUploadProgress; outcome: TUploadOutcome }
  | { phase: 'failed'; progress: TUploadProgress; message: string }
  | { phase: 'cancelled'; progress: TUploadProgress };

export type TUploadTarget = Pick<TUploadOptions, 'centerId' | 'reportStatusId'>;

const startProgress = (files: readonly File[]): TUploadProgress => ({
  filesDone: 0,
  filesTotal: files.length,
  bytesSent: 0,
  bytesTotal: files.reduce((s, f) => s + f.size, 0),
  percent: 0,
});

/**
 * One browser upload at a time with its progress, for a dialog: `start` resolves with the outcome, or
 * null when the upload failed or was cancelled (the state then says which). Leaving the dialog
 * aborts a running upload.
 */
export function useUpload() {
  const [state, setState] = useState<TUploadState>({ phase: 'idle' });
  const controller = useRef<AbortController | null>(null);

  useEffect(() => () => controller.current?.abort(), []);

  const start = useCallback(async (files: readonly File[], target: TUploadTarget) => {
    controller.current?.abort();
    const abort = new AbortController();
    controller.current = abort;
    let progress = startProgress(files);
    setState({ phase: 'uploading', progress });
    try {
      const outcome = await uploadFiles({
        files,
        ...target,
        signal: abort.signal,
        onProgress: (next) => {
          progress = next;
          if (!abort.signal.aborted) setState({ phase: 'uploading', progress: next });
        },
      });
      setState({ phase: 'done', progress, outcome });
      return outcome;
    } catch (error) {
      if (isAbortError(error)) {
        setState({ phase: 'cancelled', progress });
        return null;
      }
      // Session trouble (403, 401) is the app's to handle: log in again, device approval.
      if (error instanceof ApiError && error.failure.kind !== 'message') reportFailure(error);
      const message =
        error instanceof ApiError && error.failure.kind === 'message'
          ? error.failure.text
          : error instanceof ApiError
            ? 'The upload was refused.'
            : NETWORK_ERROR_MESSAGE;
      if (!(error instanceof ApiError)) console.error('Upload failed', error);
      setState({ phase: 'failed', progress, message });
      return null;
    } finally {
      if (controller.current === abort) controller.current = null;
    }
  }, []);

  const cancel = useCallback(() => controller.current?.abort(), []);
  const reset = useCallback(() => {
    controller.current?.abort();
    setState({ phase: 'idle' });
  }, []);

  return { state, start, cancel, reset };
}
