import {
  type TGroupFlags,
  type TReport,
  type TReportingActor,
  type TRole,
  type TStudyDetail,
  checkAddendum,
  checkReportWriter,
  checkSave,
  checkVerifierSave,
  isReSignOff,
  reportingActorOf,
} from '@radflow/core';

/*
 * Which buttons the editor shows, by the core rules the server applies (packages/core/src/reporting/
 * rules.ts): never a button the server would refuse. The rules compare user ids; the browser knows
 * e-mails, so each e-mail is mapped to a stand-in id (the writer's doctor = 1, anyone else = 2).
 */

const DOCTOR_ID = 1;
const OTHER_ID = 2;
const idOf = (email: string | null, doctorEmail: string) =>
  email === null ? null : email.toLowerCase() === doctorEmail.toLowerCase() ? DOCTOR_ID : OTHER_ID;

export interface TEditorButtons {
  /** How the user writes on this row; null = reads only. */
  actor: TReportingActor | null;
  canSave: boolean;
  canSignOff: boolean;
  canAddendum: boolean;
  /** The sign-off offered is a re-sign-off (spec-core §4: signed off before, or waiting for a verifier). */
  reSignOff: boolean;
  /** Why the doctor of a signed-off report may not sign it off again (disableReSignOffOfReport), or null. */
  signOffRefusal: string | null;
}

export const NO_BUTTONS: TEditorButtons = {
  actor: null,
  canSave: false,
  canSignOff: false,
  canAddendum: false,
  reSignOff: false,
  signOffRefusal: null,
};

/**
 * Whether the status line names the lock (issue 21 §7): only while the report is being written. A
 * signed-off row keeps `lockedBy` (it names the reporting doctor, reporting/DECISIONS.md), but to the
 * reader it is signed off — the signature says by whom — not locked.
 */
export const showsLock = (row: Pick<TStudyDetail, 'status' | 'lockedBy'>): boolean =>
  row.lockedBy !== null && (row.status === 'LOCKED' || row.status === 'REPORTED' || row.status === 'DRAFTED');

/** The main report (not an addendum) of the row, if saved. */
export const mainReportOf = (reports: readonly TReport[]): TReport | null =>
  reports.find((r) => !r.isAddendum) ?? null;

/** How the user may write on this row (before the lock: the actor alone). */
export function writerActorOf(roles: readonly TRole[], main: TReport | null): TReportingActor | null {
  const actor = reportingActorOf(roles, { awaitingVerification: main?.awaitingVerification ?? false });
  return checkReportWriter(roles, actor) ? null : actor;
}

/**
 * The buttons for the user on the row as it is now. `doctorEmail` is the doctor the report is
 * written for: the user, or the doctor a typist chose.
 */
export function editorButtonsOf(input: {
  roles: readonly TRole[];
  flags: TGroupFlags;
  me: string;
  doctorEmail: string;
  row: TStudyDetail;
  main: TReport | null;
}): TEditorButtons {
  const { roles, row, main } = input;
  const actor = writerActorOf(roles, main);
  if (actor === null) return NO_BUTTONS;
  const awaitingVerification = main?.awaitingVerification ?? false;
  const addendum =
    checkAddendum({
      roles,
      userId: DOCTOR_ID,
      row: { status: row.status },
      signedOffByUserId: main ? idOf(main.signedOffBy, input.me) : null,
    }) === null;
  if (actor === 'VERIFIER') {
    const may = checkVerifierSave({ roles, row: { status: row.status, awaitingVerification } }) === null;
    return {
      actor,
      canSave: may,
      canSignOff: may,
      canAddendum: false,
      reSignOff: false,
      signOffRefusal: null,
    };
  }
  const facts = {
    status: row.status,
    assignedToUserId: idOf(row.assignedTo, input.doctorEmail),
    lockedByUserId: idOf(row.lockedBy, input.doctorEmail),
    hasBeenSignedOff: row.firstSignedOffAt !== null,
    awaitingVerification,
  };
  const refusal = (signOff: boolean) =>
    checkSave({ roles, actor, flags: input.flags, doctorUserId: DOCTOR_ID, row: facts, signOff });
  const signOff = refusal(true);
  return {
    actor,
    canSave: refusal(false) === null,
    canSignOff: signOff === null,
    canAddendum: addendum,
    reSignOff: signOff === null && isReSignOff(facts),
    // Only the setting's refusal is worth a word: the others (a typist, not opened) are who/where.
    signOffRefusal:
      signOff?.field === 'signOff' && actor === 'DOCTOR' && row.status === 'SIGNED_OFF'
        ? signOff.message
        : null,
  };
}
