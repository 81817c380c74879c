import type { TGroupFlags } from '../settings/preferences.js';
import type { z } from 'zod';
import { REPORT_READ_ONLY_ROLES, type TRole, hasRole } from '../identity/roles.js';
import type { ZVerificationSettings } from '../settings/sections.js';
import { isReSignOffBlocked } from '../worklist/actions.js';
import type { TReportStatus } from '../worklist/statuses.js';
import { REPORTING_MESSAGES as M } from './messages.js';

/*
 * The reporting lifecycle (issue 7 §2, spec-core §4 and §6): who may open a study to report, save,
 * sign off, verify and add an addendum, and which status each leads to. The server answers with these
 * rules (403/409 with the message) and the editor disables its buttons with the same ones.
 * Decisions: apps/server/src/modules/reporting/DECISIONS.md.
 */

/** A refusal: FORBIDDEN (403) for who the caller is, CONFLICT (409) for the state the row is in. */
export interface TReportingRefusal {
  kind: 'FORBIDDEN' | 'CONFLICT' | 'BAD_REQUEST';
  message: string;
  /** The request field or row fact that decided it (the error's additionalInfo). */
  field: string;
}

const refuse = (kind: TReportingRefusal['kind'], message: string, field: string): TReportingRefusal => ({
  kind,
  message,
  field,
});

/** spec-core §5/§6: a user all of whose roles are read-only reads reports and never writes them. */
export function isReportReadOnly(roles: readonly TRole[]): boolean {
  return roles.every((r) => REPORT_READ_ONLY_ROLES.includes(r));
}

/**
 * How the caller writes a report on this row: as the doctor, as a typist for a doctor, or as the
 * verifier of a report that waits for verification. A doctor who is also a typist writes as the
 * doctor; a verifier acts as one only on a report waiting for verification. Null: may not write.
 */
export type TReportingActor = 'DOCTOR' | 'TYPIST' | 'VERIFIER';
export function reportingActorOf(
  roles: readonly TRole[],
  row: { awaitingVerification: boolean },
): TReportingActor | null {
  if (isReportReadOnly(roles)) return null;
  if (row.awaitingVerification && hasRole(roles, 'ROLE_VERIFIER')) return 'VERIFIER';
  if (hasRole(roles, 'ROLE_DOCTOR')) return 'DOCTOR';
  if (hasRole(roles, 'ROLE_TYPIST')) return 'TYPIST';
  return null;
}

/** Why the caller may not write at all (read-only, or a role that does not report); null = may. */
export function checkReportWriter(
  roles: readonly TRole[],
  actor: TReportingActor | null,
): TReportingRefusal | null {
  if (isReportReadOnly(roles)) return refuse('FORBIDDEN', M.readOnly, 'roles');
  if (actor === null) return refuse('FORBIDDEN', M.notReporter, 'roles');
  return null;
}

/**
 * spec-core §6 the typist gate: a typist names the doctor they type for, who must be in their user
 * map (`isMappedDoctor`: an active doctor of the group mapped to the typist under ROLE_DOCTOR).
 */
export function checkTypistDoctor(input: {
  doctorEmail: string | undefined;
  isMappedDoctor: boolean;
}): TReportingRefusal | null {
  if (!input.doctorEmail) return refuse('BAD_REQUEST', M.chooseDoctor, 'doctorEmail');
  if (!input.isMappedDoctor) return refuse('FORBIDDEN', M.notYourDoctor, 'doctorEmail');
  return null;
}

export interface TReportRowFacts {
  status: TReportStatus;
  assignedToUserId: number | null;
  lockedByUserId: number | null;
}

/**
 * Whether the report of this row may be written for `doctorUserId` (the caller, or the doctor a
 * typist types for): the row is that doctor's (locked by them), or free for them — assigned to them,
 * or unassigned and unlocked (the doctors' pool of the worklist). Never on a DELETED study.
 */
export function checkReportHolder(input: {
  doctorUserId: number;
  row: TReportRowFacts;
}): TReportingRefusal | null {
  const { row, doctorUserId } = input;
  if (row.status === 'DELETED') return refuse('CONFLICT', 'Cannot report: the study is DELETED', 'status');
  if (row.lockedByUserId !== null) {
    return row.lockedByUserId === doctorUserId ? null : refuse('FORBIDDEN', M.lockedByOther, 'lockedBy');
  }
  if (row.assignedToUserId !== null && row.assignedToUserId !== doctorUserId) {
    return refuse('FORBIDDEN', M.assignedToOther, 'assignedTo');
  }
  return null;
}

