import { and, asc, eq, ne, sql } from 'drizzle-orm';
import { type TPaymentDue, type TShareInfo, hasRole } from '@radflow/core';
import type { DbOrTx } from '../../db/client.js';
import { reportStatuses, studyPayments } from '../../db/schema.js';
import type { TAuth } from '../../plugins/auth.js';

/** How many dues the payment page lists (a viewer has a few; more is a support case). */
const DUES_SHOWN = 50;

/**
 * The report rows a viewer account must pay for: shared with its e-mail (the share dialog's
 * send-email, the same grant that lets it open them), in its group, not deleted, payment PENDING.
 */
function pendingForViewer(auth: TAuth) {
  return and(
    eq(reportStatuses.groupId, auth.user.groupId),
    eq(reportStatuses.paymentStatus, 'PENDING'),
    ne(reportStatuses.status, 'DELETED'),
    sql`${auth.user.email}::text = any(${reportStatuses.sharedEmails})`,
  );
}

/**
 * spec-core §4 Viewer payment, §7 share-info: for a viewer-role session, paymentNotDone when a study
 * shared with the account has a pending payment; paymentPolling while one is pending (the viewer
 * keeps asking until it is paid). Other roles pay nothing here: false, false.
 */
export async function shareInfoOf(db: DbOrTx, auth: TAuth): Promise<TShareInfo> {
  if (!hasRole(auth.roles, 'ROLE_VIEWER')) return { paymentNotDone: false, paymentPolling: false };
  const [due] = await db
    .select({ id: reportStatuses.id })
    .from(reportStatuses)
    .where(pendingForViewer(auth))
    .limit(1);
  const pending = due !== undefined;
  return { paymentNotDone: pending, paymentPolling: pending };
}

/** The pending payments of a viewer account, oldest first, with the provider's pay links. */
export async function paymentDuesOf(db: DbOrTx, auth: TAuth): Promise<TPaymentDue[]> {
  if (!hasRole(auth.roles, 'ROLE_VIEWER')) return [];
  const rows = await db
    .select({
      reportStatusId: reportStatuses.id,
      patientName: reportStatuses.patientName,
      studyName: reportStatuses.studyName,
      amountMinor: studyPayments.amountMinor,
      currency: studyPayments.currency,
      note: studyPayments.note,
      payUrl: studyPayments.payUrl,
      createdAt: studyPayments.createdAt,
    })
    .from(reportStatuses)
    .innerJoin(
      studyPayments,
      and(eq(studyPayments.reportStatusId, reportStatuses.id), eq(studyPayments.status, 'PENDING')),
    )
    .where(pendingForViewer(auth))
    .orderBy(asc(studyPayments.createdAt), asc(studyPayments.id))
    .limit(DUES_SHOWN);
  return rows.map(({ createdAt, ...due }) => ({ ...due, requestedAt: createdAt.toISOString() }));
}
