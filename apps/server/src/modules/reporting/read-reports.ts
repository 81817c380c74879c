import { AppError, MESSAGES, type TReportsResponse } from '@radflow/core';
import type { DbOrTx } from '../../db/client.js';
import type { TAuth } from '../../plugins/auth.js';
import { scopeOfAuth } from '../dicomweb-retrieve/study-access.js';
import { findVisibleStudyRow } from '../study-actions/study-actions.repository.js';
import { listReports } from './reporting.repository.js';

/**
 * GET /report/{id}: the row's reports with every saved version, to whoever may see the row (the
 * read-only roles included); 404 otherwise. Comparing two versions is the editor's job: each
 * version's HTML is here.
 */
export async function getReports(db: DbOrTx, auth: TAuth, id: number): Promise<TReportsResponse> {
  const row = await findVisibleStudyRow(db, scopeOfAuth(auth), id);
  if (!row) throw new AppError('NOT_FOUND', MESSAGES.notFound, 'id');
  const reports = (await listReports(db, [id])).get(id) ?? [];
  return { reportStatusId: id, reports };
}
