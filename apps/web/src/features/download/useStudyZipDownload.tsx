import Typography from '@mui/material/Typography';
import type { TZipAnonymizationType } from '@radflow/core';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiError, reportFailure } from '../../api/client';
import { useConfirm, useSnackbar } from '../../components/feedback/feedback-context';
import { getSession } from '../auth/session';
import { isAbortError } from '../jobs/abortable';
import type { TForcePrompt } from '../jobs/run-job';
import { describeZipFailure, type TZipDownloadState, type TZipFailure } from './download-state';
import { DownloadProgressDialog } from './DownloadProgressDialog';
import { downloadManyZips, studyDisplayName, type TZipStudy } from './zip-download';

export interface TStudyZipDownloadOptions {
  /** Overrides the signed-in user's proxyUrl (spec-core §3 Current user). */
  proxyUrl?: string | null;
  zipAnonymizationTypeEnum?: TZipAnonymizationType | null;
  recreateZip?: boolean;
  /** A study's zip was saved under this file name (e.g. to open it in a desktop viewer). */
  onStudySaved?: (study: TZipStudy, fileName: string) => void;
}

/**
 * The zip download of one or several study rows (spec-core §4 Zip download) for a screen: owns the
 * progress dialog, the failed-previously confirm and the error snackbars. Render `dialog` once and
 * call `start(rows)` from a row action or a bulk action. `start` resolves when all is over (never
 * rejects); while one download runs another start is ignored. A dialog whose studies were all saved closes itself; with a failure or a cancel it stays
 * until Close. Leaving the screen aborts a running download (the server's job goes on).
 */
export function useStudyZipDownload(options: TStudyZipDownloadOptions = {}) {
  const queryClient = useQueryClient();
  const confirm = useConfirm();
  const { showError } = useSnackbar();
  const [state, setState] = useState<TZipDownloadState>({ status: 'idle' });
  const controller = useRef<AbortController | null>(null);
  const { proxyUrl: proxyOverride, zipAnonymizationTypeEnum, recreateZip, onStudySaved } = options;

  useEffect(() => () => controller.current?.abort(), []);

  const askForce = useCallback(
    ({ message, error }: TForcePrompt) =>
      confirm({
        title: 'Job failed previously',
        message: (
          <>
            <Typography variant="body2">{message}</Typography>
            {error && (
              <Typography variant="body2" color="error" sx={{ mt: 1 }}>
                {error}
              </Typography>
            )}
          </>
        ),
      }),
    [confirm],
  );

  const start = useCallback(
    async (rows: TZipStudy | readonly TZipStudy[]) => {
      const studies: readonly TZipStudy[] = Array.isArray(rows) ? rows : [rows as TZipStudy];
      if (studies.length === 0) return;
      // One download at a time: the dialog is modal while it runs, so a second start can only come
      // from code; it is ignored rather than fighting the first over the same jobs.
      if (controller.current) return;
      const abort = new AbortController();
      controller.current = abort;
      const total = studies.length;
      // The signed-in user's proxy as it is now (spec-core §4 "A proxy wrapper may prefix the link").
      const proxyUrl =
        proxyOverride !== undefined ? proxyOverride : (getSession(queryClient)?.user.proxyUrl ?? null);
      const failures: TZipFailure[] = [];
      let saved = 0;
      let index = 0;
      let name = studyDisplayName(studies[0]!);
      const update = (phase: Extract<TZipDownloadState, { status: 'running' }>['phase']) => {
        if (!abort.signal.aborted) {
          setState({ status: 'running', total, index, name, phase, saved, failures: [...failures] });
        }
      };
      update({ step: 'preparing', percent: null, job: null });
      try {
        const outcome = await downloadManyZips(studies, {
          confirm: askForce,
          signal: abort.signal,
          proxyUrl,
          zipAnonymizationTypeEnum,
          recreateZip,
          onPhase: update,
          onPause: (next) => {
            // The dialog names the study that comes next while it waits for it.
            index = next;
            name = studyDisplayName(studies[next]!);
            update({ step: 'waiting' });
          },
          onStudyStart: (study, i) => {
            index = i;
            name = studyDisplayName(study);
          },
          onStudyDone: (study, result) => {
            if (result.kind !== 'saved') return;
            saved += 1;
            onStudySaved?.(study, result.fileName);
          },
          onStudyFailed: (study, error) => {
            const failure = describeZipFailure(error, study.id, studyDisplayName(study));
            failures.push(failure);
            showError(failure.message);
          },
        });
        if (controller.current !== abort) return;
        if (outcome.failed.length === 0) {
          setState({ status: 'idle' });
        } else {
          setState({ status: 'finished', total, saved, declined: outcome.declined.length, failures });
        }
      } catch (error) {
        // Closed or left the screen meanwhile: nothing to show.
        if (controller.current !== abort) return;
        if (error instanceof ApiError && error.failure.kind !== 'message') {
          // Session trouble (403, 401) is the app's to handle: log in again, device approval.
          reportFailure(error);
          setState({ status: 'idle' });
        } else {
          if (!isAbortError(error)) console.error('Zip download stopped', error);
          setState({ status: 'cancelled', total, saved, failures });
        }
      } finally {
        if (controller.current === abort) controller.current = null;
      }
    },
    [askForce, proxyOverride, queryClient, zipAnonymizationTypeEnum, recreateZip, onStudySaved, showError],
  );

  const cancel = useCallback(() => controller.current?.abort(), []);
  const close = useCallback(() => {
    controller.current?.abort();
    controller.current = null;
    setState({ status: 'idle' });
  }, []);

  const dialog = <DownloadProgressDialog state={state} onCancel={cancel} onClose={close} />;
  return { start, cancel, close, state, dialog };
}
