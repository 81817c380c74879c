import { isTeleUser } from '../identity/permissions.js';
import {
  REPORT_READ_ONLY_ROLES,
  type TRole,
  hasRole,
  isCenterUser,
  isSoleDoctor,
} from '../identity/roles.js';
import { canDownloadZip } from '../jobs/zip-rules.js';
import { OPEN_STATUSES, type TReportStatus } from './statuses.js';
import {
  type TActorCenter,
  type TPartialRuleInput,
  type TRuleInput,
  type TStudyRowFacts,
  actingRoles,
} from './study-row.js';
import type { TGroupFlags } from '../settings/preferences.js';

/**
 * The study actions a user is offered (spec-core §4 "Actions offered", §5, §6). The browser hides
 * or disables a button with these rules; the server answers 403 with the same rules, so the two can
 * never disagree. Every row action is refused on a DELETED study (isRowActionsDisabled), except
 * Print, which spec-core §4 enables on DELETED studies explicitly. What "center users" may do, they
 * may do on their own center's studies only, and ROLE_CENTER_BACKUP not at all (actingRoles in
 * study-row.ts): those rules also take the row's centerId and the user's userCenterId.
 */

const isAdmin = (roles: readonly TRole[]) => hasRole(roles, 'ROLE_ADMIN');
const isIn = (status: TReportStatus, set: readonly TReportStatus[]) => set.includes(status);

/** spec-core §4: "Deleted studies disable all row actions; … the report button is disabled". */
export function isRowActionsDisabled(row: Pick<TStudyRowFacts, 'status'>): boolean {
  return row.status === 'DELETED';
}

/** spec-core §4 Mark Urgent: the statuses it is offered on. */
export const URGENT_STATUSES = ['CREATED', 'HISTORY_CREATED'] as const satisfies readonly TReportStatus[];

/**
 * spec-core §4 Mark Urgent: "CREATED or HISTORY_CREATED, center or admin" (§6: center users).
 * Decision: the button is offered whatever the row's urgent mark, so the same users may remove a
 * mark made in error (the call toggles it).
 */
export function canMarkUrgent(input: TRuleInput<'status' | 'centerId'> & TActorCenter): boolean {
  const roles = actingRoles(input);
  return isIn(input.row.status, URGENT_STATUSES) && (isCenterUser(roles) || isAdmin(roles));
}

/**
 * spec-core §4 Mark Deleted: "irreversible; CREATED, or HISTORY_CREATED for admin; center only
 * unless the hide-deleted setting is on", read word for word:
 * - status: CREATED for whoever may delete; HISTORY_CREATED only for an admin;
 * - role: center users; an admin too when the hide-deleted setting is on.
 * The spec names no switch for the hide-deleted setting (it is in none of the §3 preference lists):
 * it is the group switch `hideDeletedStudies`, which the caller passes as `hideDeletedSetting`. Center roles act on their own center only (actingRoles).
 */
export function canMarkDeleted(
  input: TRuleInput<'status' | 'centerId'> & TActorCenter & { hideDeletedSetting: boolean },
): boolean {
  const { row, hideDeletedSetting } = input;
  const roles = actingRoles(input);
  const admin = isAdmin(roles);
  const roleAllows = isCenterUser(roles) || (hideDeletedSetting && admin);
  const statusAllows = row.status === 'CREATED' || (row.status === 'HISTORY_CREATED' && admin);
  return roleAllows && statusAllows;
}

/** spec-core §4 Unlock and Rework: the statuses both are offered on. */
export const UNLOCK_STATUSES = [
  'SIGNED_OFF',
  'LOCKED',
  'REPORTED',
  'DRAFTED',
] as const satisfies readonly TReportStatus[];

/**
 * spec-core §4 Unlock: SIGNED_OFF, LOCKED, REPORTED or DRAFTED; doctors or admin; hidden by
 * hideUnlockFromDoctor. The switch hides it from doctors only: an admin keeps it.
 */
export function canUnlock({ roles, flags, row }: TRuleInput<'status', 'hideUnlockFromDoctor'>): boolean {
  if (!isIn(row.status, UNLOCK_STATUSES)) return false;
  return isAdmin(roles) || (hasRole(roles, 'ROLE_DOCTOR') && !flags.hideUnlockFromDoctor);
}

/**
 * spec-core §4 Rework: the Unlock statuses; "for tele-radiology or when rework is enabled"; it
 * deletes every report of the study. Tele-radiology users always have it. Decision (the spec names
 * no roles for the enabled case): with enableReportRework the users who may unlock (admins and
 * doctors) have it too; hideUnlockFromDoctor does not touch it.
 */
