import { WORKLIST_MESSAGES, attachmentFileProblem, type TStudyAttachmentKind } from '@radflow/core';
import { failedRequest } from '../../api/client';
import { postForm } from '../upload/xhr-post';
import { attachmentUploadPath } from './study-actions.api';

/** The files of a pick split into those to send and the reasons the others are refused (spec-core §5). */
export function checkAttachmentFiles<T extends { name: string; size: number }>(
  files: readonly T[],
): { accepted: T[]; refusals: string[] } {
  const accepted: T[] = [];
  const refusals: string[] = [];
  for (const file of files) {
    const problem = attachmentFileProblem(file);
    if (problem) refusals.push(problem);
    else accepted.push(file);
  }
  return { accepted, refusals };
}

/** spec-core §8 'file uploaded N out of M'. */
export const uploadProgressText = WORKLIST_MESSAGES.filesUploaded;

/**
 * Uploads the files one request each (spec-core §7 "multipart file, one per file"), reporting after
 * each. Stops at the first refusal, which the API client shows; answers how many were stored.
 */
export async function uploadAttachments(
  kind: TStudyAttachmentKind,
  reportStatusId: number,
  files: readonly File[],
  onProgress: (done: number, total: number) => void,
): Promise<number> {
  let done = 0;
  onProgress(done, files.length);
  for (const file of files) {
    const form = new FormData();
    form.append('file', file, file.name);
    const answer = await postForm(attachmentUploadPath(kind, reportStatusId), form, {});
    if (answer.status < 200 || answer.status >= 300) throw failedRequest(answer.status, answer.body, false);
    done += 1;
    onProgress(done, files.length);
  }
  return done;
}
