import {
  REPORT_READ_ONLY_ROLES,
  canAssign,
  canAssignAuditor,
  canDeleteStudyAttachment,
  canEditReport,
  canEditStudyDetails,
  canGenerateViewerQr,
  canMarkDeleted,
  canMarkUrgent,
  canRework,
  canSeeTimelineButton,
  canSendToReferringDoctor,
  canSplit,
  canTagStudyRow,
  canUnlock,
  canUploadStudyAttachment,
  isRowActionsDisabled,
  offeredDownloadOptions,
  type TGroupFlags,
  type TRole,
  type TStudyListKind,
  type TStudyListRow,
  type TViewerEntry,
  uploadStateOf,
  viewerEntry,
  viewerLink,
  type TViewerLinkOptions,
} from '@radflow/core';

/**
 * Which row actions a user is offered on one study row (spec-core §4 "Actions offered", §5, §6),
 * built from the core rules the server answers 403 with, so a button shows exactly when the call
 * would be allowed. Pure: the component only draws what this returns.
 */

/** The user facts the rules read (a subset of the web session). */
export interface TActor {
  roles: readonly TRole[];
  flags: TGroupFlags;
  teleUser: boolean;
  email: string;
  /**
   * The user's center (current user `centerId`): center roles act on that center's rows only (core
   * actingRoles). Absent or null: no center, so no center action anywhere.
   */
  centerId?: number | null;
  /** UI_PREFERENCES.hideStudyListReportButton. */
  hideReportButton?: boolean;
  /**
   * The hide-deleted setting core's canMarkDeleted reads: the group switch hideDeletedStudies (the
   * spec names none; packages/core/src/worklist/DECISIONS.md). Absent: off.
   */
  hideDeletedSetting?: boolean;
}

export const ROW_ACTION_KEYS = [
  'view',
  'report',
  'editDetails',
  'attachments',
  'audio',
  'share',
  'assignDoctor',
  'assignAuditor',
  'history',
  'notifications',
  'tags',
  'qrCode',
  'print',
  'urgent',
  'delete',
  'split',
  'unlock',
  'rework',
] as const;
export type TRowActionKey = (typeof ROW_ACTION_KEYS)[number];

/** A row action as drawn: shown or not, and when shown whether it is enabled. */
export interface TOfferedAction {
  key: TRowActionKey;
  enabled: boolean;
}

/** The accessible name of each action's button (Playwright finds buttons by role and this name). */
export const ROW_ACTION_LABELS: Record<TRowActionKey, string> = {
  view: 'View images',
  report: 'Open report',
  editDetails: 'Edit details',
  attachments: 'Attachments',
  audio: 'Audio recordings',
  share: 'Share',
  assignDoctor: 'Assign doctor',
  assignAuditor: 'Assign auditor',
  history: 'Study history',
  notifications: 'Notification timeline',
  tags: 'Tags',
  qrCode: 'Print QR code',
  print: 'Print report',
  urgent: 'Mark urgent',
  delete: 'Delete study',
  split: 'Split study',
  unlock: 'Unlock',
  rework: 'Rework',
};

/** The state actions: each asks for confirmation, calls one POST and refreshes the list. */
export const STATE_ACTION_KEYS = ['urgent', 'delete', 'split', 'unlock', 'rework'] as const;
export type TStateActionKey = (typeof STATE_ACTION_KEYS)[number];

export function isStateAction(key: TRowActionKey): key is TStateActionKey {
  return (STATE_ACTION_KEYS as readonly string[]).includes(key);
}

const isReadOnly = (roles: readonly TRole[]) => roles.every((r) => REPORT_READ_ONLY_ROLES.includes(r));

/** The button label of the urgent action: it toggles the mark (core canMarkUrgent). */
export function urgentLabel(row: Pick<TStudyListRow, 'urgent'>): string {
  return row.urgent ? 'Remove urgent' : ROW_ACTION_LABELS.urgent;
}

