import type { TStudyListRow } from '@radflow/core';
import { useEffect } from 'react';
import { useStudyZipDownload } from '../download/useStudyZipDownload';

export interface TZipRequest {
  /** A new id starts a new download (the same rows may be asked for twice). */
  id: number;
  rows: readonly TStudyListRow[];
}

/**
 * Runs the zip downloads a list asks for and shows their progress dialog. Loaded on the first zip
 * click, so the job runner and the download code stay out of the list's first paint.
 */
export function ZipDownloadHost({ request }: { request: TZipRequest }) {
  const zip = useStudyZipDownload();
  const { start } = zip;
  useEffect(() => {
    void start(request.rows);
  }, [request, start]);
  return zip.dialog;
}

export default ZipDownloadHost;
