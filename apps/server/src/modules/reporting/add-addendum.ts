import { eq } from 'drizzle-orm';
import {
  type TReportAddendumRequest,
  checkAddendum,
  checkReportWriter,
  reSignOffEffects,
  reportingActorOf,
} from '@radflow/core';
import type { AppContext } from '../../context.js';
import type { Tx } from '../../db/client.js';
import { reportStatuses, reports } from '../../db/schema.js';
import type { TAuth } from '../../plugins/auth.js';
import { recordStudyEvent } from '../study-events/record-study-event.js';
import { withLockedStudy } from '../studies/locked-study.js';
import { addReportVersion, lockMainReport, signatureSnapshotOf } from './reporting.repository.js';
import { writeReportSearchText } from './report-search-text.js';
import { cleanReportContent, throwIfRefused } from './report-writes.js';

/**
 * POST /report/addendum/{id}: an addendum after sign-off (issue 7 §2), a report of its own signed
 * now by the doctor who signed off the report. The study stays SIGNED_OFF; a printed one must be
 * re-printed (signedOffAfterPrint, and the spec's re-sign-off alert).
 */
export async function addAddendum(
  ctx: AppContext,
  auth: TAuth,
  id: number,
  body: TReportAddendumRequest,
  /** Runs in the addendum's transaction (the router's resolution record, apps/router/HYBRID.md). */
  alsoInAddendum?: (tx: Tx, savedVersion: number) => Promise<void>,
): Promise<{ alert: string | null; savedVersion: number }> {
  throwIfRefused(
    checkReportWriter(auth.roles, reportingActorOf(auth.roles, { awaitingVerification: false })),
  );
  return withLockedStudy(ctx, auth, id, async ({ tx, row, now }) => {
    const r = row.report;
    const main = await lockMainReport(tx, id);
    throwIfRefused(
      checkAddendum({
        roles: auth.roles,
        userId: auth.user.id,
        row: { status: r.status },
        signedOffByUserId: main?.signedOffByUserId ?? null,
      }),
    );
    const content = cleanReportContent(body.content, true);
    const [created] = await tx
      .insert(reports)
      .values({
        reportStatusId: id,
        name: body.name,
        contentHtml: content,
        doctorUserId: auth.user.id,
        typedByUserId: auth.user.id,
        isAddendum: true,
        signedOffByUserId: auth.user.id,
        signedOffAt: now,
        ...(await signatureSnapshotOf(tx, auth.user)),
        createdAt: now,
        updatedAt: now,
      })
      .returning({ id: reports.id });
    if (!created) throw new Error('addendum: insert returned no row');
    const version = await addReportVersion(tx, {
      reportId: created.id,
      name: body.name,
      contentHtml: content,
      kind: 'ADDENDUM',
      savedByUserId: auth.user.id,
      savedAt: now,
    });
    // Addenda are searched with the report they add to.
    await writeReportSearchText(tx, id, r.groupId);
    const effects = reSignOffEffects({
      signsOff: true,
      hasBeenSignedOff: true,
      isPrinted: r.printedAt !== null,
    });
    // An addendum is a sign-off: it answers the images that arrived after the last one (the row's
    // 'New images after sign-off' mark, archive DECISIONS.md "images after sign-off").
    await tx.update(reportStatuses).set({ newImagesAfterSignOffAt: null }).where(eq(reportStatuses.id, id));
    if (effects.signedOffAfterPrint) {
      await tx
        .update(reportStatuses)
        .set({ signedOffAfterPrint: true, updatedAt: now })
        .where(eq(reportStatuses.id, id));
    }
    await recordStudyEvent(tx, {
      reportStatusId: id,
      type: 'REPORT_ADDENDUM_ADDED',
      actor: { userId: auth.user.id },
      fromStatus: r.status,
      toStatus: r.status,
      payload: { reportId: created.id, version },
    });
    await alsoInAddendum?.(tx, version);
    return { alert: effects.signedOffAfterPrint ? effects.alert : null, savedVersion: version };
  });
}