/** The Print action as drawn: hidden without options, disabled when none may be chosen. */
const downloadMenuState = (offered: ReturnType<typeof offeredDownloadOptions>): boolean | 'disabled' =>
  offered.length === 0 ? false : offered.some((o) => o.enabled) || 'disabled';

/**
 * The actions offered on a row, in display order. Every action but Print disappears on a DELETED
 * study (core isRowActionsDisabled); View stays so that it can say 'Study has been deleted', and the
 * report button stays disabled (spec-core §4).
 */
export function offeredRowActions(actor: TActor, row: TStudyListRow): TOfferedAction[] {
  const { roles, flags } = actor;
  // A row without its centerId is nobody's own center: the center actions stay hidden.
  const facts = { ...row, centerId: row.centerId ?? null };
  const userCenterId = actor.centerId ?? null;
  const input = { roles, flags, row: facts, userCenterId };
  const deleted = isRowActionsDisabled(row);
  const live = !deleted;
  const rules: Record<TRowActionKey, boolean | 'disabled'> = {
    view: true,
    // The report button is there for whoever may edit on a live study; disabled on a deleted one.
    report:
      !actor.hideReportButton &&
      (canEditReport({ roles, flags, row: { status: 'CREATED' } }) ? (deleted ? 'disabled' : true) : false),
    editDetails: canEditStudyDetails(input),
    attachments: live,
    // Whoever sees the row lists and plays its notes; the dialog offers recording per core canAddReportAudio.
    audio: live,
    share: canSendToReferringDoctor(input),
    assignDoctor: canAssign(input),
    assignAuditor: canAssignAuditor(input),
    history: live && canSeeTimelineButton(input),
    notifications: live && !isReadOnly(roles),
    tags: live && canTagStudyRow(input),
    // A row without a link yet gets one from the dialog when the group makes viewer QR codes.
    qrCode: live && (row.shareLink !== null || canGenerateViewerQr(input)),
    // The download and print menu (spec-core §9): hidden by §5 for some doctors, enabled when one of
    // its options is (§4 Print on signed-off reports; report writers also a preliminary copy).
    print: downloadMenuState(offeredDownloadOptions({ roles, flags, teleUser: actor.teleUser, row })),
    urgent: canMarkUrgent(input),
    delete: canMarkDeleted({ ...input, hideDeletedSetting: actor.hideDeletedSetting ?? false }),
    split: canSplit(input),
    unlock: canUnlock(input),
    rework: canRework(input),
  };
  return ROW_ACTION_KEYS.filter((key) => rules[key] !== false).map((key) => ({
    key,
    enabled: rules[key] === true,
  }));
}

/**
 * The actions drawn as buttons on the row in each list; the others go to the row's overflow menu.
 * Decision (the spec names the actions, not their layout): what each list's users do most.
 */
const INLINE_ACTIONS: Record<TStudyListKind, readonly TRowActionKey[]> = {
  admin: ['view', 'report', 'assignDoctor'],
  doctor: ['view', 'report'],
  center: ['view', 'editDetails', 'print'],
  centerAddInfo: ['view', 'editDetails', 'print'],
  teleCenter: ['view', 'editDetails', 'print'],
};

/**
 * Splits the offered actions into the row's buttons and its overflow menu, keeping their order. A
 * disabled report button is always on the row: it is disabled only on a deleted study, where spec-core
 * §4 says "the report button is disabled" (shown, not tucked away). A menu in which nothing is enabled
 * is no menu: every action of a deleted row but Print is gone, and a menu of greyed items only says
 * "nothing here".
 */
export function splitInlineActions(
  offered: readonly TOfferedAction[],
  listKind: TStudyListKind,
): { inline: TOfferedAction[]; menu: TOfferedAction[] } {
  const inlineKeys = INLINE_ACTIONS[listKind];
  const isInline = (a: TOfferedAction) => inlineKeys.includes(a.key) || (a.key === 'report' && !a.enabled);
  const menu = offered.filter((a) => !isInline(a));
  return {
    inline: offered.filter(isInline),
    menu: menu.some((a) => a.enabled) ? menu : [],
  };
}

