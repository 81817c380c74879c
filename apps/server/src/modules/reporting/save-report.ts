import { eq } from 'drizzle-orm';
import {
  type TGroupFlags,
  type TStudyEventType,
  type TReportSaveRequest,
  type TReportingActor,
  type TSaveOutcome,
  checkBaseVersion,
  checkReportHolder,
  checkReportWriter,
  checkSave,
  checkVerifierSave,
  needsVerification,
  reSignOffEffects,
  reportingActorOf,
  saveOutcome,
} from '@radflow/core';
import type { AppContext } from '../../context.js';
import type { Tx } from '../../db/client.js';
import { type TReportStatusRow, reportStatuses, reports } from '../../db/schema.js';
import type { TAuth } from '../../plugins/auth.js';
import { loadGroupPreferences } from '../preferences/preferences.js';
import { recordStudyEvent } from '../study-events/record-study-event.js';
import { withLockedStudy } from '../studies/locked-study.js';
import { holdReleaseForDunning } from '../tele-billing/release-gate.js';
import { removeWriterDraft } from './report-drafts.js';
import { writeReportSearchText } from './report-search-text.js';
import {
  type TReportDbRow,
  addReportVersion,
  findCenterEmail,
  findUserById,
  lastVersionOf,
  lockMainReport,
  signatureSnapshotOf,
} from './reporting.repository.js';
import { type TDoctor, cleanReportContent, doctorOfCaller, throwIfRefused } from './report-writes.js';

/*
 * Save and sign off (issue 7 §2): under the row lock of the study actions (invisible row = 404), the
 * core rules decide who writes for which doctor and what the save does; the row's change, the report,
 * its version and the timeline row are written in one transaction. Decisions: DECISIONS.md.
 */

/** Who writes, for which doctor, and whether a sign-off goes to a verifier first. */
interface TWriter {
  actor: TReportingActor;
  doctor: TDoctor;
  verificationApplies: boolean;
}

async function resolveWriter(
  tx: Tx,
  auth: TAuth,
  input: { row: TReportStatusRow; main: TReportDbRow | null; flags: TGroupFlags; body: TReportSaveRequest },
): Promise<TWriter> {
  const { row, main, body } = input;
  const awaitingVerification = main?.awaitingVerification ?? false;
  const actor = reportingActorOf(auth.roles, { awaitingVerification });
  throwIfRefused(checkReportWriter(auth.roles, actor));
  // issue 21 §7: a save whose text did not start from the newest version (a second tab, another
  // writer) is refused, not written over it. Checked after the role and state rules, so a refusal
  // that does not depend on the text (403 re-sign-off disabled, 409 not opened) keeps its answer.
  const savedVersion = await lastVersionOf(tx, main?.id ?? null);
  if (actor === 'VERIFIER' && main) {
    throwIfRefused(
      checkVerifierSave({ roles: auth.roles, row: { status: row.status, awaitingVerification } }),
    );
    throwIfRefused(checkBaseVersion({ baseVersion: body.baseVersion, savedVersion }));
    return { actor, doctor: await findUserById(tx, main.doctorUserId), verificationApplies: false };
  }
  const writer = actor as 'DOCTOR' | 'TYPIST';
  const doctor = await doctorOfCaller(tx, auth, writer, body.doctorEmail);
  throwIfRefused(checkReportHolder({ doctorUserId: doctor.id, row }));
  throwIfRefused(
    checkSave({
      roles: auth.roles,
      actor: writer,
      flags: input.flags,
      doctorUserId: doctor.id,
      row: { ...row, hasBeenSignedOff: row.firstSignedOffAt !== null, awaitingVerification },
      signOff: body.signOff,
    }),
  );
  throwIfRefused(checkBaseVersion({ baseVersion: body.baseVersion, savedVersion }));
  if (!body.signOff) return { actor: writer, doctor, verificationApplies: false };
  const settings = (await loadGroupPreferences(tx, auth.user.groupId)).VERIFICATION_SETTINGS;
  const centerEmail = await findCenterEmail(tx, row.centerId);
  return {
    actor: writer,
    doctor,
    verificationApplies: needsVerification(settings, { centerEmail, doctorEmail: doctor.email }),
  };
}

