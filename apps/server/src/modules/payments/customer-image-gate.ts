import { and, eq, inArray } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { customerMustPayFirst } from '@radflow/core';
import type { Db } from '../../db/client.js';
import { reportStatuses, studies } from '../../db/schema.js';
import type { TAuth } from '../../plugins/auth.js';
import { scopeOfAuth, visibleReportRows } from '../studies/study-access.js';

/** Which study an image call names: a study row (`id`) or an archive study (its UID). */
export type TImageTarget = { reportStatusId: number } | { studyUid: string };

/**
 * The calls that answer a study's images (route patterns, `routeOptions.url`), and where each names
 * its study: the viewer's calls by the study row (`/viewer/:id/…`) or the UID, every DICOMweb
 * retrieval by the UID in its path (WADO-RS, per-study QIDO, rendered, thumbnails), WADO-URI by its
 * `studyUID` query, the zip link by the row. The search-wide QIDO calls (`/dicomweb/studies`,
 * `/series`, `/instances` without a study in the path) answer attributes only — what the patient's
 * own list already shows — and no pixels.
 */
export function imageTargetOf(request: FastifyRequest): TImageTarget | null {
  const url = request.routeOptions.url ?? '';
  const params = (request.params ?? {}) as Record<string, string | undefined>;
  const query = (request.query ?? {}) as Record<string, unknown>;
  const byRow = (id: string | undefined) =>
    id !== undefined && /^\d{1,15}$/.test(id) ? { reportStatusId: Number(id) } : null;
  if (url.startsWith('/api/dicomweb/studies/:study') || url.startsWith('/api/viewer/studies/:study')) {
    return params.study ? { studyUid: params.study } : null;
  }
  if (url === '/api/dicomweb/wado') {
    return typeof query.studyUID === 'string' ? { studyUid: query.studyUID } : null;
  }
  if (
    url.startsWith('/api/viewer/:id/') ||
    url.startsWith('/api/dicom-web/zip-v2/complete/studies/link/:id')
  ) {
    return byRow(params.id);
  }
  return null;
}

/**
 * Whether the patient must pay before seeing this study's images (issue 26 §4; core
 * `customerMustPayFirst`, the rule that also holds the report and the PDF): a customer session and a
 * payment PENDING on a study row of it that the caller sees (a split study's images are one: a due on
 * either of its rows holds them). Rows the caller may not see say nothing here; the route's own
 * access rule answers them 404.
 */
export async function customerOwesForImages(db: Db, auth: TAuth, target: TImageTarget): Promise<boolean> {
  const which =
    'reportStatusId' in target
      ? eq(reportStatuses.id, target.reportStatusId)
      : inArray(
          reportStatuses.studyId,
          db
            .select({ id: studies.id })
            .from(studies)
            .where(
              and(
                eq(studies.groupId, auth.user.groupId ?? -1),
                eq(studies.studyInstanceUid, target.studyUid),
              ),
            ),
        );
  const rows = await db
    .select({ paymentStatus: reportStatuses.paymentStatus })
    .from(reportStatuses)
    .where(and(visibleReportRows(scopeOfAuth(auth)), which));
  return rows.some((r) => customerMustPayFirst(auth.roles, r.paymentStatus));
}