/** What a double click on a row opens (issue 21 §6): the report page, the images or the Assign dialog. */
export type TRowOpenAction = 'report' | 'view' | 'assign';

/**
 * What a double click on a study row opens, per list (issue 21 §6; the spec names no double click,
 * decision in apps/web/src/features/worklist/DECISIONS.md): what the list's users open most.
 * - An assignor (who is not also a doctor or an admin): the Assign doctor dialog, routing being
 *   their work; else as below.
 * - Doctor and admin lists (doctors, typists, admins): the report page when the row offers it
 *   enabled, else the images.
 * - Center lists: the signed report — the report page, where a center reads it and prints it — once
 *   there is one to print (the Print action is enabled); before that, the images.
 * Only actions the row offers are opened, so a double click never does what a button would refuse.
 */
export function rowOpenAction(
  offered: readonly TOfferedAction[],
  listKind: TStudyListKind,
  roles: readonly TRole[] = [],
): TRowOpenAction {
  const enabled = (key: TRowActionKey) => offered.some((a) => a.key === key && a.enabled);
  const routes =
    roles.includes('ROLE_ASSIGNOR') && !roles.includes('ROLE_DOCTOR') && !roles.includes('ROLE_ADMIN');
  if (routes && enabled('assignDoctor')) return 'assign';
  const isCenterList = listKind === 'center' || listKind === 'centerAddInfo' || listKind === 'teleCenter';
  if (isCenterList) return enabled('print') && enabled('report') ? 'report' : 'view';
  return enabled('report') ? 'report' : 'view';
}

/** Whether the attachments dialog lets this user add or delete files of a kind (core study-files rules). */
export function attachmentPermissions(
  actor: Pick<TActor, 'roles' | 'centerId'>,
  row: Pick<TStudyListRow, 'status' | 'centerId'>,
  kind: 'HISTORY' | 'FILM' | 'REPORT',
): { upload: boolean; remove: boolean } {
  const input = {
    roles: actor.roles,
    row: { status: row.status, centerId: row.centerId ?? null },
    userCenterId: actor.centerId ?? null,
  };
  return {
    upload: canUploadStudyAttachment(input, kind),
    remove: canDeleteStudyAttachment(input, kind),
  };
}

/**
 * Whether the row's images open, and what the user is told (spec-core §2 Viewer entry, §4, §5): the
 * viewer's own rule (core `viewerEntry`), so the list button and the viewer never disagree — a
 * deleted study or one without images is refused; a partial upload opens with its warning.
 */
export function viewEntryOf(
  row: Pick<TStudyListRow, 'status' | 'count' | 'apiVersion' | 'lastUploadCompletedAt'>,
): TViewerEntry {
  const upload = uploadStateOf({
    apiVersion: row.apiVersion,
    instanceCount: row.count.images,
    lastUploadCompletedAt: row.lastUploadCompletedAt,
  });
  return viewerEntry({ status: row.status, upload });
}

const studyPath = (row: Pick<TStudyListRow, 'instanceId' | 'id' | 'apiVersion'>) =>
  `${encodeURIComponent(row.instanceId)}/${row.id}?v=${row.apiVersion}`;

/**
 * spec-core §2 Route table: /viewer/:studyInstanceUids/:id?v={apiVersion}[&p=1][&d=1] — `d=1` the
 * diagnostic viewer, `p=1` a popup (core viewer-link.ts; which role gets which: `defaultViewerKind`).
 */
export function viewerPath(
  row: Pick<TStudyListRow, 'instanceId' | 'id' | 'apiVersion'>,
  options: TViewerLinkOptions,
): string {
  return viewerLink({ studyInstanceUid: row.instanceId, id: row.id, apiVersion: row.apiVersion }, options);
}

/** spec-core §2 Route table: /report-edit/:studyInstanceUids/:id (the Reporting issue's editor). */
export function reportEditPath(row: Pick<TStudyListRow, 'instanceId' | 'id' | 'apiVersion'>): string {
  return `/report-edit/${studyPath(row)}`;
}