/** Writes the main report (created on the first save) and its version; answers the ids. */
async function writeReport(
  tx: Tx,
  auth: TAuth,
  input: {
    reportStatusId: number;
    main: TReportDbRow | null;
    writer: TWriter;
    outcome: TSaveOutcome;
    name: string;
    content: string;
    now: Date;
  },
): Promise<{ reportId: number; version: number }> {
  const { main, writer, outcome, now } = input;
  const signed = outcome.signsOff
    ? {
        signedOffByUserId: writer.doctor.id,
        signedOffAt: now,
        ...(await signatureSnapshotOf(tx, writer.doctor)),
      }
    : { signedOffByUserId: null, signedOffAt: null, signatureName: null, signatureAssetId: null };
  let verifiedByUserId = main?.verifiedByUserId ?? null;
  if (outcome.awaitingVerification) verifiedByUserId = null;
  if (writer.actor === 'VERIFIER' && outcome.signsOff) verifiedByUserId = auth.user.id;
  const fields = {
    name: input.name,
    contentHtml: input.content,
    awaitingVerification: outcome.awaitingVerification,
    verifiedByUserId,
    ...signed,
    updatedAt: now,
  };
  let reportId: number;
  if (main) {
    reportId = main.id;
    // A verifier's edit does not make them the typist of the doctor's report.
    const typedByUserId = writer.actor === 'VERIFIER' ? main.typedByUserId : auth.user.id;
    await tx
      .update(reports)
      .set({ ...fields, typedByUserId })
      .where(eq(reports.id, main.id));
  } else {
    const [created] = await tx
      .insert(reports)
      .values({
        ...fields,
        reportStatusId: input.reportStatusId,
        doctorUserId: writer.doctor.id,
        typedByUserId: auth.user.id,
        createdAt: now,
      })
      .returning({ id: reports.id });
    if (!created) throw new Error('report: insert returned no row');
    reportId = created.id;
  }
  const version = await addReportVersion(tx, {
    reportId,
    name: input.name,
    contentHtml: input.content,
    kind: outcome.signsOff ? 'SIGN_OFF' : 'SAVE',
    savedByUserId: auth.user.id,
    savedAt: now,
  });
  return { reportId, version };
}

function eventTypeOf(
  actor: TReportingActor,
  outcome: TSaveOutcome,
  signOff: boolean,
): Extract<
  TStudyEventType,
  'REPORT_SAVED' | 'REPORT_SENT_FOR_VERIFICATION' | 'REPORT_SIGNED_OFF' | 'REPORT_VERIFIED'
> {
  if (outcome.signsOff) return actor === 'VERIFIER' ? 'REPORT_VERIFIED' : 'REPORT_SIGNED_OFF';
  if (signOff && outcome.awaitingVerification && actor !== 'VERIFIER') return 'REPORT_SENT_FOR_VERIFICATION';
  return 'REPORT_SAVED';
}

/**
 * POST /report/save/{id}: save (REPORTED, or DRAFTED for a typist with enableDraftedForTypist) or
 * sign off (SIGNED_OFF with the doctor's signature, or waiting for a verifier when verification
 * applies). Answers the spec's re-sign-off alert when the report had been signed off before.
 */
export async function saveReport(
  ctx: AppContext,
  auth: TAuth,
  id: number,
  body: TReportSaveRequest,
  /** Runs in the save's transaction after the write (the router's offline write record, HYBRID.md). */
  alsoInSave?: (tx: Tx, savedVersion: number) => Promise<void>,
): Promise<{ alert: string | null; savedVersion: number }> {
  // A role that writes no report (not even as a verifier) is refused before the row is looked up.
  throwIfRefused(checkReportWriter(auth.roles, reportingActorOf(auth.roles, { awaitingVerification: true })));
  return withLockedStudy(ctx, auth, id, async ({ tx, row, flags, now }) => {
    const r = row.report;
    const main = await lockMainReport(tx, id);
    const writer = await resolveWriter(tx, auth, { row: r, main, flags, body });
    const content = cleanReportContent(body.content, body.signOff);
    const outcome = saveOutcome({
      actor: writer.actor,
      flags,
      signOff: body.signOff,
      verificationApplies: writer.verificationApplies,
    });
    const effects = reSignOffEffects({
      signsOff: outcome.signsOff,
      hasBeenSignedOff: r.firstSignedOffAt !== null,
      isPrinted: r.printedAt !== null,
    });
    const written = await writeReport(tx, auth, {
      reportStatusId: id,
      main,
      writer,
      outcome,
      name: body.name,
      content,
      now,
    });
    // The report search reads what is signed: a sign-off writes it, a re-sign-off waiting for a
    // verifier (no longer signed) takes it away.
    if (outcome.signsOff || r.status === 'SIGNED_OFF') await writeReportSearchText(tx, id, r.groupId);
    const signOffTimes = outcome.signsOff
      ? {
          signedOffAt: now,
          firstSignedOffAt: r.firstSignedOffAt ?? now,
          signedOffAfterPrint: r.signedOffAfterPrint || effects.signedOffAfterPrint,
        }
      : {};
    await tx
      .update(reportStatuses)
      .set({ status: outcome.status, updatedAt: now, ...signOffTimes })
      .where(eq(reportStatuses.id, id));
    // A center with an overdue tele invoice pays before the report is released, when the group says so.
    if (outcome.signsOff) await holdReleaseForDunning(tx, { row: r, flags, actorUserId: auth.user.id, now });
    // The writer's auto-saved draft is now this save (issue 7 §1 drafts).
    await removeWriterDraft(tx, id, auth.user.id);
    await recordStudyEvent(tx, {
      reportStatusId: id,
      type: eventTypeOf(writer.actor, outcome, body.signOff),
      actor: { userId: auth.user.id },
      fromStatus: r.status,
      toStatus: outcome.status,
      payload: {
        ...written,
        doctor: writer.doctor.email,
        ...(effects.alert ? { signedOffAgain: true } : {}),
      },
    });
    await alsoInSave?.(tx, written.version);
    return { alert: effects.alert, savedVersion: written.version };
  });
}
