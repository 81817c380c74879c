import { and, eq } from 'drizzle-orm';
import type { SelectResultFields } from 'drizzle-orm/query-builders/select.types';
import type { SelectedFields } from 'drizzle-orm/pg-core';
import { AppError, MESSAGES } from '@radflow/core';
import type { DbOrTx } from '../../db/client.js';
import { reportStatuses, studies } from '../../db/schema.js';
import type { TAuth } from '../../plugins/auth.js';
import { scopeOfAuth, visibleReportRows } from './study-access.js';

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
  const row = rows[0];
  if (!row) throw new AppError('NOT_FOUND', notFoundMessage, 'id');
  return row;
}