export function canRework({ roles, flags, row }: TRuleInput<'status', 'enableReportRework'>): boolean {
  if (!isIn(row.status, UNLOCK_STATUSES)) return false;
  if (isTeleUser(roles)) return true;
  return flags.enableReportRework && hasRole(roles, 'ROLE_ADMIN', 'ROLE_DOCTOR');
}

/**
 * Who may split a study. Decision (spec-core §4 names no roles): the users who manage incoming
 * studies — admins, assignors, center users and tele-radiology users.
 */
export const SPLIT_ROLES: readonly TRole[] = ['ROLE_ADMIN', 'ROLE_ASSIGNOR', 'ROLE_TELE_RADIOLOGY'];

/**
 * spec-core §4 Split study: creates a new study with a parent id, only when allowToSplitStudy is on
 * and the study is not already split. "Already split" is read both ways: the study is itself a split
 * (splitFromReportStatusId set) or has been split before (hasSplitChild). Any status but DELETED.
 */
export function canSplit(
  input: TRuleInput<
    'status' | 'centerId' | 'splitFromReportStatusId' | 'hasSplitChild',
    'allowToSplitStudy'
  > &
    TActorCenter,
): boolean {
  const { flags, row } = input;
  if (!flags.allowToSplitStudy || isRowActionsDisabled(row)) return false;
  if (row.splitFromReportStatusId !== null || row.hasSplitChild) return false;
  const roles = actingRoles(input);
  return isCenterUser(roles) || hasRole(roles, ...SPLIT_ROLES);
}

/**
 * spec-core §4: "Print is enabled only when the study has reports and is SIGNED_OFF or DELETED".
 * Whether the Download and Print menu is there at all is isDownloadAndPrintHidden.
 */
export function canPrint({ row }: TPartialRuleInput<'row', 'status' | 'hasReports'>): boolean {
  return row.hasReports && (row.status === 'SIGNED_OFF' || row.status === 'DELETED');
}

/**
 * spec-core §5: "Download and Print is hidden for non-center doctors who are tele users or have
 * downloading disabled". `teleUser` is the tele info flag (spec-core §3). Decision: "downloading
 * disabled" for a doctor is disableDownloadZipForDoctor, the one doctor download switch the spec has.
 */
export function isDownloadAndPrintHidden({
  roles,
  flags,
  teleUser,
}: TPartialRuleInput<'roles' | 'flags', never, 'disableDownloadZipForDoctor'> & {
  teleUser: boolean;
}): boolean {
  if (!hasRole(roles, 'ROLE_DOCTOR') || isCenterUser(roles)) return false;
  return teleUser || flags.disableDownloadZipForDoctor;
}

/**
 * spec-core §4: "Re-sign-off is blocked when disableReSignOffOfReport is on and the report is
 * SIGNED_OFF, or REPORTED when the user is a sole doctor or typist". Read with the switch governing
 * both cases: without it nothing blocks a re-sign-off.
 */
export function isReSignOffBlocked({
  roles,
  flags,
  row,
}: TRuleInput<'status', 'disableReSignOffOfReport'>): boolean {
  if (!flags.disableReSignOffOfReport) return false;
  if (row.status === 'SIGNED_OFF') return true;
  return row.status === 'REPORTED' && (isSoleDoctor(roles) || hasRole(roles, 'ROLE_TYPIST'));
}

/** Decision (spec-core §6 names only multi-assign): single assignment is for assignors and admins. */
export const ASSIGN_ROLES: readonly TRole[] = ['ROLE_ASSIGNOR', 'ROLE_ADMIN'];

/**
 * Assign a study to a doctor (spec-core §7 POST /report-status/assign). Decision: by ASSIGN_ROLES,
 * on a study that still needs work (OPEN_STATUSES); a LOCKED or REPORTED study may be reassigned.
 */
export function canAssign({ roles, row }: TRuleInput<'status'>): boolean {
  return hasRole(roles, ...ASSIGN_ROLES) && isIn(row.status, OPEN_STATUSES);
}

/** spec-core §6 "Multi-assign: ROLE_ASSIGNOR only". Each chosen row must also pass canAssign. */
export function canAssignMulti({ roles }: TPartialRuleInput<'roles'>): boolean {
  return hasRole(roles, 'ROLE_ASSIGNOR');
}

/**
 * Assign an auditor (spec-core §2 dialog, §3 enableAuditorAssignmentFeature, §7 auditor-assign).
 * Decision (roles and statuses not in the spec): admins and assignors, with the feature on, on a
 * SIGNED_OFF study — an audit reviews a finished report.
 */
