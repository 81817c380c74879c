import type { TTableKey } from '../common/constants.js';
import type { TGroupFlags } from '../settings/preferences.js';
import { type TRole, hasRole, isCenterUser } from '../identity/roles.js';
import { OPEN_STATUSES, type TReportStatus } from './statuses.js';

/**
 * The study list screens and their tabs (spec-core §2 "Study list screens", §4 "Tab filters", §7
 * "Lists and summaries"). A tab is a key, a label and the list-call filter it implies; the browser
 * sends the filter, the server applies it inside the user's own scope (spec-core §6), so a tab can
 * never widen what a user sees.
 */

/**
 * The study lists of spec-core §2: the admin/doctor list, the doctor list, the center report list
 * with and without the add-info-before-sending setting, and the tele-center report list.
 */
export const STUDY_LIST_KINDS = ['admin', 'doctor', 'center', 'centerAddInfo', 'teleCenter'] as const;
export type TStudyListKind = (typeof STUDY_LIST_KINDS)[number];

export const TAB_KEYS = [
  'all',
  'unassigned',
  'assigned',
  'pending',
  'signedOff',
  'urgent',
  'reprintNeeded',
  'myReports',
  'myPending',
  'sent',
  'readyReports',
  'pastReports',
] as const;
export type TTabKey = (typeof TAB_KEYS)[number];

/**
 * The list-call fields a tab sets (spec-core §7: POST /dicom-web/studies/ takes statuses,
 * showAssigned, showUnassigned, showUrgent, showPending, showReprintNeeded and assignedTos; POST
 * /report-status/ takes statuses and showUrgent). Absent means "no condition". Meaning, for the
 * server: statuses = status in the list; showAssigned = assignedTo set; showUnassigned = assignedTo
 * empty; showUrgent = urgent; showReprintNeeded = re-signed off after print (row signedOffAfterPrint);
 * assignedTos 'ME' = assigned to the caller. No tab sets showPending: every Pending tab names its
 * statuses instead, which is what the spec gives.
 */
export interface TTabFilter {
  statuses?: readonly TReportStatus[];
  showAssigned?: boolean;
  showUnassigned?: boolean;
  showUrgent?: boolean;
  showPending?: boolean;
  showReprintNeeded?: boolean;
  assignedTos?: 'ME';
}

export interface TStudyTab {
  key: TTabKey;
  label: string;
  filter: TTabFilter;
}

const tab = (key: TTabKey, label: string, filter: TTabFilter = {}): TStudyTab => ({ key, label, filter });

// Decision (spec silent): "All" is every study the user may see, deleted ones included.
const ALL = tab('all', 'All');
// Decision (spec silent): every Urgent tab lists urgent studies that still need work; an urgent study
// leaves the tab when it is signed off (it is then under Signed Off / Ready Reports) or deleted.
const URGENT = tab('urgent', 'Urgent', { showUrgent: true, statuses: OPEN_STATUSES });

/** spec-core §4 Tab filters, doctor list. */
const DOCTOR_PENDING: readonly TReportStatus[] = ['CREATED', 'HISTORY_CREATED', 'LOCKED'];
const DOCTOR_SIGNED_OFF: readonly TReportStatus[] = ['SIGNED_OFF', 'REPORTED', 'DRAFTED'];

