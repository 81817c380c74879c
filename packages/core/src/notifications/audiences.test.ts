import { describe, expect, it } from 'vitest';
import type { TRole } from '../identity/roles.js';
import {
  BELL_EVENT_TYPES,
  NOTIFICATION_KINDS,
  STUDY_EVENT_RULES,
  STUDY_EVENT_TYPES,
  bellRuleOf,
  isNotificationEvent,
} from '../study-events/study-events.js';
import {
  type TNotifiedRow,
  type TNotifiedUser,
  type TNotifyingEvent,
  hasNotifications,
  heldAudiences,
  notificationKindFor,
  popupKindsOf,
} from './audiences.js';

const CENTER = 7;
const user = (id: number, roles: TRole[], centerId: number | null = null): TNotifiedUser => ({
  id,
  email: `u${id}@test.local`,
  roles,
  centerId,
});
const doctor = user(1, ['ROLE_DOCTOR']);
const otherDoctor = user(2, ['ROLE_DOCTOR']);
const center = user(3, ['ROLE_CENTER'], CENTER);
const otherCenter = user(4, ['ROLE_CENTER'], CENTER + 1);
const assignor = user(5, ['ROLE_ASSIGNOR']);
const verifier = user(6, ['ROLE_VERIFIER']);
const referring = user(8, ['ROLE_REFERRING_DOCTOR']);
const typist = user(9, ['ROLE_TYPIST']);
const everyone = [doctor, otherDoctor, center, otherCenter, assignor, verifier, referring, typist];

const row: TNotifiedRow = {
  centerId: CENTER,
  assignedToUserId: doctor.id,
  lockedByUserId: null,
  referringDoctorUserId: referring.id,
};
const event = (eventType: string, detail: unknown = null, more: Partial<TNotifyingEvent> = {}) => ({
  eventType,
  actorUserId: 99,
  fromStatus: null,
  toStatus: null,
  detail,
  ...more,
});
/** Who of `everyone` is told, by id. */
const told = (e: TNotifyingEvent, r: TNotifiedRow = row) =>
  everyone.filter((u) => notificationKindFor(u, e, r) !== null).map((u) => u.id);

describe('who is told what (issue 23 §2)', () => {
  it('tells the assigned doctor, and no other doctor, that a study was assigned to them', () => {
    const e = event('ASSIGNED', { assignedTo: doctor.email, previousAssignedToUserId: null });
    expect(told(e)).toEqual([doctor.id]);
    expect(notificationKindFor(doctor, e, row)).toBe('ASSIGNED_TO_YOU');
    // A later reassignment: the new doctor is not told of the first assignment.
    expect(notificationKindFor(otherDoctor, e, { ...row, assignedToUserId: otherDoctor.id })).toBeNull();
  });

  it("tells the row's doctor (assigned or locking) of urgency, rework and new images", () => {
    const locked = { ...row, assignedToUserId: null, lockedByUserId: otherDoctor.id };
    expect(told(event('URGENT_MARKED'), locked)).toEqual([otherDoctor.id]);
    expect(told(event('REWORKED', { deletedReports: 1 }))).toEqual([doctor.id]);
    expect(told(event('NEW_IMAGES_AFTER_SIGN_OFF', { source: 'x', studyInstanceUid: '1' }))).toEqual([
      doctor.id,
      center.id,
    ]);
  });

  it("tells the row's center, not another, of a report reaching REPORTED and of sign-offs", () => {
    expect(told(event('REPORT_SAVED', null, { fromStatus: 'LOCKED', toStatus: 'REPORTED' }))).toEqual([
      center.id,
    ]);
    // A draft, or a re-save of a reported report, is nobody's news.
    expect(told(event('REPORT_SAVED', null, { fromStatus: 'LOCKED', toStatus: 'DRAFTED' }))).toEqual([]);
    expect(told(event('REPORT_SAVED', null, { fromStatus: 'REPORTED', toStatus: 'REPORTED' }))).toEqual([]);
    expect(told(event('REPORT_SIGNED_OFF'))).toEqual([center.id]);
    expect(notificationKindFor(center, event('REPORT_VERIFIED'), row)).toBe('SIGNED_OFF');
  });

  it('tells verifiers that a report waits for them, routers of escalations and rejected audits', () => {
    expect(told(event('REPORT_SENT_FOR_VERIFICATION'))).toEqual([verifier.id]);
    expect(told(event('CRITICAL_RESULT_ESCALATED'))).toEqual([assignor.id]);
    expect(told(event('AUDIT_REJECTED'))).toEqual([doctor.id, assignor.id]);
  });

  it('tells the center and the referring doctor of a critical result, the doctor of its acknowledgement', () => {
    expect(told(event('CRITICAL_RESULT_RAISED'))).toEqual([center.id, referring.id]);
    expect(told(event('CRITICAL_RESULT_ACKNOWLEDGED'))).toEqual([doctor.id]);
    expect(notificationKindFor(center, event('CRITICAL_RESULT_RAISED'), row)).toBe('CRITICAL_RESULT');
  });

  it("tells a chat message's addressee by its assignedTo, and every user it mentions", () => {
    const message = (assignedTo: string, mentions?: number[]) =>
      event('CHAT_MESSAGE_SENT', { messageId: 1, assignedTo, ...(mentions ? { mentions } : {}) });
    expect(told(message('center'))).toEqual([center.id]);
    expect(told(message('radiologist'))).toEqual([doctor.id]);
    expect(told(message('admin'))).toEqual([assignor.id]);
    expect(told(message('NONE'))).toEqual([]);
    expect(told(message('NONE', [typist.id, verifier.id]))).toEqual([verifier.id, typist.id]);
    expect(notificationKindFor(typist, message('NONE', [typist.id]), row)).toBe('MESSAGE');
  });

  it("never tells someone of their own action, nor of events nobody's bell hears", () => {
    const own = event('ASSIGNED', { assignedTo: doctor.email, previousAssignedToUserId: null });
    expect(notificationKindFor(doctor, { ...own, actorUserId: doctor.id }, row)).toBeNull();
    for (const type of ['DETAILS_UPDATED', 'REPORT_LOCKED', 'UNASSIGNED', 'NOT_A_TYPE']) {
      expect(told(event(type)), type).toEqual([]);
    }
  });
});

