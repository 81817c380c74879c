import { type AnyColumn, and, eq, sql } from 'drizzle-orm';
import type { z } from 'zod';
import {
  AppError,
  type TShareResponse,
  type ZSaveReferringDoctorRequest,
  type ZSendEmailRequest,
  type ZSendMessageRequest,
  buildShareUrl,
  canSendToReferringDoctor,
  formatDicomText,
  formatPersonName,
  groupFlags,
  type TStudyEventPayloads,
} from '@radflow/core';
import type { AppContext } from '../../context.js';
import type { Tx } from '../../db/client.js';
import { reportStatuses, users } from '../../db/schema.js';
import { MESSAGE_NOT_ALLOWED, type TAuth } from '../../plugins/auth.js';
import { loadGroupPreferences } from '../preferences/preferences.js';
import { recordStudyEvent } from '../study-events/record-study-event.js';
import { type TVisibleReport, loadVisibleReport } from '../studies/visible-row.js';
import { renderReportDocument } from '../report-documents/render-report.js';
import { ensureShareLink, newShareToken, shareLinkColumns } from '../share-links/share-link.js';
import { loadCenterContact, patientMessageText } from './patient-message.js';
import { hasSignedMainReport, signedReportsOf } from './signed-reports.js';

export interface TSharingDeps {
  /** The providers too (ctx.sms, ctx.whatsapp, ctx.email). */
  ctx: AppContext;
  /** Where users reach us (config PUBLIC_URL), else the address of the request. */
  publicUrl: string;
}

/**
 * The study, visible to the caller (404) and shareable by them on its status with the group's
 * switches (core canSendToReferringDoctor: center users on their own center's studies; doctors with
 * radiologistCanSendToReferringDoctor; never a deleted study) — else 403.
 */
export async function loadShareableReport(ctx: AppContext, auth: TAuth, reportStatusId: number) {
  const report = await loadVisibleReport(ctx.db, auth, reportStatusId);
  const flags = groupFlags(await loadGroupPreferences(ctx.db, report.groupId));
  if (
    !canSendToReferringDoctor({ roles: auth.roles, flags, row: report, userCenterId: auth.user.centerId })
  ) {
    throw new AppError('FORBIDDEN', MESSAGE_NOT_ALLOWED);
  }
  return { report, flags };
}

/** POST /report-status/save: share the study with a referring doctor (ROLE_REFERRING_DOCTOR) of the group. */
export async function saveReferringDoctor(
  ctx: AppContext,
  auth: TAuth,
  input: z.output<typeof ZSaveReferringDoctorRequest>,
) {
  const { report } = await loadShareableReport(ctx, auth, input.reportStatusId);
  if (input.studyId != null && input.studyId !== report.studyId) {
    throw new AppError('BAD_REQUEST', 'studyId is not the study of this report', 'studyId');
  }
  const [doctor] = await ctx.db
    .select({ id: users.id, email: users.email })
    .from(users)
    .where(
      and(
        sql`lower(${users.email}) = ${input.referringDoctorEmail}`,
        eq(users.groupId, report.groupId),
        eq(users.active, true),
        sql`'ROLE_REFERRING_DOCTOR' = any(${users.roles})`,
      ),
    );
  if (!doctor) {
    throw new AppError(
      'BAD_REQUEST',
      'No referring doctor of this group has that e-mail',
      'referringDoctorEmail',
    );
  }
  await ctx.db.transaction(async (tx) => {
    await tx
      .update(reportStatuses)
      .set({ referringDoctorUserId: doctor.id, referringPhysicianEmail: doctor.email })
      .where(eq(reportStatuses.id, report.id));
    await insertEvent(ctx, tx, auth, report, 'REFERRING_DOCTOR_SAVED', {
      referringDoctorEmail: doctor.email,
    });
  });
  return { reportStatusId: report.id, referringDoctorEmail: doctor.email };
}

/** A sharing event: by the caller, now, the row's status unchanged. */
function insertEvent<T extends TSharingEvent>(
  ctx: AppContext,
  tx: Tx,
  auth: TAuth,
  report: TVisibleReport,
  type: T,
  payload: TStudyEventPayloads[T],
) {
  return recordStudyEvent(tx, {
    reportStatusId: report.id,
    type,
    actor: { userId: auth.user.id },
    fromStatus: report.status,
    toStatus: report.status,
    payload,
    at: ctx.now(),
  });
}

type TSharingEvent = 'REFERRING_DOCTOR_SAVED' | 'SHARED_BY_MESSAGE' | 'SHARED_BY_EMAIL';

/**
 * Records a recipient on the row (distinct) and gives the row a share link if it has none, in one
 * statement under the transaction, with the timeline event (../share-links/share-link.ts: the token and when it
 * was made).
 */
