import { type TReport, type TReportStatus, isPublishedReport } from '@radflow/core';
import type { DbOrTx } from '../../db/client.js';
import { listReports } from '../study-detail/list-reports.js';

/**
 * The reports a share shows and sends: only on a SIGNED_OFF row, and only those signed (main report
 * first, then addenda). A report waiting for a verifier, or a row re-opened after sign-off, shows
 * nothing: what leaves the center is what a doctor signed.
 */
export async function signedReportsOf(
  db: DbOrTx,
  row: { id: number; status: TReportStatus },
): Promise<TReport[]> {
  if (row.status !== 'SIGNED_OFF') return [];
  const reports = (await listReports(db, [row.id], { withVersions: false })).get(row.id) ?? [];
  return reports.filter((r) => isPublishedReport(row.status, r));
}

/** Whether the row's report is ready to leave the center (a signed main report). */
export const hasSignedMainReport = (reports: readonly TReport[]) => reports.some((r) => !r.isAddendum);
