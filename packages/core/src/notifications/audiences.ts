import { canChat } from '../chat/chat.js';
import { type TRole, hasRole } from '../identity/roles.js';
import type { TStudyEventType } from '../study-events/payloads.js';
import {
  NOTIFICATION_KINDS,
  type TNotificationKind,
  type TStudyEventAudience,
  bellRuleOf,
  isStudyEventType,
} from '../study-events/study-events.js';

/**
 * Who is in each audience of `STUDY_EVENT_RULES[type].notifies` (issue 23 §2). The roles part is
 * here; the relation to the study row is `isNotifiedOf` below, and the server's query states the
 * same relations in SQL (apps/server/src/modules/notifications). Whether the user may see the row at
 * all is the access rule's (`studyScopeOf`), asked first by the server.
 */

/** The staff of a center: the chat's 'center' members (core `chatMemberTypeOf`). */
export const CENTER_STAFF_ROLES: readonly TRole[] = [
  'ROLE_CENTER',
  'ROLE_CENTER_BACKUP',
  'ROLE_CENTER_SHARE_ALL',
  'ROLE_OFFLINE_HYBRID',
];

/** Who routes and oversees the group's work: told of escalations and rejected audits. */
export const ROUTER_ROLES: readonly TRole[] = ['ROLE_ASSIGNOR', 'ROLE_GROUP', 'ROLE_ADMIN'];

export interface TNotifiedUser {
  id: number;
  /** The account's e-mail as stored (an assignment names its doctor by it). */
  email: string;
  roles: readonly TRole[];
  centerId: number | null;
}

/**
 * The audiences a user can belong to, by their roles (and center). Every chat member can be
 * mentioned, so every chat role holds ADDRESSEE.
 */
export function heldAudiences(user: Pick<TNotifiedUser, 'roles' | 'centerId'>): TStudyEventAudience[] {
  const { roles } = user;
  const held: TStudyEventAudience[] = [];
  if (hasRole(roles, 'ROLE_DOCTOR', 'ROLE_AUDITOR')) held.push('ASSIGNEE');
  if (hasRole(roles, 'ROLE_DOCTOR')) held.push('ASSIGNED_DOCTOR');
  if (user.centerId !== null && hasRole(roles, ...CENTER_STAFF_ROLES)) held.push('CENTER');
  if (hasRole(roles, ...ROUTER_ROLES)) held.push('ROUTERS');
  if (hasRole(roles, 'ROLE_VERIFIER')) held.push('VERIFIERS');
  if (hasRole(roles, 'ROLE_REFERRING_DOCTOR')) held.push('REFERRING_DOCTOR');
  if (canChat(roles)) held.push('ADDRESSEE');
  return held;
}

/**
 * Who has the bell (and the notification calls): every role that is an audience of something.
 * Decision: the spec gives the bell to doctors and centers (spec-core §6); issue 23 §2 adds
 * 'verification needed', escalations and messages for anyone in the chat, so the bell follows the
 * audiences: every chat role (a mention reaches them) and the referring doctor (critical results).
 */
export function hasNotifications(roles: readonly TRole[]): boolean {
  return heldAudiences({ roles, centerId: null }).length > 0;
}

/**
 * Which kinds pop up when the user has not chosen (UI_PREFERENCES.notificationPopups null): all for
 * doctors and centers (spec-lab §6 'ROLE_DOCTOR and ROLE_CENTER see ... report popups'), none for the
 * others, who opt in.
 */
export function popupKindsOf(
  roles: readonly TRole[],
  chosen: readonly TNotificationKind[] | null,
): TNotificationKind[] {
  if (chosen !== null) return NOTIFICATION_KINDS.filter((k) => chosen.includes(k));
  return hasRole(roles, 'ROLE_DOCTOR', 'ROLE_CENTER') ? [...NOTIFICATION_KINDS] : [];
}

/** The columns of the study row the relations read. */
export interface TNotifiedRow {
  centerId: number;
  assignedToUserId: number | null;
  lockedByUserId: number | null;
  referringDoctorUserId: number | null;
}

export interface TNotifyingEvent {
  eventType: string;
  actorUserId: number | null;
  fromStatus: string | null;
  toStatus: string | null;
  detail: unknown;
}

/** The event's named assignee (ASSIGNED's doctor, AUDITOR_ASSIGNED's auditor), by the detail field. */
export const ASSIGNEE_FIELDS: Partial<Record<TStudyEventType, string>> = {
  ASSIGNED: 'assignedTo',
  AUDITOR_ASSIGNED: 'auditor',
};

const fieldOf = (detail: unknown, field: string): unknown =>
  detail !== null && typeof detail === 'object' ? (detail as Record<string, unknown>)[field] : undefined;

/** Whether the user is in `audience` for this event on this row (roles included). */
export function isInAudience(
  audience: TStudyEventAudience,
  user: TNotifiedUser,
  event: TNotifyingEvent,
  row: TNotifiedRow,
): boolean {
  if (!heldAudiences(user).includes(audience)) return false;
  const rowDoctor = row.assignedToUserId === user.id || row.lockedByUserId === user.id;
  const ofCenter = row.centerId === user.centerId;
  switch (audience) {
    case 'REPORT_TEAM':
      return false;
    case 'ASSIGNEE': {
      const field = isStudyEventType(event.eventType) ? ASSIGNEE_FIELDS[event.eventType] : undefined;
      return field !== undefined && fieldOf(event.detail, field) === user.email;
    }
    case 'ASSIGNED_DOCTOR':
      return rowDoctor;
    case 'CENTER':
      return ofCenter;
    case 'ROUTERS':
    case 'VERIFIERS':
      return true;
    case 'REFERRING_DOCTOR':
      return row.referringDoctorUserId === user.id;
    case 'ADDRESSEE': {
      const mentions = fieldOf(event.detail, 'mentions');
      if (Array.isArray(mentions) && mentions.includes(user.id)) return true;
      const held = heldAudiences(user);
      switch (fieldOf(event.detail, 'assignedTo')) {
        case 'center':
          return held.includes('CENTER') && ofCenter;
        case 'radiologist':
          return held.includes('ASSIGNED_DOCTOR') && rowDoctor;
        case 'admin':
          return held.includes('ROUTERS');
        default:
          return false;
      }
    }
  }
}

/**
 * The audience decision (issue 23 §2): the kind of notification `user` gets for `event` on `row`, or
 * null. Someone's own action is never their news; an event with a `reaching` status counts only when
 * it moved the row there. The row's visibility is asked before (the access rule).
 */
export function notificationKindFor(
  user: TNotifiedUser,
  event: TNotifyingEvent,
  row: TNotifiedRow,
): TNotificationKind | null {
  if (!isStudyEventType(event.eventType) || event.actorUserId === user.id) return null;
  const rule = bellRuleOf(event.eventType);
  if (!rule) return null;
  if (rule.reaching && (event.toStatus !== rule.reaching || event.fromStatus === rule.reaching)) return null;
  return rule.audiences.some((a) => isInAudience(a, user, event, row)) ? rule.kind : null;
}
