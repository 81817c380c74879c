import { and, desc, eq, ilike, ne, or, sql } from 'drizzle-orm';
import {
  AppError,
  CUSTOMER_PAGE_MESSAGES as M,
  type TCenterPatient,
  type TCorrectMobileBody,
  type TGroupFlags,
  type TReportMessage,
  type TShareResponse,
  canEditStudyDetails,
  canManageCenterPatients,
  formatDicomText,
  formatPersonName,
  groupFlags,
} from '@radflow/core';
import { rowModalities } from '../../db/row-modalities.js';
import { messageOutbox, reportStatuses, studies } from '../../db/schema.js';
import { MESSAGE_NOT_ALLOWED, type TAuth } from '../../plugins/auth.js';
import { loadGroupPreferences } from '../preferences/preferences.js';
import { recordStudyEvent } from '../study-events/record-study-event.js';
import { listReportMessages } from '../study-sharing/share-delivery.js';
import { type TSharingDeps, sendShareMessage } from '../study-sharing/share-study.js';
import { withLockedStudy } from '../studies/locked-study.js';
import { scopeOfAuth, visibleReportRows } from '../studies/study-access.js';
import { loadVisibleReportRow } from '../studies/visible-row.js';

/** The newest studies of the center; a search narrows it (a center has thousands over the years). */
export const PATIENTS_SHOWN = 100;

const dicomDate = (value: string) =>
  /^\d{8}$/.test(value) ? `${value.slice(0, 4)}-${value.slice(4, 6)}-${value.slice(6, 8)}` : '';

/** The group switch decides (core `canManageCenterPatients`, the menu's own condition): 403 when off. */
function guardSwitch(auth: TAuth, flags: TGroupFlags): void {
  if (!canManageCenterPatients({ roles: auth.roles, flags })) {
    const off = flags.doNotSendWhatsappMessage;
    throw new AppError('FORBIDDEN', off ? M.managePatientOff : MESSAGE_NOT_ALLOWED);
  }
}

async function guardGroupSwitch(deps: Pick<TSharingDeps, 'ctx'>, auth: TAuth): Promise<void> {
  guardSwitch(auth, groupFlags(await loadGroupPreferences(deps.ctx.db, auth.user.groupId)));
}

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * GET /api/manage-patient/patients: the studies of the center customer's center (the one visible-row
 * rule: a center user's grant is its center), newest first, not deleted; with what was sent for each
 * (message_outbox rows of the study: count and newest time).
 */
export async function listCenterPatients(
  deps: Pick<TSharingDeps, 'ctx'>,
  auth: TAuth,
  search: string,
): Promise<TCenterPatient[]> {
  await guardGroupSwitch(deps, auth);
  const pattern = `%${escapeLike(search)}%`;
  const matches = search
    ? or(
        ilike(reportStatuses.patientName, pattern),
        ilike(reportStatuses.patientId, pattern),
        ilike(reportStatuses.mobileNumber, pattern),
      )
    : undefined;
  const sent = deps.ctx.db
    .select({
      reportStatusId: messageOutbox.reportStatusId,
      count: sql<number>`count(*)::int`.as('sent_count'),
      last: sql<Date>`max(${messageOutbox.createdAt})`.as('last_sent_at'),
    })
    .from(messageOutbox)
    .groupBy(messageOutbox.reportStatusId)
    .as('sent');
  const rows = await deps.ctx.db
    .select({
      reportStatusId: reportStatuses.id,
      studyInstanceUid: studies.studyInstanceUid,
      patientName: reportStatuses.patientName,
      patientId: reportStatuses.patientId,
      studyName: reportStatuses.studyName,
      studyDescription: studies.studyDescription,
      modalities: rowModalities,
      studyDate: studies.studyDate,
      status: reportStatuses.status,
      mobileNumber: reportStatuses.mobileNumber,
      sentCount: sent.count,
      lastSentAt: sent.last,
    })
    .from(reportStatuses)
    .innerJoin(studies, eq(studies.id, reportStatuses.studyId))
    .leftJoin(sent, eq(sent.reportStatusId, reportStatuses.id))
    .where(and(visibleReportRows(scopeOfAuth(auth)), ne(reportStatuses.status, 'DELETED'), matches))
    .orderBy(desc(reportStatuses.id))
    .limit(PATIENTS_SHOWN);
  return rows.map((r) => ({
    reportStatusId: r.reportStatusId,
    studyInstanceUid: r.studyInstanceUid,
    patientName: formatPersonName(r.patientName),
    patientId: r.patientId,
    studyName: formatDicomText(r.studyName || r.studyDescription),
    modality: r.modalities.join(', '),
    studyDate: dicomDate(r.studyDate),
    status: r.status,
    isSignedOff: r.status === 'SIGNED_OFF',
    mobileNumber: r.mobileNumber,
    sentCount: r.sentCount ?? 0,
    lastSentAt: r.lastSentAt ? new Date(r.lastSentAt).toISOString() : null,
  }));
}

