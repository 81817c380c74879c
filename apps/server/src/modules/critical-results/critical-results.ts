import { type SQL, and, asc, desc, eq, inArray, isNull, like, sql } from 'drizzle-orm';
import {
  AppError,
  CRITICAL_RESULT_CATEGORY_LABELS,
  CRITICAL_RESULT_MESSAGES as M,
  type TCriticalResult,
  type TCriticalResultRefusal,
  type TRaiseCriticalResultRequest,
  checkAcknowledgeCriticalResult,
  checkRaiseCriticalResult,
  criticalResultStateOf,
  criticalResultSteps,
  escalationDueAt,
  escalationMinutesOf,
  formatDicomText,
  formatPersonName,
} from '@radflow/core';
import type { AppContext } from '../../context.js';
import type { DbOrTx } from '../../db/client.js';
import { centers, criticalResults, reportStatuses, studyEvents, users } from '../../db/schema.js';
import type { TAuth } from '../../plugins/auth.js';
import { recordStudyEvent } from '../study-events/record-study-event.js';
import { withLockedStudy } from '../studies/locked-study.js';
import { scopeOfAuth, visibleReportRows } from '../studies/study-access.js';
import { loadVisibleReport } from '../studies/visible-row.js';
import { type TAddressee, deliverCriticalResult } from './critical-delivery.js';

/** The open list's length: open critical results are few; a page is enough for a banner. */
const OPEN_SHOWN = 200;

function throwIfRefused(refusal: TCriticalResultRefusal | null): void {
  if (refusal) throw new AppError(refusal.kind, refusal.message, refusal.field);
}

/**
 * POST /critical-results: the doctor who may write the row's report marks a finding critical. The
 * result and its CRITICAL_RESULT_RAISED event commit together under the row lock; then it goes at
 * once to the center and the referring doctor by SMS and e-mail (each accepted message a
 * CRITICAL_RESULT_DELIVERED event).
 */
export async function raiseCriticalResult(
  ctx: AppContext,
  auth: TAuth,
  body: TRaiseCriticalResultRequest,
  linkBase: string | null,
): Promise<TCriticalResult> {
  const raised = await withLockedStudy(ctx, auth, body.entityId, async ({ tx, row, flags, now }) => {
    const r = row.report;
    throwIfRefused(checkRaiseCriticalResult({ roles: auth.roles, userId: auth.user.id, row: r }));
    const minutes = escalationMinutesOf(flags);
    const [result] = await tx
      .insert(criticalResults)
      .values({
        reportStatusId: r.id,
        groupId: r.groupId,
        category: body.category,
        finding: body.finding,
        raisedByUserId: auth.user.id,
        raisedAt: now,
        escalateAfterMinutes: minutes,
        escalationDueAt: escalationDueAt(now, minutes),
      })
      .returning();
    if (!result) throw new Error('critical result not inserted');
    await recordStudyEvent(tx, {
      type: 'CRITICAL_RESULT_RAISED',
      reportStatusId: r.id,
      actor: { userId: auth.user.id },
      fromStatus: r.status,
      toStatus: r.status,
      payload: { criticalResultId: result.id, category: body.category, finding: body.finding },
      at: now,
    });
    return { result, row: r };
  });
  const addressees = await addresseesOfRow(ctx.db, raised.row);
  await deliverCriticalResult(ctx, {
    result: raised.result,
    row: raised.row,
    addressees,
    subject: `Critical result: ${describe(raised.row)}`,
    body: messageText(raised.result, raised.row, doctorName(auth), linkBase),
  });
  return oneResult(ctx.db, auth, raised.result.id);
}