/** spec-core §2 / §4: the admin/doctor list. */
const ADMIN_TABS: readonly TStudyTab[] = [
  ALL,
  // Decision: Unassigned and Assigned are the assignor's work queues, so they hold open studies only.
  tab('unassigned', 'Unassigned', { showUnassigned: true, statuses: OPEN_STATUSES }),
  tab('assigned', 'Assigned', { showAssigned: true, statuses: OPEN_STATUSES }),
  // Decision: admin Pending is every open status (REPORTED and DRAFTED wait for sign-off), the
  // complement of admin Signed Off = SIGNED_OFF (spec-core §4).
  tab('pending', 'Pending', { statuses: OPEN_STATUSES }),
  tab('signedOff', 'Signed Off', { statuses: ['SIGNED_OFF'] }),
  URGENT,
  // Decision: a reprint is needed for a signed-off report that was signed off again after it was
  // printed (spec-core §3 signedOffAfterPrint; §4 "please ask center to re-print it").
  tab('reprintNeeded', 'Reprint Needed', { showReprintNeeded: true, statuses: ['SIGNED_OFF'] }),
  // Decision: My Reports and My Pending split the caller's assigned studies the way Signed Off and
  // Pending split the list.
  tab('myReports', 'My Reports', { assignedTos: 'ME', statuses: ['SIGNED_OFF'] }),
  tab('myPending', 'My Pending', { assignedTos: 'ME', statuses: OPEN_STATUSES }),
];

/** spec-core §4 Tab filters, center list with add-info. */
const CENTER_ADD_INFO_TABS: readonly TStudyTab[] = [
  tab('pending', 'Pending', { statuses: ['CREATED'] }),
  tab('sent', 'Sent', { statuses: ['HISTORY_CREATED', 'LOCKED', 'REPORTED', 'DRAFTED'] }),
  tab('readyReports', 'Ready Reports', { statuses: ['SIGNED_OFF'] }),
  // Decision (spec silent for the center list): Past Reports as the tele list's Past.
  tab('pastReports', 'Past Reports', { statuses: ['SIGNED_OFF', 'DELETED'] }),
  URGENT,
  ALL,
];

const CENTER_TABS: readonly TStudyTab[] = [
  ALL,
  tab('readyReports', 'Ready Reports', { statuses: ['SIGNED_OFF'] }),
  URGENT,
];

/**
 * spec-core §4 Tab filters, tele list, exactly: REPORTED and DRAFTED studies are in none of its tabs.
 */
const TELE_TABS: readonly TStudyTab[] = [
  tab('pending', 'Pending', { statuses: ['CREATED'] }),
  tab('sent', 'Sent', { statuses: ['HISTORY_CREATED', 'LOCKED'] }),
  tab('readyReports', 'Ready Reports', { statuses: ['SIGNED_OFF'] }),
  tab('pastReports', 'Past Reports', { statuses: ['SIGNED_OFF', 'DELETED'] }),
];

export interface TTabOptions {
  /** The user is a typist (ROLE_TYPIST). */
  isTypist: boolean;
  /**
   * The "drafted setting" of spec-core §2 (doctor list: Signed Off "labelled Drafted for typists when
   * the drafted setting is on"). The spec names no switch for it, so the caller passes it.
   */
  draftedSetting: boolean;
}

/**
 * The tabs of a study list in their order (spec-core §2 Study list screens, §4 Tab filters).
 * The doctor list's Signed Off tab is labelled Drafted for typists when the drafted setting is on;
 * its statuses stay SIGNED_OFF, REPORTED and DRAFTED.
 */
export function tabsForList(
  kind: TStudyListKind,
  options: TTabOptions = { isTypist: false, draftedSetting: false },
): readonly TStudyTab[] {
  switch (kind) {
    case 'admin':
      return ADMIN_TABS;
    case 'doctor':
      return [
        ALL,
        tab('pending', 'Pending', { statuses: DOCTOR_PENDING }),
        tab('signedOff', options.isTypist && options.draftedSetting ? 'Drafted' : 'Signed Off', {
          statuses: DOCTOR_SIGNED_OFF,
        }),
        URGENT,
      ];
    case 'center':
      return CENTER_TABS;
    case 'centerAddInfo':
      return CENTER_ADD_INFO_TABS;
    case 'teleCenter':
      return TELE_TABS;
  }
}

/**
 * The tab to open: the remembered one (spec-core §2 "The selected tab is remembered") if this list
 * has it, else the list's first tab.
 */