/** The statuses a study is opened from to be reported; opening any of them makes it LOCKED. */
export const LOCKABLE_STATUSES = ['CREATED', 'HISTORY_CREATED'] as const satisfies readonly TReportStatus[];

/**
 * issue 7 §2 "Opening a study to report locks it (LOCKED) for that doctor": CREATED and
 * HISTORY_CREATED become LOCKED; a study that already has a report (LOCKED, REPORTED, DRAFTED,
 * SIGNED_OFF) keeps its status and its doctor (opening it again changes nothing).
 */
export function statusAfterLock(status: TReportStatus): TReportStatus {
  return (LOCKABLE_STATUSES as readonly TReportStatus[]).includes(status) ? 'LOCKED' : status;
}

/** The statuses a report may be saved on (the study is open for reporting or already reported). */
export const SAVABLE_STATUSES = [
  'LOCKED',
  'REPORTED',
  'DRAFTED',
  'SIGNED_OFF',
] as const satisfies readonly TReportStatus[];

export interface TSaveRowFacts extends TReportRowFacts {
  /** The row was signed off at some time (firstSignedOffAt set). */
  hasBeenSignedOff: boolean;
  /** Its report was signed off by the doctor and waits for a verifier. */
  awaitingVerification: boolean;
}

/** A sign-off of a report that was signed off before, or whose sign-off waits for verification. */
export function isReSignOff(row: Pick<TSaveRowFacts, 'hasBeenSignedOff' | 'awaitingVerification'>): boolean {
  return row.hasBeenSignedOff || row.awaitingVerification;
}

/**
 * Save or sign off by the doctor or a typist (after checkReportHolder): the study must be opened by
 * that doctor first; a typist saves but does not sign off; a signed-off report is only signed off
 * again (or given an addendum); a re-sign-off obeys disableReSignOffOfReport (spec-core §4, core
 * isReSignOffBlocked on the row's status).
 */
export function checkSave(input: {
  roles: readonly TRole[];
  actor: 'DOCTOR' | 'TYPIST';
  flags: Pick<TGroupFlags, 'disableReSignOffOfReport'>;
  doctorUserId: number;
  row: TSaveRowFacts;
  signOff: boolean;
}): TReportingRefusal | null {
  const { row, signOff } = input;
  const opened =
    row.lockedByUserId === input.doctorUserId &&
    (SAVABLE_STATUSES as readonly TReportStatus[]).includes(row.status);
  if (!opened) return refuse('CONFLICT', M.notOpened, 'status');
  if (signOff && input.actor === 'TYPIST') return refuse('FORBIDDEN', M.typistCannotSignOff, 'signOff');
  if (row.status === 'SIGNED_OFF' && !signOff) return refuse('CONFLICT', M.signedOffNeedsSignOff, 'signOff');
  if (
    signOff &&
    isReSignOff(row) &&
    isReSignOffBlocked({ roles: input.roles, flags: input.flags, row: { status: row.status } })
  ) {
    return refuse('FORBIDDEN', M.reSignOffDisabled, 'signOff');
  }
  return null;
}

/**
 * issue 21 §7 (two tabs, two writers): a save is written only over the version it started from. The
 * writer names the saved version their text began at (null: none was saved); anything other than the
 * newest stored version (`savedVersion`, null when no report is saved) is stale and refused 409: the
 * writer reloads, or keeps their text by saving it again from the newest version (a new version, so
 * neither text is lost).
 */
export function checkBaseVersion(input: {
  baseVersion: number | null;
  savedVersion: number | null;
}): TReportingRefusal | null {
  if (input.baseVersion === input.savedVersion) return null;
  return refuse('CONFLICT', M.savedElsewhere, 'baseVersion');
}

/** A verifier saves or signs off a report that waits for verification only. */
export function checkVerifierSave(input: {
  roles: readonly TRole[];
  row: Pick<TSaveRowFacts, 'status' | 'awaitingVerification'>;
}): TReportingRefusal | null {
  if (!hasRole(input.roles, 'ROLE_VERIFIER')) return refuse('FORBIDDEN', M.notReporter, 'roles');
  if (!input.row.awaitingVerification || input.row.status !== 'REPORTED') {
    return refuse('CONFLICT', M.nothingToVerify, 'status');
  }
  return null;
}