async function recordShare<T extends 'SHARED_BY_MESSAGE' | 'SHARED_BY_EMAIL'>(
  ctx: AppContext,
  auth: TAuth,
  report: TVisibleReport,
  to: { number: string } | { email: string },
  eventType: T,
  detail: TStudyEventPayloads[T],
) {
  const token = newShareToken();
  return ctx.db.transaction(async (tx) => {
    const appendDistinct = (column: AnyColumn, value: string) =>
      sql`case when ${value}::text = any(${column}) then ${column} else array_append(${column}, ${value}::text) end`;
    const recipient =
      'number' in to
        ? { sharedNumbers: appendDistinct(reportStatuses.sharedNumbers, to.number) }
        : { sharedEmails: appendDistinct(reportStatuses.sharedEmails, to.email) };
    const [row] = await tx
      .update(reportStatuses)
      .set({ ...shareLinkColumns(token, ctx.now()), ...recipient })
      .where(eq(reportStatuses.id, report.id))
      .returning({
        shareLink: reportStatuses.shareLink,
        sharedNumbers: reportStatuses.sharedNumbers,
        sharedEmails: reportStatuses.sharedEmails,
      });
    if (!row?.shareLink) throw new Error('report row vanished while sharing');
    await insertEvent(ctx, tx, auth, report, eventType, detail);
    return { ...row, shareLink: row.shareLink };
  });
}

function describeStudy(report: TVisibleReport): string {
  const parts = [formatPersonName(report.patientName), formatDicomText(report.studyName)].filter(Boolean);
  return parts.length > 0 ? parts.join(', ') : `study ${report.id}`;
}

/**
 * POST /report-status/send-message/{id}: SMS, and WhatsApp unless the group's
 * doNotSendWhatsappMessage is on, both carrying the share link. The row change commits first; the
 * messages go out after (a provider failure does not undo the recorded share).
 */
export async function sendShareMessage(
  deps: TSharingDeps,
  auth: TAuth,
  reportStatusId: number,
  input: z.output<typeof ZSendMessageRequest>,
): Promise<TShareResponse> {
  const { ctx } = deps;
  const { report, flags } = await loadShareableReport(ctx, auth, reportStatusId);
  const channels: Array<'SMS' | 'WHATSAPP'> = flags.doNotSendWhatsappMessage ? ['SMS'] : ['SMS', 'WHATSAPP'];
  const shared = await recordShare(ctx, auth, report, { number: input.number }, 'SHARED_BY_MESSAGE', {
    number: input.number,
    referringPhysician: input.referringPhysician ?? null,
    channels,
  });
  const url = buildShareUrl(deps.publicUrl, shared.shareLink);
  // The dialog offers the row's referring physician as stored (a DICOM PN such as 'Kim^Minjun^^Dr.').
  const physician = formatPersonName(input.referringPhysician);
  const greeting = physician ? `Dear ${physician}, the` : 'The';
  // No physician named: the message goes to the patient (patient-message.ts).
  const body =
    !physician && flags.customMessageForGIC
      ? patientMessageText({
          patientName: report.patientName,
          studyName: report.studyName,
          center: await loadCenterContact(ctx.db, report.centerId),
          url,
        })
      : `${greeting} report of ${describeStudy(report)} is shared with you: ${url}`;
  const message = { to: input.number, body, reportStatusId: report.id };
  await ctx.sms.send(message);
  if (channels.includes('WHATSAPP')) await ctx.whatsapp.send(message);
  return { ...shared, shareLink: url, channels };
}

/**
 * POST /report-status/send-email/{id}: one e-mail with the share link through the e-mail provider,
 * and the report PDF attached once the study is signed off (the group's letterhead and QR switches
 * apply, as on the share page). The PDF is made before the share is recorded: when it cannot be made
 * nothing is sent and no share is recorded (the row may keep the link the PDF's QR needed).
 */
export async function sendShareEmail(
  deps: TSharingDeps,
  auth: TAuth,
  reportStatusId: number,
  input: z.output<typeof ZSendEmailRequest>,
): Promise<TShareResponse> {
  const { ctx } = deps;
  const { report, flags } = await loadShareableReport(ctx, auth, reportStatusId);
  const pdf = hasSignedMainReport(await signedReportsOf(ctx.db, report))
    ? await renderReportDocument(ctx, {
        reportStatusId: report.id,
        format: 'PDF',
        withHeader: flags.downloadReportWithLetterhead,
        withImages: false,
        appendQr: flags.appendQrCodeToReport,
        shareUrl: buildShareUrl(deps.publicUrl, await ensureShareLink(ctx.db, report.id, ctx.now())),
      })
    : null;
  const shared = await recordShare(ctx, auth, report, { email: input.email }, 'SHARED_BY_EMAIL', {
    email: input.email,
  });
  const url = buildShareUrl(deps.publicUrl, shared.shareLink);
  const attached = pdf ? '\nThe report is attached as a PDF.\n' : '';
  await ctx.email.send({
    to: input.email,
    subject: `Report shared with you: ${describeStudy(report)}`,
    body: `The report of ${describeStudy(report)} is shared with you.\n\nOpen it here: ${url}\n${attached}`,
    reportStatusId: report.id,
    attachments: pdf ? [{ filename: pdf.fileName, content: pdf.bytes, contentType: pdf.contentType }] : [],
  });
  return { ...shared, shareLink: url, channels: ['EMAIL'] };
}
