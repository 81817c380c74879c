import {
  AppError,
  MESSAGES,
  type TReportsResponse,
  customerMustPayFirst,
  reportsForReader,
} from '@radflow/core';
import type { DbOrTx } from '../../db/client.js';
import type { TAuth } from '../../plugins/auth.js';
import { loadVisibleStudyRow } from '../studies/visible-row.js';
import { listReports } from '../study-detail/list-reports.js';

/**
 * GET /report/{id}: the row's reports with every saved version to whoever works on the report; the
 * read-only roles, who may see the row too, get the signed-off report and addenda only, without
 * versions (core reportsForReader). 404 for a row the caller may not see. Comparing two versions is
 * the editor's job: each version's HTML is here.
 */
export async function getReports(db: DbOrTx, auth: TAuth, id: number): Promise<TReportsResponse> {
  const row = await loadVisibleStudyRow(db, auth, id);
  // The patient pays for this study before reading its report (customer-pages/DECISIONS.md).
  if (customerMustPayFirst(auth.roles, row.report.paymentStatus)) {
    throw new AppError('PAYMENT_REQUIRED', MESSAGES.paymentNeeded, 'reportStatusId');
  }
  const reports = (await listReports(db, [id])).get(id) ?? [];
  return { reportStatusId: id, reports: reportsForReader(auth.roles, row.report.status, reports) };
}
