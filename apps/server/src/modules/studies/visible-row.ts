import { and, eq } from 'drizzle-orm';
import type { SelectResultFields } from 'drizzle-orm/query-builders/select.types';
import type { SelectedFields } from 'drizzle-orm/pg-core';
import { AppError, MESSAGES } from '@radflow/core';
import type { DbOrTx } from '../../db/client.js';
import { reportStatuses, studies } from '../../db/schema.js';
import type { TAuth } from '../../plugins/auth.js';
import { scopeOfAuth, visibleReportRows } from './study-access.js';
import { findVisibleStudyRow } from './study-rows.js';

/**
 * The chosen columns of report row `id` and its study, if the caller may see that row, else 404:
 * the access condition is in the WHERE (`visibleReportRows`: the row itself, not its study, so a
 * split sibling does not open it), so a study of another group or center answers exactly like a
 * missing one. Every call that acts on one study by its report id starts here.
 */
export async function loadVisibleReportRow<TFields extends SelectedFields>(
  db: DbOrTx,
  auth: TAuth,
  id: number,
  fields: TFields,
  notFoundMessage: string = MESSAGES.notFound,
) {
  // Inner joins only, so each column keeps its own nullability: the plain result type of the fields.
  // (drizzle cannot resolve its join result type for a generic selection, hence the cast.)
  const rows = (await db
    .select(fields as SelectedFields)
    .from(reportStatuses)
    .innerJoin(studies, eq(studies.id, reportStatuses.studyId))
    .where(and(eq(reportStatuses.id, id), visibleReportRows(scopeOfAuth(auth))))) as Array<
    SelectResultFields<TFields>
  >;
  return rows[0] ?? notVisible(notFoundMessage);
}

/** A row the caller may not see is answered exactly like a missing one: 404, naming the id. */
function notVisible(message: string = MESSAGES.notFound): never {
  throw new AppError('NOT_FOUND', message, 'id');
}

/** The report row the attachment, tag, audio and sharing calls read before any change (404 when not visible). */
export const loadVisibleReport = (db: DbOrTx, auth: TAuth, reportStatusId: number) =>
  loadVisibleReportRow(db, auth, reportStatusId, {
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
  });
export type TVisibleReport = Awaited<ReturnType<typeof loadVisibleReport>>;

/**
 * The whole study row of GET /report-status/id/{id} (its centre, people, split and attachment
 * counts: `findVisibleStudyRow`) if the caller may see it, else the same 404.
 */
export async function loadVisibleStudyRow(db: DbOrTx, auth: TAuth, id: number) {
  return (await findVisibleStudyRow(db, scopeOfAuth(auth), id)) ?? notVisible();
}
