import { eq, sql } from 'drizzle-orm';
import {
  AppError,
  MESSAGES,
  REPORT_DOCUMENT_MESSAGES as M,
  type TReportDocumentRequest,
  buildShareUrl,
  canPrint,
  canSendCustomHtml,
  checkReportDocument,
  customerMustPayFirst,
  groupFlags,
  isTeleUser,
} from '@radflow/core';
import type { AppContext } from '../../context.js';
import { reportStatuses, reports, studies } from '../../db/schema.js';
import type { TAuth } from '../../plugins/auth.js';
import { loadVisibleReportRow } from '../studies/visible-row.js';
import { loadGroupPreferences } from '../preferences/preferences.js';
import { sanitizeReportHtml } from '../preferences/sanitize-report-html.js';
import { recordStudyEvent } from '../study-events/record-study-event.js';
import { withLockedStudy } from '../studies/locked-study.js';
import { ensureShareLink } from '../share-links/share-link.js';
import { type TRenderedDocument, type TReportDocumentFormat, renderWithKnown } from './render-report.js';

/*
 * POST /pdf/download, /pdf/download-images, /pdf/word (issue 7 §4): who may have which document
 * (core checkReportDocument, the rule the download menu uses), the defaults of the group's
 * letterhead and QR switches, then the document; a print is recorded after the document is made.
 */

export interface TDocumentCall {
  format: TReportDocumentFormat;
  withImages: boolean;
  /** config PUBLIC_URL, else the address the request came to: the base of the QR's share link. */
  publicUrl: string;
}

const hasReports = sql<boolean>`exists (select 1 from ${reports} where ${reports.reportStatusId} = ${reportStatuses.id})`;

export async function downloadReportDocument(
  ctx: AppContext,
  auth: TAuth,
  body: TReportDocumentRequest,
  call: TDocumentCall,
): Promise<TRenderedDocument> {
  const id = body.reportStatusId;
  const row = await loadVisibleReportRow(ctx.db, auth, id, {
    status: reportStatuses.status,
    groupId: reportStatuses.groupId,
    uid: studies.studyInstanceUid,
    shareLink: reportStatuses.shareLink,
    paymentStatus: reportStatuses.paymentStatus,
    hasReports,
  });
  if (row.uid !== body.uid) throw new AppError('BAD_REQUEST', M.uidMismatch, 'uid');
  // The patient pays for this study before its report (customer-pages/DECISIONS.md): per study.
  if (customerMustPayFirst(auth.roles, row.paymentStatus)) {
    throw new AppError('PAYMENT_REQUIRED', MESSAGES.paymentNeeded, 'reportStatusId');
  }
  const flags = groupFlags(await loadGroupPreferences(ctx.db, row.groupId));
  const print = body.print === true;
  const refusal = checkReportDocument({
    roles: auth.roles,
    flags,
    teleUser: isTeleUser(auth.roles),
    row: { status: row.status, hasReports: row.hasReports },
    format: call.format,
    print,
  });
  if (refusal) throw new AppError(refusal.kind, refusal.message, 'reportStatusId');

  let customHtml: string | null = null;
  if (body.customHtml != null) {
    if (!canSendCustomHtml({ roles: auth.roles, flags, row })) {
      throw new AppError('FORBIDDEN', M.customHtmlNotAllowed, 'customHtml');
    }
    customHtml = sanitizeReportHtml(body.customHtml);
  }
  const appendQr = body.appendQr ?? flags.appendQrCodeToReport;
  // A row keeps its link once made: only the first QR writes.
  const token = appendQr ? (row.shareLink ?? (await ensureShareLink(ctx.db, id, ctx.now()))) : null;
  const shareUrl = token === null ? null : buildShareUrl(call.publicUrl, token);
  const document = await renderWithKnown(
    ctx,
    {
      reportStatusId: id,
      format: call.format,
      withHeader: body.showTemplate ?? flags.downloadReportWithLetterhead,
      withImages: call.withImages,
      appendQr,
      shareUrl,
      customHtml,
      reportName: body.reportName ?? null,
    },
    { showPatientId: flags.showPatientIdInReportPage, displayTimeZone: flags.displayTimeZone },
  );
  if (print) await recordPrint(ctx, auth, id);
  return document;
}

/**
 * The center printed the report: printed_at, the Reprint Needed mark cleared (a later re-sign-off
 * sets it again, reporting/save-report.ts), and the timeline row, in one transaction under the row
 * lock. The rule is checked again on the locked row: it may have been reworked meanwhile.
 */
async function recordPrint(ctx: AppContext, auth: TAuth, id: number): Promise<void> {
  await withLockedStudy(ctx, auth, id, async ({ tx, row, now }) => {
    const status = row.report.status;
    const [{ count } = { count: 0 }] = await tx
      .select({ count: sql<number>`count(*)::int` })
      .from(reports)
      .where(eq(reports.reportStatusId, id));
    if (!canPrint({ row: { status, hasReports: count > 0 } })) {
      throw new AppError('CONFLICT', M.printNeedsSignOff, 'status');
    }
    await tx
      .update(reportStatuses)
      .set({ printedAt: now, signedOffAfterPrint: false, updatedAt: now })
      .where(eq(reportStatuses.id, id));
    await recordStudyEvent(tx, {
      reportStatusId: id,
      type: 'REPORT_PRINTED',
      actor: { userId: auth.user.id },
      fromStatus: status,
      toStatus: status,
      payload: { reprint: row.report.printedAt !== null },
    });
  });
}

/**
 * Content-Disposition of a document (RFC 6266): an ASCII `filename` for old clients (accents
 * dropped, other characters '_') and the UTF-8 name in `filename*` (RFC 5987).
 */
export function attachmentDisposition(fileName: string): string {
  const ascii = fileName
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^\x20-\x7e]/g, '_')
    .replace(/["\\]/g, '_');
  const encoded = encodeURIComponent(fileName).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}
