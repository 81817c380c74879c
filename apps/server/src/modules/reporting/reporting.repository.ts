import { and, asc, eq, sql } from 'drizzle-orm';
import type { TReportVersionKind } from '@radflow/core';
import type { DbOrTx, Tx } from '../../db/client.js';
import { removeReportSearchText } from './report-search-text.js';
import { centers, reportVersions, reports, userMappings, userSignatures, users } from '../../db/schema.js';

/*
 * SQL of reporting: a row's main report and its versions, a typist's doctors, the signature snapshot
 * (the reports of rows as readers see them: ../study-detail/list-reports.ts). Callers have already
 * checked that the caller may see the row.
 */

export type TReportDbRow = typeof reports.$inferSelect;

/** The row's main report (not an addendum), locked for update, or null. */
export async function lockMainReport(tx: Tx, reportStatusId: number): Promise<TReportDbRow | null> {
  const [report] = await tx
    .select()
    .from(reports)
    .where(and(eq(reports.reportStatusId, reportStatusId), eq(reports.isAddendum, false)))
    .orderBy(asc(reports.id))
    .limit(1)
    .for('update');
  return report ?? null;
}

/** The newest saved version number of a report (null: no report, or none kept). */
export async function lastVersionOf(tx: Tx, reportId: number | null): Promise<number | null> {
  if (reportId === null) return null;
  const [row] = await tx
    .select({ version: sql<number | null>`max(${reportVersions.version})` })
    .from(reportVersions)
    .where(eq(reportVersions.reportId, reportId));
  return row?.version ?? null;
}

/** Keeps one version of a report: the next number after its last one. */
export async function addReportVersion(
  tx: Tx,
  version: {
    reportId: number;
    name: string;
    contentHtml: string;
    kind: TReportVersionKind;
    savedByUserId: number;
    savedAt: Date;
  },
): Promise<number> {
  const [row] = await tx
    .insert(reportVersions)
    .values({
      ...version,
      version: sql`(select coalesce(max(${reportVersions.version}), 0) + 1 from ${reportVersions} where ${reportVersions.reportId} = ${version.reportId})`,
    })
    .returning({ version: reportVersions.version });
  if (!row) throw new Error('report version: insert returned no row');
  return row.version;
}

/**
 * The doctor a typist types for, by e-mail: an active ROLE_DOCTOR user of the group in the typist's
 * user map (user_mappings under ROLE_DOCTOR), or null.
 */
export async function findMappedDoctor(db: DbOrTx, typist: { id: number; groupId: number }, email: string) {
  const [doctor] = await db
    .select({ id: users.id, email: users.email })
    .from(userMappings)
    .innerJoin(users, eq(users.id, userMappings.mappedUserId))
    .where(
      and(
        eq(userMappings.userId, typist.id),
        eq(userMappings.role, 'ROLE_DOCTOR'),
        eq(users.email, email.toLowerCase()),
        eq(users.groupId, typist.groupId),
        eq(users.active, true),
        sql`'ROLE_DOCTOR' = any(${users.roles})`,
      ),
    );
  return doctor ?? null;
}

/** A user's e-mail and name (the doctor of a report). */
export async function findUserById(db: DbOrTx, id: number) {
  const [user] = await db
    .select({ id: users.id, email: users.email, identifier: users.identifier })
    .from(users)
    .where(eq(users.id, id));
  if (!user) throw new Error(`user ${id} not found`);
  return user;
}

export async function findCenterEmail(db: DbOrTx, centerId: number): Promise<string> {
  const [center] = await db.select({ email: centers.email }).from(centers).where(eq(centers.id, centerId));
  return center?.email ?? '';
}

/**
 * The signature a report is signed with now (spec-lab §3 signature: name and image): the doctor's
 * saved signature, else their name with no image (a sign-off never waits for a signature upload).
 */
export async function signatureSnapshotOf(db: DbOrTx, doctor: { id: number; identifier: string }) {
  const [signature] = await db
    .select({ name: userSignatures.name, imageAssetId: userSignatures.imageAssetId })
    .from(userSignatures)
    .where(eq(userSignatures.userId, doctor.id));
  return {
    signatureName: signature?.name ?? doctor.identifier,
    signatureAssetId: signature?.imageAssetId ?? null,
  };
}

/** Rework (spec-core §4): every report of the row goes, their versions with them (cascade). */
export async function deleteReportsOfRow(tx: Tx, reportStatusId: number): Promise<number> {
  await removeReportSearchText(tx, reportStatusId);
  const deleted = await tx
    .delete(reports)
    .where(eq(reports.reportStatusId, reportStatusId))
    .returning({ id: reports.id });
  return deleted.length;
}