/** The center (its e-mail and contact mobile) and the referring doctor (the linked user, else the row's e-mail). */
async function addresseesOfRow(
  db: DbOrTx,
  row: { centerId: number; referringDoctorUserId: number | null; referringPhysicianEmail: string | null },
): Promise<TAddressee[]> {
  const out: TAddressee[] = [];
  const [center] = await db
    .select({ email: centers.email, mobile: centers.contactMobile })
    .from(centers)
    .where(eq(centers.id, row.centerId));
  if (center?.email) out.push({ channel: 'EMAIL', to: center.email });
  if (center?.mobile) out.push({ channel: 'SMS', to: center.mobile });
  if (row.referringDoctorUserId !== null) {
    const [doctor] = await db
      .select({ email: users.email, mobile: users.mobileNumber })
      .from(users)
      .where(and(eq(users.id, row.referringDoctorUserId), eq(users.active, true)));
    if (doctor?.email) out.push({ channel: 'EMAIL', to: doctor.email });
    if (doctor?.mobile) out.push({ channel: 'SMS', to: doctor.mobile });
  } else if (row.referringPhysicianEmail) {
    out.push({ channel: 'EMAIL', to: row.referringPhysicianEmail });
  }
  return out;
}

const doctorName = (auth: TAuth) => auth.user.identifier || auth.user.email;

function describe(row: { id: number; patientName: string; studyName: string }): string {
  const parts = [formatPersonName(row.patientName), formatDicomText(row.studyName)].filter(Boolean);
  return parts.length > 0 ? parts.join(', ') : `study ${row.id}`;
}

function messageText(
  result: typeof criticalResults.$inferSelect,
  row: { id: number; patientName: string; studyName: string },
  raisedBy: string,
  linkBase: string | null,
): string {
  const link = linkBase ? ` Acknowledge it in Radflow: ${linkBase}/` : ' Please acknowledge it in Radflow.';
  return (
    `CRITICAL RESULT (${CRITICAL_RESULT_CATEGORY_LABELS[result.category]}) for ${describe(row)}, ` +
    `raised by ${raisedBy}: ${result.finding}.${link}`
  );
}

/**
 * POST /critical-results/:id/acknowledge: the row's center staff, its referring doctor, or after
 * escalation a group admin. Idempotent: a result already acknowledged answers as it stands (the first
 * acknowledgment) and writes nothing, so two people pressing at once both see it done.
 */
export async function acknowledgeCriticalResult(
  ctx: AppContext,
  auth: TAuth,
  id: number,
): Promise<TCriticalResult> {
  const now = ctx.now();
  await ctx.db.transaction(async (tx) => {
    const [found] = await tx
      .select({ result: criticalResults, row: reportStatuses })
      .from(criticalResults)
      .innerJoin(reportStatuses, eq(reportStatuses.id, criticalResults.reportStatusId))
      .where(and(eq(criticalResults.id, id), visibleReportRows(scopeOfAuth(auth))))
      .for('update', { of: criticalResults });
    if (!found) throw new AppError('NOT_FOUND', M.notFound, 'id');
    const { result, row } = found;
    const state = criticalResultStateOf(result);
    throwIfRefused(
      checkAcknowledgeCriticalResult({
        user: { roles: auth.roles, userId: auth.user.id, centerId: auth.user.centerId },
        row,
        state,
      }),
    );
    if (state === 'ACKNOWLEDGED') return;
    await tx
      .update(criticalResults)
      .set({ acknowledgedAt: now, acknowledgedByUserId: auth.user.id })
      .where(eq(criticalResults.id, id));
    await recordStudyEvent(tx, {
      type: 'CRITICAL_RESULT_ACKNOWLEDGED',
      reportStatusId: row.id,
      actor: { userId: auth.user.id },
      fromStatus: row.status,
      toStatus: row.status,
      payload: { criticalResultId: id, by: auth.user.email },
      at: now,
    });
  });
  return oneResult(ctx.db, auth, id);
}

/** GET /critical-results?entityId=: the row's critical results (newest first) with their steps. */
export async function listCriticalResults(
  ctx: AppContext,
  auth: TAuth,
  reportStatusId: number,
): Promise<TCriticalResult[]> {
  const row = await loadVisibleReport(ctx.db, auth, reportStatusId);
  return readResults(ctx.db, auth, eq(criticalResults.reportStatusId, row.id));
}

