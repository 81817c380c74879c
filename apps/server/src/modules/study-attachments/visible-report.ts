import { and, eq } from 'drizzle-orm';
import { AppError, MESSAGES } from '@radflow/core';
import type { DbOrTx } from '../../db/client.js';
import { reportStatuses, studies } from '../../db/schema.js';
import type { TAuth } from '../../plugins/auth.js';
import { scopeOfAuth, visibleReportRows } from '../dicomweb-retrieve/study-access.js';

/**
 * A report row the caller may see, or 404 'Not found': the access condition is in the WHERE
 * (visibleReportRows: the row itself, not its study, so a split sibling does not open it), so a study of another group or center answers exactly like a missing one.
 * Used by the attachment, tag and sharing calls before any change.
 */
export async function loadVisibleReport(db: DbOrTx, auth: TAuth, reportStatusId: number) {
  const [row] = await db
    .select({
      id: reportStatuses.id,
      studyId: reportStatuses.studyId,
      groupId: reportStatuses.groupId,
      centerId: reportStatuses.centerId,
      status: reportStatuses.status,
      patientName: reportStatuses.patientName,
      studyName: reportStatuses.studyName,
      shareLink: reportStatuses.shareLink,
      sharedEmails: reportStatuses.sharedEmails,
      sharedNumbers: reportStatuses.sharedNumbers,
    })
    .from(reportStatuses)
    .innerJoin(studies, eq(studies.id, reportStatuses.studyId))
    .where(and(eq(reportStatuses.id, reportStatusId), visibleReportRows(scopeOfAuth(auth))));
  if (!row) throw new AppError('NOT_FOUND', MESSAGES.notFound, 'id');
  return row;
}
export type TVisibleReport = Awaited<ReturnType<typeof loadVisibleReport>>;
