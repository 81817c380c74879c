import { ZCenterOption, ZCreatedStudy, type TCenterOption, type TCreateStudyRequest } from '@radflow/core';
import { apiRequest } from './client';

/** Imaging archive calls of the browser (spec-core §7 Study actions, issue 3 §3). */

/**
 * Every study list's query key starts with this, so one invalidation refreshes them all (spec-core §7:
 * "the page reloads afterwards").
 */
export const STUDIES_QUERY_KEY = ['studies'] as const;
export const CENTERS_QUERY_KEY = ['centers'] as const;

/** The centers the user may create a study for; a center user gets only their own. */
export function fetchCenters(signal?: AbortSignal): Promise<TCenterOption[]> {
  return apiRequest('/api/centers', { schema: ZCenterOption.array(), signal });
}

/**
 * POST /api/dicom-web/study/create-from-website. Quiet: a 400 names the field (additionalInfo) and
 * the dialog shows the message there.
 */
export function createStudy(request: TCreateStudyRequest) {
  return apiRequest('/api/dicom-web/study/create-from-website', {
    json: request,
    schema: ZCreatedStudy,
    quiet: true,
  });
}