export function canAssignAuditor({
  roles,
  flags,
  row,
}: TRuleInput<'status', 'enableAuditorAssignmentFeature'>): boolean {
  return (
    flags.enableAuditorAssignmentFeature &&
    hasRole(roles, 'ROLE_ADMIN', 'ROLE_ASSIGNOR') &&
    row.status === 'SIGNED_OFF'
  );
}

/**
 * Give the audit verdict (spec-core §2 audit columns "an approve/reject switch", §4 "Audit approval:
 * APPROVED or REJECTED via a switch"; POST /report-status/audit-status/{id}). Decision (the spec names
 * no roles): only the auditor assigned to the study (`isAssignedAuditor`), holding ROLE_AUDITOR, on a
 * SIGNED_OFF study. The feature switch governs assigning auditors; an assigned auditor keeps the switch.
 */
export function canSetAuditStatus({
  roles,
  row,
  isAssignedAuditor,
}: TPartialRuleInput<'roles' | 'row', 'status'> & { isAssignedAuditor: boolean }): boolean {
  return isAssignedAuditor && hasRole(roles, 'ROLE_AUDITOR') && row.status === 'SIGNED_OFF';
}

/**
 * Who may submit the Edit details form (spec-core §2 "Edit study details", §5; §6 "Billers and
 * tele-radiology may open history edit"). Decision (the spec names no roles for the dialog): the users
 * who bring studies in or manage them — center users, tele-radiology, admins, assignors, verifiers and
 * billers. Doctors, typists and the read-only roles read the details. Not on a DELETED study; which
 * fields may change is canEditHistory and canEditStudyType.
 */
export const STUDY_DETAILS_ROLES: readonly TRole[] = [
  'ROLE_ADMIN',
  'ROLE_ASSIGNOR',
  'ROLE_VERIFIER',
  'ROLE_BILLER',
  'ROLE_TELE_RADIOLOGY',
];

export function canEditStudyDetails(input: TRuleInput<'status' | 'centerId'> & TActorCenter): boolean {
  if (isRowActionsDisabled(input.row)) return false;
  const roles = actingRoles(input);
  return isCenterUser(roles) || hasRole(roles, ...STUDY_DETAILS_ROLES);
}

/**
 * The referring doctor and message sharing dialog (spec-core §6: "Doctor: … may send to referring
 * doctor when radiologistCanSendToReferringDoctor is on"; §5 centers share before sending). Center
 * users always; doctors with the switch; not on a deleted study.
 */
export function canSendToReferringDoctor(
  input: TRuleInput<'status' | 'centerId', 'radiologistCanSendToReferringDoctor'> & TActorCenter,
): boolean {
  const { flags, row } = input;
  if (isRowActionsDisabled(row)) return false;
  const roles = actingRoles(input);
  return isCenterUser(roles) || (hasRole(roles, 'ROLE_DOCTOR') && flags.radiologistCanSendToReferringDoctor);
}

/**
 * Open the report editor (spec-core §5 read-only roles, §3 disableReportEditingForCenter, §4 the
 * report button is disabled for deleted studies). A user may edit when one of their roles may:
 * a role that is not read-only, and not a center role while disableReportEditingForCenter is on.
 * (Decision: a doctor who is also an auditor keeps the doctor's editor.)
 */
export function canEditReport({
  roles,
  flags,
  row,
}: TRuleInput<'status', 'disableReportEditingForCenter'>): boolean {
  if (isRowActionsDisabled(row)) return false;
  return roles.some(
    (r) => !REPORT_READ_ONLY_ROLES.includes(r) && !(flags.disableReportEditingForCenter && isCenterUser([r])),
  );
}

/** spec-core §4: "History field is disabled when SIGNED_OFF" (and every row action on DELETED). */
export function canEditHistory({ row }: TPartialRuleInput<'row', 'status'>): boolean {
  return row.status !== 'SIGNED_OFF' && !isRowActionsDisabled(row);
}

/** spec-core §4: the statuses on which a center user may not change the study type. */
export const CENTER_STUDY_TYPE_LOCKED_STATUSES = [
  'SIGNED_OFF',
  'LOCKED',
  'DELETED',
] as const satisfies readonly TReportStatus[];

/**
 * spec-core §4: "Study type editing is disabled for center users on SIGNED_OFF, LOCKED or DELETED".
 * Other users may change it on any status but DELETED.
 */
export function canEditStudyType({ roles, row }: TRuleInput<'status'>): boolean {
  if (isRowActionsDisabled(row)) return false;
  return !(isCenterUser(roles) && isIn(row.status, CENTER_STUDY_TYPE_LOCKED_STATUSES));
}

