import { type SQL, and, eq, inArray, isNull, or } from 'drizzle-orm';
import { REPORT_STATUSES_OF_LAB_STATUS, type TLabReportStatus } from '@radflow/core';
import { labBillTests, reportStatuses } from '../../db/schema.js';

/*
 * A bill line's report status: the report row of the study linked to the line (by Create Study or
 * by images with its accession number), in the lab's words (core labReportStatusOf). One home for
 * the join and the filter, which the test-level dashboard and the billing list both use.
 */

/** The report row of a line's study (one per study, splits aside): join it with a left join. */
export const lineReportJoin = and(
  eq(reportStatuses.studyId, labBillTests.studyId),
  isNull(reportStatuses.splitFromReportStatusId),
);

/** Lines whose report is in one of these lab statuses (PENDING: no report row yet); none: any. */
export function lineReportStatusIn(statuses: readonly TLabReportStatus[]): SQL | undefined {
  if (statuses.length === 0) return undefined;
  const rowStatuses = statuses.flatMap((s) => REPORT_STATUSES_OF_LAB_STATUS[s]);
  const conditions = [inArray(reportStatuses.status, rowStatuses)];
  if (statuses.includes('PENDING')) conditions.push(isNull(reportStatuses.id));
  return or(...conditions);
}
