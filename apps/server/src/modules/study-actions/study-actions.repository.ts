import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { TReportStatus, TStudyEvent, TStudyScope } from '@radflow/core';
import type { DbOrTx, Tx } from '../../db/client.js';
import {
  centers,
  reportStatuses,
  studies,
  studyAttachments,
  studyEvents,
  studyTypes,
  users,
} from '../../db/schema.js';
import { visibleReportRows } from '../dicomweb-retrieve/study-access.js';
import { rowModalities } from '../../db/row-modalities.js';

/*
 * SQL of the study actions. Every read of a row puts the caller's access condition on report rows
 * (visibleReportRows, the one access rule) in its WHERE, so an invisible row and a missing one look the same (404).
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

/** The row's timeline, oldest first (spec-core §2 study history view, report notification timeline). */
export async function listStudyEvents(db: DbOrTx, reportStatusId: number): Promise<TStudyEvent[]> {
  const rows = await db
    .select({
      id: studyEvents.id,
      reportStatusId: studyEvents.reportStatusId,
      eventType: studyEvents.eventType,
      actorEmail: users.email,
      actorName: users.identifier,
      actorLabel: studyEvents.actorLabel,
      fromStatus: studyEvents.fromStatus,
      toStatus: studyEvents.toStatus,
      detail: studyEvents.detail,
      createdAt: studyEvents.createdAt,
    })
    .from(studyEvents)
    .leftJoin(users, eq(users.id, studyEvents.actorUserId))
    .where(eq(studyEvents.reportStatusId, reportStatusId))
    .orderBy(asc(studyEvents.createdAt), asc(studyEvents.id));
  return rows.map((r) => ({
    ...r,
    fromStatus: r.fromStatus as TReportStatus | null,
    toStatus: r.toStatus as TReportStatus | null,
    detail: isRecord(r.detail) ? r.detail : null,
    createdAt: r.createdAt.toISOString(),
  }));
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

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

/**
 * Whether a row has been split, read in its own statement AFTER the row lock is held: under READ
 * COMMITTED a statement sees what was committed when it started, so a subquery inside the locking
 * SELECT would miss a split committed by the transaction it waited for.
 */
export async function hasSplitChildOf(tx: Tx, id: number): Promise<boolean> {
  const [child] = await tx
    .select({ id: reportStatuses.id })
    .from(reportStatuses)
    .where(eq(reportStatuses.splitFromReportStatusId, id))
    .limit(1);
  return child !== undefined;
}

/** An active user of the group with the role, by e-mail (lower-cased), or null. */
export async function findActiveGroupUser(db: DbOrTx, groupId: number, email: string, role: string) {
  const [user] = await db
    .select({ id: users.id, email: users.email })
    .from(users)
    .where(
      and(
        eq(users.email, email.toLowerCase()),
        eq(users.groupId, groupId),
        eq(users.active, true),
        sql`${role} = any(${users.roles})`,
      ),
    );
  return user ?? null;
}

/** The study types of the group among `names`. */
export async function findGroupStudyTypeNames(db: DbOrTx, groupId: number, names: readonly string[]) {
  if (names.length === 0) return new Set<string>();
  const rows = await db
    .select({ name: studyTypes.name })
    .from(studyTypes)
    .where(and(eq(studyTypes.groupId, groupId), inArray(studyTypes.name, [...names])));
  return new Set(rows.map((r) => r.name));
}