export function resolveTab(tabs: readonly TStudyTab[], remembered: string | null | undefined): TStudyTab {
  const first = tabs[0];
  if (!first) throw new Error('a study list has at least one tab');
  return tabs.find((t) => t.key === remembered) ?? first;
}

/** The two list routes that show a study list (spec-core §2 route table and Menu per role). */
export const STUDY_LIST_ROUTES = ['/', '/status'] as const;
export type TStudyListRoute = (typeof STUDY_LIST_ROUTES)[number];

export interface TListUser {
  roles: readonly TRole[];
  /**
   * The user's user map (GET /user/mapping) has users under the doctor role: spec-core §2 "A doctor
   * sees this admin list if they have the doctor role in the user map".
   */
  hasDoctorRoleInUserMap: boolean;
}

/** Roles whose '/' is the admin/doctor list (spec-core §2; assignors, verifiers and billers have no menu of their own and work there). */
const ADMIN_LIST_ROLES: readonly TRole[] = ['ROLE_ADMIN', 'ROLE_ASSIGNOR', 'ROLE_VERIFIER', 'ROLE_BILLER'];
/** Roles with the Study list menu item (spec-core §2 Menu per role) who see the doctor list. */
const DOCTOR_LIST_ROLES: readonly TRole[] = [
  'ROLE_DOCTOR',
  'ROLE_TYPIST',
  'ROLE_REFERRING_DOCTOR',
  'ROLE_AUDITOR',
];

/**
 * Which study list a user sees at a route (spec-core §2 Study list screens, Menu per role):
 * - '/': the admin list for admins, assignors, verifiers, billers and a doctor with the doctor role
 *   in their user map; the doctor list for other doctors, typists, referring doctors and auditors;
 * - '/status': the tele-center list for tele-radiology users, else the center list for center users,
 *   in its add-info variant when sharingDetailBeforeSend is on. The spec calls that switch "the
 *   add-info-before-sending setting" without naming it; sharingDetailBeforeSend (§3, §5 "sharing
 *   details before sending") is taken as it.
 * null when the user has no study list at that route.
 */
export function listKindForUser(
  user: TListUser,
  flags: Pick<TGroupFlags, 'sharingDetailBeforeSend'>,
  route: TStudyListRoute,
): TStudyListKind | null {
  const { roles } = user;
  if (route === '/') {
    if (hasRole(roles, ...ADMIN_LIST_ROLES)) return 'admin';
    if (hasRole(roles, 'ROLE_DOCTOR') && user.hasDoctorRoleInUserMap) return 'admin';
    return hasRole(roles, ...DOCTOR_LIST_ROLES) ? 'doctor' : null;
  }
  if (hasRole(roles, 'ROLE_TELE_RADIOLOGY')) return 'teleCenter';
  // The offline-hybrid role has its own list at /hybrid-study-list.
  if (isCenterUser(roles.filter((r) => r !== 'ROLE_OFFLINE_HYBRID'))) {
    return flags.sharingDetailBeforeSend ? 'centerAddInfo' : 'center';
  }
  return null;
}

/** The table key (spec-core §9) whose column choice and kept search a list uses. */
export function tableKeyForList(kind: TStudyListKind): TTableKey {
  switch (kind) {
    case 'admin':
      return 'adminStudyList';
    case 'doctor':
      return 'studyList';
    case 'center':
    case 'centerAddInfo':
    case 'teleCenter':
      return 'centerReportList';
  }
}

/**
 * The list call a list uses (spec-core §7): the admin and doctor lists POST /dicom-web/studies/, the
 * center and tele lists POST /report-status/ (which takes only statuses and showUrgent, all their tabs
 * need). Paths relative to the API host.
 */
export function listCallPathForList(kind: TStudyListKind): '/dicom-web/studies/' | '/report-status/' {
  return kind === 'admin' || kind === 'doctor' ? '/dicom-web/studies/' : '/report-status/';
}