/**
 * GET /critical-results/open: the unacknowledged results on the rows the caller may see (the access
 * rule in the WHERE), newest first, each saying whether the caller may acknowledge it: the banner
 * shows those, the study list marks every row of the list.
 */
export async function listOpenCriticalResults(ctx: AppContext, auth: TAuth): Promise<TCriticalResult[]> {
  return readResults(ctx.db, auth, isNull(criticalResults.acknowledgedAt), OPEN_SHOWN);
}

async function oneResult(db: DbOrTx, auth: TAuth, id: number): Promise<TCriticalResult> {
  const [result] = await readResults(db, auth, eq(criticalResults.id, id));
  if (!result) throw new AppError('NOT_FOUND', M.notFound, 'id');
  return result;
}

const raiser = sql<
  string | null
>`(select coalesce(nullif(u.identifier, ''), u.email) from users u where u.id = ${criticalResults.raisedByUserId})`;
const acknowledger = sql<
  string | null
>`(select coalesce(nullif(u.identifier, ''), u.email) from users u where u.id = ${criticalResults.acknowledgedByUserId})`;

async function readResults(db: DbOrTx, auth: TAuth, where: SQL, limit?: number): Promise<TCriticalResult[]> {
  const query = db
    .select({
      result: criticalResults,
      centerId: reportStatuses.centerId,
      referringDoctorUserId: reportStatuses.referringDoctorUserId,
      patientName: reportStatuses.patientName,
      studyName: reportStatuses.studyName,
      raisedBy: raiser,
      acknowledgedBy: acknowledger,
    })
    .from(criticalResults)
    .innerJoin(reportStatuses, eq(reportStatuses.id, criticalResults.reportStatusId))
    .where(and(where, eq(criticalResults.groupId, auth.user.groupId), visibleReportRows(scopeOfAuth(auth))))
    .orderBy(desc(criticalResults.id));
  const rows = limit ? await query.limit(limit) : await query;
  if (rows.length === 0) return [];
  const events = await stepsOf(db, [...new Set(rows.map((r) => r.result.reportStatusId))]);
  return rows.map(({ result, ...row }) => {
    const state = criticalResultStateOf(result);
    return {
      id: result.id,
      entityId: result.reportStatusId,
      patientName: row.patientName,
      studyName: row.studyName,
      category: result.category,
      finding: result.finding,
      state,
      raisedAt: result.raisedAt.toISOString(),
      raisedBy: row.raisedBy,
      escalationDueAt: result.escalationDueAt.toISOString(),
      escalatedAt: result.escalatedAt?.toISOString() ?? null,
      acknowledgedAt: result.acknowledgedAt?.toISOString() ?? null,
      acknowledgedBy: row.acknowledgedBy,
      canAcknowledge:
        state !== 'ACKNOWLEDGED' &&
        checkAcknowledgeCriticalResult({
          user: { roles: auth.roles, userId: auth.user.id, centerId: auth.user.centerId },
          row,
          state,
        }) === null,
      steps: criticalResultSteps(result.id, events),
    };
  });
}

/** The critical-result events of these rows, oldest first, with the acting user's name. */
async function stepsOf(db: DbOrTx, reportStatusIds: number[]) {
  const rows = await db
    .select({
      eventType: studyEvents.eventType,
      detail: studyEvents.detail,
      createdAt: studyEvents.createdAt,
      actorName: users.identifier,
      actorEmail: users.email,
    })
    .from(studyEvents)
    .leftJoin(users, eq(users.id, studyEvents.actorUserId))
    .where(
      and(
        inArray(studyEvents.reportStatusId, reportStatusIds),
        like(studyEvents.eventType, 'CRITICAL_RESULT_%'),
      ),
    )
    .orderBy(asc(studyEvents.createdAt), asc(studyEvents.id));
  return rows.map((r) => ({
    ...r,
    detail: r.detail as Record<string, unknown> | null,
    createdAt: r.createdAt.toISOString(),
  }));
}