/**
 * POST /api/manage-patient/send/{id}: the signed-off report's share link to the patient's mobile on
 * record, by SMS and WhatsApp (the study-sharing module's send-message: its rules, row change,
 * timeline row and providers). Sending again is allowed (a patient loses messages).
 */
export async function sendReportToPatient(
  deps: TSharingDeps,
  auth: TAuth,
  id: number,
): Promise<TShareResponse> {
  await guardGroupSwitch(deps, auth);
  const row = await loadVisibleReportRow(deps.ctx.db, auth, id, {
    status: reportStatuses.status,
    mobileNumber: reportStatuses.mobileNumber,
  });
  if (row.status !== 'SIGNED_OFF') throw new AppError('CONFLICT', M.notSignedOff, 'id');
  if (!row.mobileNumber) throw new AppError('BAD_REQUEST', M.noMobile, 'mobileNumber');
  return sendShareMessage(deps, auth, id, { number: row.mobileNumber, referringPhysician: null });
}

/** GET /api/manage-patient/messages/{id}: what was sent for the study, newest first (study-sharing's list). */
export async function listPatientMessages(
  deps: TSharingDeps,
  auth: TAuth,
  id: number,
): Promise<TReportMessage[]> {
  await guardGroupSwitch(deps, auth);
  return listReportMessages(deps, auth, id);
}

/**
 * POST /api/manage-patient/mobile/{id}: correct the patient's mobile under the row lock (Edit
 * details rules: core `canEditStudyDetails`, the mobile pattern). Compare-and-set on the number the
 * screen showed: a row changed meanwhile is 409, never overwritten. The old number is also taken
 * off `shared_numbers`: it was wrong, so it must stop opening the study as a customer. One
 * transaction with the timeline row (DETAILS_UPDATED, changed ['mobileNumber']).
 */
export async function correctPatientMobile(
  deps: Pick<TSharingDeps, 'ctx'>,
  auth: TAuth,
  id: number,
  body: TCorrectMobileBody,
): Promise<{ reportStatusId: number; mobileNumber: string }> {
  return withLockedStudy(deps.ctx, auth, id, async ({ tx, row, flags, now }) => {
    guardSwitch(auth, flags);
    const current = row.report;
    const input = { roles: auth.roles, flags, row: current, userCenterId: auth.user.centerId };
    if (!canEditStudyDetails(input)) throw new AppError('FORBIDDEN', MESSAGE_NOT_ALLOWED);
    if ((current.mobileNumber ?? null) !== (body.previousMobileNumber || null)) {
      throw new AppError('CONFLICT', M.mobileChanged, 'previousMobileNumber');
    }
    if (current.mobileNumber === body.mobileNumber) {
      return { reportStatusId: id, mobileNumber: body.mobileNumber };
    }
    const old = current.mobileNumber;
    await tx
      .update(reportStatuses)
      .set({
        mobileNumber: body.mobileNumber,
        ...(old ? { sharedNumbers: sql`array_remove(${reportStatuses.sharedNumbers}, ${old}::text)` } : {}),
        updatedAt: now,
      })
      .where(eq(reportStatuses.id, id));
    await recordStudyEvent(tx, {
      reportStatusId: id,
      type: 'DETAILS_UPDATED',
      actor: { userId: auth.user.id },
      fromStatus: current.status,
      toStatus: current.status,
      payload: { changed: ['mobileNumber'] },
      at: now,
    });
    return { reportStatusId: id, mobileNumber: body.mobileNumber };
  });
}
