import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import {
  AppError,
  FORWARDING_MESSAGES,
  type TForwardRecord,
  type TForwardStatusResponse,
  caseSendBadge,
  formatForwardFailure,
  sendPercentage,
} from '@radflow/core';
import type { AppContext } from '../../context.js';
import type { DbOrTx } from '../../db/client.js';
import { forwardSendInstances, forwardSends, instances, reportStatuses, studies } from '../../db/schema.js';
import type { TAuth } from '../../plugins/auth.js';
import { recordStudyEvent } from '../study-events/record-study-event.js';
import { visibleReportRows } from '../studies/study-access.js';
import { loadVisibleReportRow } from '../studies/visible-row.js';
import { assertForwardingEnabled, scopeOf } from './forwarding-access.js';
import { findUsablePacs } from './forwarding-pacs.js';

/**
 * Forwarding a study to a PACS (issue 3 §6). A send copies the destination and lists every
 * instance of the study as PENDING; the worker (forward-worker.ts) does the C-STOREs. See FORWARDING.md.
 */

/**
 * A report-status row the caller may see (`visibleReportRows`: the row, not just its study, so a
 * split study's sibling row stays closed), else 404 (existence is not told).
 */
const findVisibleReport = (db: DbOrTx, auth: TAuth, reportStatusId: number) =>
  loadVisibleReportRow(
    db,
    auth,
    reportStatusId,
    { reportStatusId: reportStatuses.id, studyId: studies.id, studyInstanceUid: studies.studyInstanceUid },
    FORWARDING_MESSAGES.studyNotFound,
  );

/** POST /api/forward/send: records the send and its instances; the worker picks them up. */
export async function createForwardSend(
  ctx: AppContext,
  auth: TAuth,
  input: { reportStatusId: number; pacsId: number },
): Promise<TForwardRecord> {
  await assertForwardingEnabled(ctx.db, auth.user.groupId);
  const report = await findVisibleReport(ctx.db, auth, input.reportStatusId);
  const pacs = await findUsablePacs(ctx.db, auth, input.pacsId);
  const now = ctx.now();
  const sendId = await ctx.db.transaction(async (tx) => {
    const studyInstances = await tx
      .select({ id: instances.id, sopInstanceUid: instances.sopInstanceUid })
      .from(instances)
      .where(eq(instances.studyId, report.studyId))
      .orderBy(asc(instances.seriesId), asc(instances.instanceNumber), asc(instances.id));
    if (studyInstances.length === 0) throw new AppError('BAD_REQUEST', FORWARDING_MESSAGES.noInstances);
    const [send] = await tx
      .insert(forwardSends)
      .values({
        reportStatusId: report.reportStatusId,
        studyId: report.studyId,
        studyInstanceUid: report.studyInstanceUid,
        pacsId: pacs.id,
        aeTitle: pacs.aeTitle,
        host: pacs.host,
        port: pacs.port,
        status: 'IN_PROGRESS',
        createdBy: auth.user.id,
        createdAt: now,
        updatedAt: now,
      })
      .returning({ id: forwardSends.id });
    if (!send) throw new Error('forward send insert returned no row');
    await tx.insert(forwardSendInstances).values(
      studyInstances.map((i) => ({
        sendId: send.id,
        instanceId: i.id,
        sopInstanceUid: i.sopInstanceUid,
        status: 'PENDING' as const,
        nextAttemptAt: now,
      })),
    );
    await recordStudyEvent(tx, {
      reportStatusId: report.reportStatusId,
      type: 'FORWARD_REQUESTED',
      actor: { userId: auth.user.id },
      payload: { sendId: send.id, aeTitle: pacs.aeTitle, destination: `${pacs.host}:${pacs.port}` },
    });
    return send.id;
  });
  const [record] = await loadRecords(ctx.db, { sendIds: [sendId] });
  if (!record) throw new Error('forward send vanished');
  return record;
}

