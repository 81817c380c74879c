import { ZReportAudio, ZReportAudioList, type TReportAudio } from '@radflow/core';
import { apiRequest, deviceHeaders, failedRequest, parseBody, sendRetryingWhenShed } from '../../api/client';

/**
 * The audio note calls of spec-core §7: GET /report-audio/fetch-audio/{id}, POST
 * /report-audio/save-audio/{id} (multipart), DELETE /report-audio/delete-audio/{id}/{audioId}. The
 * writes are quiet: the dialog shows the server's refusal itself (a 403 here is a rule, not a
 * lost session).
 */

export const audiosQueryKey = (reportStatusId: number) => ['report-audio', reportStatusId] as const;

export function fetchAudios(reportStatusId: number, signal?: AbortSignal): Promise<TReportAudio[]> {
  return apiRequest(`/api/report-audio/fetch-audio/${reportStatusId}`, { schema: ZReportAudioList, signal });
}

/** The file name a recording is sent under (the server reads the type from the bytes anyway). */
export function recordingFileName(mimeType: string): string {
  const ext = mimeType.includes('ogg')
    ? 'ogg'
    : mimeType.includes('mp4')
      ? 'm4a'
      : mimeType.includes('mpeg')
        ? 'mp3'
        : mimeType.includes('wav')
          ? 'wav'
          : 'webm';
  return `audio-note.${ext}`;
}

export async function uploadAudio(
  reportStatusId: number,
  recording: { blob: Blob; durationMs: number },
): Promise<TReportAudio> {
  const form = new FormData();
  form.append('durationMs', String(Math.round(recording.durationMs)));
  form.append('file', recording.blob, recordingFileName(recording.blob.type));
  let response: Response;
  try {
    response = await sendRetryingWhenShed(() =>
      fetch(`/api/report-audio/save-audio/${reportStatusId}`, {
        method: 'POST',
        headers: new Headers(deviceHeaders()),
        body: form,
        credentials: 'same-origin',
      }),
    );
  } catch {
    throw failedRequest(0, null, true);
  }
  const payload = parseBody(await response.text().catch(() => ''));
  if (!response.ok) throw failedRequest(response.status, payload, true);
  return ZReportAudio.parse(payload);
}

export function deleteAudio(reportStatusId: number, audioId: number): Promise<unknown> {
  return apiRequest(`/api/report-audio/delete-audio/${reportStatusId}/${audioId}`, {
    method: 'DELETE',
    quiet: true,
  });
}

/** m:ss of a duration in milliseconds. */
export function formatDuration(ms: number | null): string {
  if (ms === null) return '';
  const total = Math.floor(ms / 1000);
  return `${Math.floor(total / 60)}:${String(total % 60).padStart(2, '0')}`;
}