/**
 * spec-core §4: submitting the details form on a CREATED study by tele-radiology or center users
 * reads 'Send for reporting', and (issue 4 §2) moves the study to HISTORY_CREATED.
 */
export function sendsForReporting({ roles, row }: TRuleInput<'status'>): boolean {
  return row.status === 'CREATED' && (isTeleUser(roles) || isCenterUser(roles));
}

/**
 * spec-core §2 Summary screen, §6: "Billers and tele-radiology may open history edit on the
 * summary" (ROLE_BILLER, ROLE_TELE_RADIOLOGY).
 */
export function canOpenHistoryEditOnSummary({ roles }: TPartialRuleInput<'roles'>): boolean {
  return hasRole(roles, 'ROLE_BILLER', 'ROLE_TELE_RADIOLOGY');
}

/** spec-core §2 Summary screen "show timeline (assignors and center)", §6 "timeline button (also assignors)". */
export function canSeeTimelineButton({ roles }: TPartialRuleInput<'roles'>): boolean {
  return isCenterUser(roles) || hasRole(roles, 'ROLE_ASSIGNOR');
}

/** The attachment lists of a study (spec-core §3). */
export const ATTACHMENT_KINDS = ['history', 'film', 'report'] as const;
export type TAttachmentKind = (typeof ATTACHMENT_KINDS)[number];

/**
 * spec-core §6 "Center: … add/delete history and film attachments". Report attachments have no
 * upload call in the spec (§7 has delete and download only), so nobody adds one here.
 */
export function canAddAttachment(
  input: TRuleInput<'status' | 'centerId'> & TActorCenter,
  kind: TAttachmentKind,
): boolean {
  return kind !== 'report' && isCenterUser(actingRoles(input)) && !isRowActionsDisabled(input.row);
}

/** spec-core §6 "Center: … add/delete history and film attachments, … delete attachments". */
export function canDeleteAttachment(
  input: TRuleInput<'status' | 'centerId'> & TActorCenter,
  _kind: TAttachmentKind,
): boolean {
  return isCenterUser(actingRoles(input)) && !isRowActionsDisabled(input.row);
}

/** spec-core §6 "Center: … Recreate Zip". */
export function canRecreateZip(input: TRuleInput<'status' | 'centerId'> & TActorCenter): boolean {
  return isCenterUser(actingRoles(input)) && !isRowActionsDisabled(input.row);
}

/** Everything a row offers, for a screen that draws the row's buttons at once. */
export interface TRowActions {
  markUrgent: boolean;
  markDeleted: boolean;
  unlock: boolean;
  rework: boolean;
  split: boolean;
  print: boolean;
  assign: boolean;
  assignAuditor: boolean;
  sendToReferringDoctor: boolean;
  editReport: boolean;
  editHistory: boolean;
  editStudyType: boolean;
  addHistoryAttachment: boolean;
  addFilmAttachment: boolean;
  deleteAttachment: boolean;
  recreateZip: boolean;
  timeline: boolean;
  /** spec-core §5 zip refusals by role (zip-rules.ts), and no zip of a deleted study. */
  downloadZip: boolean;
}

/**
 * The row's actions for one user (spec-core §4, §5, §6): each entry is the rule of the same name
 * above, so a screen and the server that check one action agree with this summary. On a DELETED
 * study everything is off but print (spec-core §4 enables it on DELETED studies with reports).
 */
export function rowActions(
  input: TRuleInput<keyof TStudyRowFacts, keyof TGroupFlags> & TActorCenter & { hideDeletedSetting: boolean },
): TRowActions {
  const { roles, flags, row } = input;
  return {
    markUrgent: canMarkUrgent(input),
    markDeleted: canMarkDeleted(input),
    unlock: canUnlock(input),
    rework: canRework(input),
    split: canSplit(input),
    print: canPrint(input),
    assign: canAssign(input),
    assignAuditor: canAssignAuditor(input),
    sendToReferringDoctor: canSendToReferringDoctor(input),
    editReport: canEditReport(input),
    editHistory: canEditHistory(input),
    editStudyType: canEditStudyType(input),
    addHistoryAttachment: canAddAttachment(input, 'history'),
    addFilmAttachment: canAddAttachment(input, 'film'),
    deleteAttachment: canDeleteAttachment(input, 'history'),
    recreateZip: canRecreateZip(input),
    timeline: !isRowActionsDisabled(row) && canSeeTimelineButton(input),
    downloadZip: !isRowActionsDisabled(row) && canDownloadZip(roles, flags),
  };
}
