import {
  AppError,
  OFFLINE_ANNOTATION_MESSAGES,
  type TOfflineAnnotationUpload,
  type TOfflineAnnotationUploadResult,
} from '@radflow/core';
import type { AppContext } from '../../context.js';
import type { TAuth } from '../../plugins/auth.js';
import { deleteAnnotation, saveAnnotation } from '../viewer/viewer-annotations.js';
import { loadAnnotatableStudy } from '../viewer/viewer-study.js';
import { hybridAuthor, rowOfStudy } from './accept-offline-report.js';

/** Any refusal of `step` is answered FORBIDDEN with `message`: the router keeps the measurement. */
const refusedAs =
  (message: string) =>
  (error: unknown): never => {
    if (error instanceof AppError && (error.kind === 'NOT_FOUND' || error.kind === 'FORBIDDEN')) {
      throw new AppError('FORBIDDEN', message, 'annotationUid');
    }
    throw error;
  };

/**
 * POST /api/router/offline-annotation (apps/router/HYBRID.md "Measurements offline"): a measurement
 * drawn, changed or deleted in the router's offline viewer, kept on the study's cloud row as the
 * named hybrid doctor through the viewer's own services (the author must be allowed to annotate the
 * row, and may change only their own measurement). Saving by its uid makes a repeat harmless; a
 * delete of one the cloud does not hold is done already.
 */
export async function acceptOfflineAnnotation(
  ctx: AppContext,
  center: TAuth,
  body: TOfflineAnnotationUpload,
): Promise<TOfflineAnnotationUploadResult> {
  const id = await rowOfStudy(ctx, center, body.studyInstanceUid);
  const author = await hybridAuthor(ctx, center, body.authorEmail, body.authorGrant);
  await loadAnnotatableStudy(ctx.db, author, id).catch(refusedAs(OFFLINE_ANNOTATION_MESSAGES.notTheAuthors));
  const anothers = refusedAs(OFFLINE_ANNOTATION_MESSAGES.anothersMeasurement);
  if (body.annotation) {
    await saveAnnotation(ctx, author, id, body.annotationUid, body.annotation).catch(anothers);
  } else {
    await deleteAnnotation(ctx, author, id, body.annotationUid).catch((error: unknown) => {
      if (error instanceof AppError && error.kind === 'NOT_FOUND') return;
      anothers(error);
    });
  }
  return { reportStatusId: id };
}