/** POST /api/forward/{sendId}/resend: the failed instances go back to PENDING with fresh attempts. */
export async function resendFailed(ctx: AppContext, auth: TAuth, sendId: number): Promise<TForwardRecord> {
  await assertForwardingEnabled(ctx.db, auth.user.groupId);
  const [send] = await ctx.db
    .select({ id: forwardSends.id, reportStatusId: forwardSends.reportStatusId })
    .from(forwardSends)
    .innerJoin(reportStatuses, eq(reportStatuses.id, forwardSends.reportStatusId))
    .where(and(eq(forwardSends.id, sendId), visibleReportRows(scopeOf(auth))));
  if (!send) throw new AppError('NOT_FOUND', 'Send not found');
  const now = ctx.now();
  await ctx.db.transaction(async (tx) => {
    const reset = await tx
      .update(forwardSendInstances)
      .set({ status: 'PENDING', attempts: 0, lastError: null, nextAttemptAt: now, leaseUntil: null })
      .where(and(eq(forwardSendInstances.sendId, send.id), eq(forwardSendInstances.status, 'FAILED')))
      .returning({ id: forwardSendInstances.id });
    if (reset.length === 0) throw new AppError('CONFLICT', FORWARDING_MESSAGES.nothingToResend);
    await tx
      .update(forwardSends)
      .set({ status: 'IN_PROGRESS', lastError: null, updatedAt: now })
      .where(eq(forwardSends.id, send.id));
    await recordStudyEvent(tx, {
      reportStatusId: send.reportStatusId,
      type: 'FORWARD_RESENT',
      actor: { userId: auth.user.id },
      payload: { sendId: send.id, instances: reset.length },
    });
  });
  const [record] = await loadRecords(ctx.db, { sendIds: [send.id] });
  if (!record) throw new Error('forward send vanished');
  return record;
}

/**
 * GET /api/forward/status: per requested study the caller may see, its sends (newest first) with
 * counts and the case-send badge. Studies the caller may not see are left out.
 */
export async function forwardStatus(
  ctx: AppContext,
  auth: TAuth,
  reportStatusIds: number[],
): Promise<TForwardStatusResponse> {
  await assertForwardingEnabled(ctx.db, auth.user.groupId);
  if (reportStatusIds.length === 0) return { studies: [] };
  const visible = await ctx.db
    .select({ id: reportStatuses.id })
    .from(reportStatuses)
    .where(and(inArray(reportStatuses.id, reportStatusIds), visibleReportRows(scopeOf(auth))));
  const ids = visible.map((v) => v.id);
  const records = await loadRecords(ctx.db, { reportStatusIds: ids });
  return {
    studies: reportStatusIds
      .filter((id) => ids.includes(id))
      .map((id) => {
        const own = records.filter((r) => r.reportStatusId === id);
        return { reportStatusId: id, badge: caseSendBadge(own), records: own };
      }),
  };
}

/** Send records with their instance counts, newest first. */
export async function loadRecords(
  db: DbOrTx,
  by: { sendIds: number[] } | { reportStatusIds: number[] },
): Promise<TForwardRecord[]> {
  const where =
    'sendIds' in by
      ? inArray(forwardSends.id, by.sendIds)
      : inArray(forwardSends.reportStatusId, by.reportStatusIds);
  if (('sendIds' in by ? by.sendIds : by.reportStatusIds).length === 0) return [];
  const i = forwardSendInstances;
  const rows = await db
    .select({
      send: forwardSends,
      total: sql<number>`count(${i.id})::int`,
      pending: sql<number>`(count(${i.id}) filter (where ${i.status} = 'PENDING'))::int`,
      success: sql<number>`(count(${i.id}) filter (where ${i.status} = 'SEND'))::int`,
      failed: sql<number>`(count(${i.id}) filter (where ${i.status} = 'FAILED'))::int`,
      nextRetryAt: sql<string | null>`min(${i.nextAttemptAt}) filter (where ${i.status} = 'FAILED')`,
    })
    .from(forwardSends)
    .leftJoin(i, eq(i.sendId, forwardSends.id))
    .where(where)
    .groupBy(forwardSends.id)
    .orderBy(desc(forwardSends.createdAt), desc(forwardSends.id));
  return rows.map(({ send, total, pending, success, failed, nextRetryAt }) => ({
    id: send.id,
    reportStatusId: send.reportStatusId,
    studyInstanceId: send.studyInstanceUid,
    status: send.status,
    aeTitle: send.aeTitle,
    destination: `${send.host}:${send.port}`,
    total,
    pending,
    success,
    failed,
    percentage: sendPercentage(success, total),
    nextRetryAt: nextRetryAt === null ? null : new Date(nextRetryAt).toISOString(),
    lastError: send.lastError,
    failureMessage:
      send.status === 'FAILED'
        ? formatForwardFailure(
            send.reportStatusId,
            send.lastError ?? `${failed} of ${total} instances failed`,
          )
        : null,
    createdAt: send.createdAt.toISOString(),
    updatedAt: send.updatedAt.toISOString(),
  }));
}