describe('the rules table and the bell', () => {
  it('labels exactly the types some bell hears, and every kind has a type', () => {
    for (const type of STUDY_EVENT_TYPES) {
      const rule = STUDY_EVENT_RULES[type];
      const bell = [...rule.notifies, ...(rule.addressed ?? [])].some((a) => a !== 'REPORT_TEAM');
      expect(rule.kind !== undefined, type).toBe(bell);
      // REPORT_TEAM is the timeline alone: never beside a bell audience.
      if (bell) expect(rule.notifies, type).not.toContain('REPORT_TEAM');
    }
    const kinds = new Set(BELL_EVENT_TYPES.map((t) => bellRuleOf(t)?.kind));
    for (const kind of NOTIFICATION_KINDS) expect(kinds.has(kind), kind).toBe(true);
  });

  it('keeps a chat message off the report notification timeline (it is in its thread)', () => {
    expect(bellRuleOf('CHAT_MESSAGE_SENT')?.audiences).toEqual(['ADDRESSEE']);
    expect(isNotificationEvent({ eventType: 'CHAT_MESSAGE_SENT', toStatus: null })).toBe(false);
  });

  it('gives the bell to every role that is an audience of something', () => {
    for (const roles of [
      ['ROLE_DOCTOR'],
      ['ROLE_CENTER'],
      ['ROLE_ASSIGNOR'],
      ['ROLE_VERIFIER'],
      ['ROLE_TYPIST'],
      ['ROLE_AUDITOR'],
      ['ROLE_REFERRING_DOCTOR'],
    ] as TRole[][]) {
      expect(hasNotifications(roles), roles[0]).toBe(true);
    }
    for (const roles of [
      ['ROLE_CUSTOMER'],
      ['ROLE_VIEWER'],
      ['ROLE_RADFLOW_SALES'],
      ['ROLE_BILLER'],
    ] as TRole[][]) {
      expect(hasNotifications(roles), roles[0]).toBe(false);
    }
    expect(heldAudiences({ roles: ['ROLE_CENTER'], centerId: null })).not.toContain('CENTER');
  });

  it('pops up every kind for doctors and centers unless they chose, nothing for others until they opt in', () => {
    expect(popupKindsOf(['ROLE_DOCTOR'], null)).toEqual([...NOTIFICATION_KINDS]);
    expect(popupKindsOf(['ROLE_CENTER'], null)).toEqual([...NOTIFICATION_KINDS]);
    expect(popupKindsOf(['ROLE_ASSIGNOR'], null)).toEqual([]);
    expect(popupKindsOf(['ROLE_ASSIGNOR'], ['CRITICAL_RESULT'])).toEqual(['CRITICAL_RESULT']);
    expect(popupKindsOf(['ROLE_DOCTOR'], [])).toEqual([]);
  });
});
