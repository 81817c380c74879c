import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { TStudyScope } from '@radflow/core';
import type { DbOrTx, Tx } from '../../db/client.js';
import { centers, reportStatuses, studies, studyAttachments, users } from '../../db/schema.js';
import { rowModalities } from '../../db/row-modalities.js';
import { visibleReportRows } from './study-access.js';

/*
 * The study row queries more than one module reads: each puts the caller's access condition on report
 * rows (visibleReportRows, the one access rule) in its WHERE, so an invisible row and a missing one
 * look the same (404).
 */

const assignedUser = alias(users, 'assigned_user');
const auditorUser = alias(users, 'auditor_user');
const lockedUser = alias(users, 'locked_user');
const referringUser = alias(users, 'referring_user');

/**
 * Another row was split from this one. Written out in full: drizzle leaves a column unqualified in a
 * single-table select, and an unqualified "id" here would be the inner row's.
 */
const hasSplitChild = sql<boolean>`exists (select 1 from report_statuses child where child.split_from_report_status_id = "report_statuses"."id")`;

/** The study row of GET /report-status/id/{id} as the database holds it. */
export async function findVisibleStudyRow(db: DbOrTx, scope: TStudyScope, id: number) {
  const [row] = await db
    .select({
      report: reportStatuses,
      instanceId: studies.studyInstanceUid,
      modalities: rowModalities,
      seriesCount: studies.seriesCount,
      instanceCount: studies.instanceCount,
      studyDate: studies.studyDate,
      studyTime: studies.studyTime,
      studyDescription: studies.studyDescription,
      institutionName: studies.institutionName,
      radiologyCenter: centers.name,
      centerEmail: centers.email,
      assignedTo: assignedUser.email,
      assignedToName: assignedUser.identifier,
      auditor: auditorUser.email,
      lockedBy: lockedUser.email,
      referringDoctor: referringUser.email,
      hasSplitChild,
      attachments: sql<{ history: number; film: number; report: number }>`(
        select json_build_object(
          'history', count(*) filter (where ${studyAttachments.kind} = 'HISTORY'),
          'film', count(*) filter (where ${studyAttachments.kind} = 'FILM'),
          'report', count(*) filter (where ${studyAttachments.kind} = 'REPORT'))
        from ${studyAttachments} where ${studyAttachments.reportStatusId} = ${reportStatuses.id})`,
    })
    .from(reportStatuses)
    .innerJoin(studies, eq(studies.id, reportStatuses.studyId))
    .innerJoin(centers, eq(centers.id, reportStatuses.centerId))
    .leftJoin(assignedUser, eq(assignedUser.id, reportStatuses.assignedToUserId))
    .leftJoin(auditorUser, eq(auditorUser.id, reportStatuses.auditorUserId))
    .leftJoin(lockedUser, eq(lockedUser.id, reportStatuses.lockedByUserId))
    .leftJoin(referringUser, eq(referringUser.id, reportStatuses.referringDoctorUserId))
    .where(and(eq(reportStatuses.id, id), visibleReportRows(scope)));
  return row ?? null;
}
export type TStudyDbRow = NonNullable<Awaited<ReturnType<typeof findVisibleStudyRow>>>;

/**
 * Locks visible rows (`SELECT … FOR UPDATE OF report_statuses`) in id order, so two transactions
 * locking overlapping sets never wait on each other in a cycle. Rows the caller may not see are
 * simply not returned.
 */
export async function lockVisibleRows(tx: Tx, scope: TStudyScope, ids: readonly number[]) {
  return tx
    .select({ report: reportStatuses })
    .from(reportStatuses)
    .where(and(inArray(reportStatuses.id, [...ids]), visibleReportRows(scope)))
    .orderBy(asc(reportStatuses.id))
    .for('update', { of: reportStatuses });
}
export type TLockedRow = Awaited<ReturnType<typeof lockVisibleRows>>[number];
