import { asc, eq, inArray } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { TReport } from '@radflow/core';
import type { DbOrTx } from '../../db/client.js';
import { reportVersions, reports, users } from '../../db/schema.js';

/*
 * The reports of study rows as they are read: by the study detail, the report page (reporting) and
 * the share delivery (study-sharing). Callers have already checked that the caller may see the rows.
 */

const doctorUser = alias(users, 'doctor_user');
const typistUser = alias(users, 'typist_user');
const verifierUser = alias(users, 'verifier_user');
const signerUser = alias(users, 'signer_user');

/**
 * The reports of rows, main report first then the addenda, each with its versions (oldest first;
 * left empty with `withVersions: false`, for the study row's `reports`).
 */
export async function listReports(
  db: DbOrTx,
  reportStatusIds: readonly number[],
  { withVersions = true }: { withVersions?: boolean } = {},
): Promise<Map<number, TReport[]>> {
  const byRow = new Map<number, TReport[]>();
  if (reportStatusIds.length === 0) return byRow;
  const rows = await db
    .select({
      report: reports,
      doctor: doctorUser.email,
      doctorName: doctorUser.identifier,
      typedBy: typistUser.email,
      verifiedBy: verifierUser.email,
      signedOffBy: signerUser.email,
    })
    .from(reports)
    .innerJoin(doctorUser, eq(doctorUser.id, reports.doctorUserId))
    .innerJoin(typistUser, eq(typistUser.id, reports.typedByUserId))
    .leftJoin(verifierUser, eq(verifierUser.id, reports.verifiedByUserId))
    .leftJoin(signerUser, eq(signerUser.id, reports.signedOffByUserId))
    .where(inArray(reports.reportStatusId, [...reportStatusIds]))
    .orderBy(asc(reports.reportStatusId), asc(reports.isAddendum), asc(reports.id));
  if (rows.length === 0) return byRow;
  const versions = !withVersions
    ? []
    : await db
        .select({
          reportId: reportVersions.reportId,
          version: reportVersions.version,
          kind: reportVersions.kind,
          name: reportVersions.name,
          content: reportVersions.contentHtml,
          savedBy: users.email,
          savedByName: users.identifier,
          savedAt: reportVersions.savedAt,
        })
        .from(reportVersions)
        .leftJoin(users, eq(users.id, reportVersions.savedByUserId))
        .where(
          inArray(
            reportVersions.reportId,
            rows.map((r) => r.report.id),
          ),
        )
        .orderBy(asc(reportVersions.reportId), asc(reportVersions.version));
  const versionsOf = new Map<number, TReport['versions']>();
  for (const { reportId, savedAt, ...v } of versions) {
    const list = versionsOf.get(reportId) ?? [];
    list.push({ ...v, savedAt: savedAt.toISOString() });
    versionsOf.set(reportId, list);
  }
  for (const { report: r, ...who } of rows) {
    const list = byRow.get(r.reportStatusId) ?? [];
    list.push({
      id: r.id,
      name: r.name,
      format: 'HTML',
      content: r.contentHtml,
      doctor: who.doctor,
      doctorName: who.doctorName,
      typedBy: who.typedBy,
      isAddendum: r.isAddendum,
      awaitingVerification: r.awaitingVerification,
      verifiedBy: who.verifiedBy,
      signedOffBy: who.signedOffBy,
      signature:
        r.signedOffAt && r.signatureName !== null
          ? {
              name: r.signatureName,
              imageAssetId: r.signatureAssetId,
              signedOffAt: r.signedOffAt.toISOString(),
            }
          : null,
      createdAt: r.createdAt.toISOString(),
      updatedAt: r.updatedAt.toISOString(),
      versions: versionsOf.get(r.id) ?? [],
    });
    byRow.set(r.reportStatusId, list);
  }
  return byRow;
}
