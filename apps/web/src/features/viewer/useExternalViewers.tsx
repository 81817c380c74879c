import {
  EXTERNAL_VIEWER_DELAY_MS,
  type TExternalViewer,
  type TViewerContext,
  externalViewerFolder,
  externalViewerLaunchUrl,
  externalViewersOf,
  savedFilePath,
} from '@radflow/core';
import { useCallback, useEffect, useMemo, useRef } from 'react';
import { useFeedback } from '../../components/feedback/feedback-context';
import { useSignedInSession } from '../auth/session';
import type { TZipStudy } from '../download/zip-download';
import { useStudyZipDownload } from '../download/useStudyZipDownload';

/** Where a launch stands: which viewer, when its download started. */
interface TPendingLaunch {
  viewer: TExternalViewer;
  folder: string;
  startedAt: number;
}

/**
 * Open in RadiAnt / Open in Horos (issue 5 §4, spec-core §4 Zip download): with a download folder in
 * the study table setting, the study's zip is downloaded as usual (job, progress dialog, refusals) and
 * the desktop viewer is started on the saved file through its URL scheme, never sooner than 2 s after
 * the download began. Without a folder: 'Please add path to download folder in Study Table setting'.
 * Render `dialog` once.
 */
export function useExternalViewers(
  context: Pick<TViewerContext, 'id' | 'studyInstanceUid' | 'patientName'>,
  launch: (url: string) => void = (url) => {
    window.location.href = url;
  },
) {
  const { roles, flags, preferences } = useSignedInSession();
  const { showError } = useFeedback();
  const pending = useRef<TPendingLaunch | null>(null);
  const timer = useRef<number | undefined>(undefined);
  useEffect(() => () => window.clearTimeout(timer.current), []);

  const onStudySaved = useCallback(
    (_study: TZipStudy, fileName: string) => {
      const request = pending.current;
      pending.current = null;
      if (!request) return;
      const url = externalViewerLaunchUrl(request.viewer, savedFilePath(request.folder, fileName));
      const wait = Math.max(0, request.startedAt + EXTERNAL_VIEWER_DELAY_MS - Date.now());
      timer.current = window.setTimeout(() => launch(url), wait);
    },
    [launch],
  );
  const zip = useStudyZipDownload({ onStudySaved });
  const viewers = useMemo(() => externalViewersOf(roles, flags), [roles, flags]);

  const open = useCallback(
    (viewer: TExternalViewer) => {
      const folder = externalViewerFolder(preferences.UI_REPORT_TABLE_PREFERENCES.openInRadiantPath);
      if (!folder.ok) {
        showError(folder.message);
        return;
      }
      pending.current = { viewer, folder: folder.folder, startedAt: Date.now() };
      void zip
        .start({ id: context.id, instanceId: context.studyInstanceUid, patientName: context.patientName })
        .finally(() => {
          // Failed, declined or cancelled: nothing to open.
          pending.current = null;
        });
    },
    [context.id, context.studyInstanceUid, context.patientName, preferences, showError, zip],
  );

  return { viewers, open, dialog: zip.dialog };
}