/**
 * Whether a sign-off of this doctor's report at this center goes to a verifier first (spec-lab §3
 * verification settings): needVerification on, and every pair selected or this center/doctor pair
 * listed.
 */
export function needsVerification(
  settings: z.infer<typeof ZVerificationSettings>,
  pair: { centerEmail: string; doctorEmail: string },
): boolean {
  if (!settings.needVerification) return false;
  if (settings.selectAllDoctorsAndCenters) return true;
  const center = pair.centerEmail.toLowerCase();
  const doctor = pair.doctorEmail.toLowerCase();
  return settings.centersAndDoctorsList.some((e) => e.centerEmail === center && e.doctorEmail === doctor);
}

/** What a save does to the row and its report. */
export interface TSaveOutcome {
  status: TReportStatus;
  /** The report now waits for a verifier. */
  awaitingVerification: boolean;
  /** The report is signed off now (signature, signedOffAt). */
  signsOff: boolean;
}

/**
 * issue 7 §2: save → REPORTED, or DRAFTED for a typist when the group's enableDraftedForTypist is on;
 * sign-off → SIGNED_OFF, unless verification applies to the doctor's sign-off: then the row stays
 * REPORTED and the report waits for a verifier, whose sign-off signs it off. A verifier's plain save
 * keeps it waiting.
 */
export function saveOutcome(input: {
  actor: TReportingActor;
  flags: Pick<TGroupFlags, 'enableDraftedForTypist'>;
  signOff: boolean;
  verificationApplies: boolean;
}): TSaveOutcome {
  const { actor, signOff } = input;
  if (actor === 'VERIFIER') {
    return signOff
      ? { status: 'SIGNED_OFF', awaitingVerification: false, signsOff: true }
      : { status: 'REPORTED', awaitingVerification: true, signsOff: false };
  }
  if (!signOff) {
    const drafted = actor === 'TYPIST' && input.flags.enableDraftedForTypist;
    return { status: drafted ? 'DRAFTED' : 'REPORTED', awaitingVerification: false, signsOff: false };
  }
  if (input.verificationApplies) return { status: 'REPORTED', awaitingVerification: true, signsOff: false };
  return { status: 'SIGNED_OFF', awaitingVerification: false, signsOff: true };
}

/**
 * spec-core §4: after a re-sign-off the alert reads 'Report has been Signed Off again, please ask
 * center to re-print it.'; when the center had printed it the row is marked signedOffAfterPrint
 * (the Reprint Needed tab).
 */
export function reSignOffEffects(input: {
  signsOff: boolean;
  hasBeenSignedOff: boolean;
  isPrinted: boolean;
}): { alert: string | null; signedOffAfterPrint: boolean } {
  const again = input.signsOff && input.hasBeenSignedOff;
  return {
    alert: again ? M.signedOffAgain : null,
    signedOffAfterPrint: again && input.isPrinted,
  };
}

/**
 * An addendum (issue 7 §2 "an addendum after sign-off … with its own signature and time"): on a
 * SIGNED_OFF study, by the doctor whose signed-off report it is.
 */
export function checkAddendum(input: {
  roles: readonly TRole[];
  userId: number;
  row: { status: TReportStatus };
  signedOffByUserId: number | null;
}): TReportingRefusal | null {
  if (isReportReadOnly(input.roles)) return refuse('FORBIDDEN', M.readOnly, 'roles');
  if (!hasRole(input.roles, 'ROLE_DOCTOR')) return refuse('FORBIDDEN', M.addendumNotYours, 'roles');
  if (input.row.status !== 'SIGNED_OFF') return refuse('CONFLICT', M.addendumNeedsSignOff, 'status');
  if (input.signedOffByUserId !== input.userId) return refuse('FORBIDDEN', M.addendumNotYours, 'doctor');
  return null;
}

/** Whether report HTML holds any text or image (a sign-off or an addendum needs one). */
export function hasReportContent(html: string): boolean {
  return /<img\b/i.test(html) || html.replace(/<[^>]*>/g, '').replace(/&nbsp;|\s/g, '') !== '';
}
