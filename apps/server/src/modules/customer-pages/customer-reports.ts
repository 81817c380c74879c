import { and, desc, eq, sql } from 'drizzle-orm';
import {
  type TCustomerReport,
  type TStudyScope,
  customerMustPayFirst,
  formatDicomText,
  formatPersonName,
} from '@radflow/core';
import type { DbOrTx } from '../../db/client.js';
import { rowModalities } from '../../db/row-modalities.js';
import { centers, reportStatuses, studies, studyPayments } from '../../db/schema.js';
import type { TAuth } from '../../plugins/auth.js';
import { scopeOfAuth, visibleReportRows } from '../studies/study-access.js';

/** A patient has a handful of studies; more than this is a support case, not a page. */
const REPORTS_SHOWN = 200;

const dicomDate = (value: string) =>
  /^\d{8}$/.test(value) ? `${value.slice(0, 4)}-${value.slice(4, 6)}-${value.slice(6, 8)}` : '';

/**
 * The patient's own studies: the one visible-row rule (`visibleReportRows`) narrowed to the
 * customer's grant (core `studyScopeOf`: the row's patient mobile, or a number it was shared with,
 * is the account's mobile). An account that also holds a staff role lists here only what it holds
 * as the patient, never its center's or group's studies.
 */
function customerScope(auth: TAuth): TStudyScope {
  const scope = scopeOfAuth(auth);
  return { groupId: scope.groupId, grants: scope.grants.filter((g) => g.kind === 'customerMobile') };
}

/**
 * GET /api/customer-report/reports: the signed-off studies of the signed-in patient, newest sign-off
 * first, each with its pending payment (the open request's amount and the provider's pay link).
 */
export async function listCustomerReports(db: DbOrTx, auth: TAuth): Promise<TCustomerReport[]> {
  const rows = await db
    .select({
      reportStatusId: reportStatuses.id,
      studyInstanceUid: studies.studyInstanceUid,
      patientName: reportStatuses.patientName,
      studyName: reportStatuses.studyName,
      studyDescription: studies.studyDescription,
      modalities: rowModalities,
      studyDate: studies.studyDate,
      center: centers.name,
      signedOffAt: reportStatuses.signedOffAt,
      instanceCount: studies.instanceCount,
      paymentStatus: reportStatuses.paymentStatus,
      amountMinor: studyPayments.amountMinor,
      currency: studyPayments.currency,
      note: studyPayments.note,
      payUrl: studyPayments.payUrl,
    })
    .from(reportStatuses)
    .innerJoin(studies, eq(studies.id, reportStatuses.studyId))
    .innerJoin(centers, eq(centers.id, reportStatuses.centerId))
    // At most one PENDING request per study (study_payments_one_pending_key).
    .leftJoin(
      studyPayments,
      and(eq(studyPayments.reportStatusId, reportStatuses.id), eq(studyPayments.status, 'PENDING')),
    )
    .where(and(visibleReportRows(customerScope(auth)), eq(reportStatuses.status, 'SIGNED_OFF')))
    .orderBy(sql`${reportStatuses.signedOffAt} desc nulls last`, desc(reportStatuses.id))
    .limit(REPORTS_SHOWN);
  return rows.map((r) => {
    const pending = r.paymentStatus === 'PENDING' && r.amountMinor !== null;
    return {
      reportStatusId: r.reportStatusId,
      studyInstanceUid: r.studyInstanceUid,
      patientName: formatPersonName(r.patientName),
      studyName: formatDicomText(r.studyName || r.studyDescription),
      modality: r.modalities.join(', '),
      studyDate: dicomDate(r.studyDate),
      center: r.center,
      signedOffAt: r.signedOffAt?.toISOString() ?? null,
      hasImages: r.instanceCount > 0,
      payment: {
        status: r.paymentStatus,
        amount: pending ? r.amountMinor! / 100 : null,
        currency: pending ? r.currency : null,
        note: pending ? r.note : null,
        payUrl: pending ? r.payUrl : null,
      },
      canDownload: !customerMustPayFirst(auth.roles, r.paymentStatus),
    };
  });
}
