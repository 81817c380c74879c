import type { TReportStatus } from '../worklist/statuses.js';
import type { TStudyEventType } from './payloads.js';

/**
 * Who is told about an event (issue 23 §2). Each audience is a relation between a user and the
 * event's study row; core `notifications/audiences.ts` says who holds each one and decides, the
 * server turns the same relations into SQL (modules/notifications).
 * - REPORT_TEAM: the report notification timeline only (spec-core §2), read by whoever opens the
 *   study; nobody's bell. Kept for the events that are report news but nobody's personal news.
 * - ASSIGNEE: the user the event names as the new assignee (ASSIGNED's doctor, AUDITOR_ASSIGNED's
 *   auditor): 'assigned to you'.
 * - ASSIGNED_DOCTOR: the row's doctor now, assigned to it or holding its lock.
 * - CENTER: the staff of the row's center.
 * - ROUTERS: who routes and oversees the group's work (assignors, group admins, admins).
 * - VERIFIERS: the group's verifiers.
 * - REFERRING_DOCTOR: the referring doctor the study was shared with.
 * - ADDRESSEE: a chat message's addressee (its `assignedTo`: the center's staff, the row's doctor or
 *   the routers) and every user it mentions.
 */
export const STUDY_EVENT_AUDIENCES = [
  'REPORT_TEAM',
  'ASSIGNEE',
  'ASSIGNED_DOCTOR',
  'CENTER',
  'ROUTERS',
  'VERIFIERS',
  'REFERRING_DOCTOR',
  'ADDRESSEE',
] as const;
export type TStudyEventAudience = (typeof STUDY_EVENT_AUDIENCES)[number];

/**
 * What a bell notification says, as the user reads it (issue 23 §2's list, plus the audit verdict
 * that sends the report back). The type of event decides it (`STUDY_EVENT_RULES[type].kind`).
 */
export const NOTIFICATION_KINDS = [
  'ASSIGNED_TO_YOU',
  'URGENT',
  'REWORKED',
  'REPORTED',
  'SIGNED_OFF',
  'VERIFICATION_NEEDED',
  'NEW_IMAGES',
  'MESSAGE',
  'CRITICAL_RESULT',
  'AUDIT_REJECTED',
] as const;
export type TNotificationKind = (typeof NOTIFICATION_KINDS)[number];

export const NOTIFICATION_KIND_LABELS: Record<TNotificationKind, string> = {
  ASSIGNED_TO_YOU: 'Assigned to you',
  URGENT: 'Urgent',
  REWORKED: 'Reworked',
  REPORTED: 'Reported',
  SIGNED_OFF: 'Signed off',
  VERIFICATION_NEEDED: 'Verification needed',
  NEW_IMAGES: 'New images after sign-off',
  MESSAGE: 'A message for you',
  CRITICAL_RESULT: 'Critical result',
  AUDIT_REJECTED: 'Audit rejected',
};

/** The server module that writes the event (server modules/<writer>). */
export type TStudyEventWriter =
  | 'study-actions'
  | 'reporting'
  | 'report-documents'
  | 'report-tags'
  | 'report-audio'
  | 'study-attachments'
  | 'forwarding'
  | 'payments'
  | 'study-sharing'
  | 'share-page'
  | 'archive'
  | 'chat'
  | 'critical-results';

export interface TStudyEventRule {
  /** What happened, in a sentence. */
  meaning: string;
  writer: TStudyEventWriter;
  /**
   * Who is notified; any audience puts the event on the report notification timeline. Empty for
   * events nobody is told about.
   */
  notifies: readonly TStudyEventAudience[];
  /**
   * Told on their bell only, not on the report timeline: a chat message belongs to its thread
   * (REPORT_CHAT), not to the study's notification timeline (spec-core §1 threadType).
   */
  addressed?: readonly TStudyEventAudience[];
  /** The label of the bell notification; set exactly when some audience besides REPORT_TEAM is told. */
  kind?: TNotificationKind;
  /**
   * Only an event that moved the row into this status reaches a bell: a report saved as REPORTED is
   * news for the center, the drafts and re-saves before and after it are not.
   */
  reaching?: TReportStatus;
}

const team = ['REPORT_TEAM'] as const;
const nobody = [] as const;

/**
 * The one table of study events: every type (a missing or extra one does not compile), what it
 * means, who writes it and who is notified. Decision (issue 22 §2): the audience is per type; the
 * `/REPORT|SIGN/` name pattern that used to decide it gave this same answer for every type here
 * (study-events.test.ts pins that). Issue 23 §2 split the one REPORT_TEAM audience into the people
 * each event is news for (their bell); the types nobody is personally told about keep REPORT_TEAM
 * (the timeline alone), so the timeline answers as before.
 */
export const STUDY_EVENT_RULES: { readonly [K in TStudyEventType]: TStudyEventRule } = {
  DETAILS_UPDATED: { meaning: 'The study details were edited', writer: 'study-actions', notifies: nobody },
  SENT_FOR_REPORTING: {
    meaning: 'The center sent the study for reporting (CREATED → HISTORY_CREATED)',
    writer: 'study-actions',
    notifies: team,
  },
  STUDY_PARTS_UPDATED: { meaning: 'The study types were changed', writer: 'study-actions', notifies: nobody },
  URGENT_MARKED: {
    meaning: 'The study was marked urgent',
    writer: 'study-actions',
    notifies: ['ASSIGNED_DOCTOR'],
    kind: 'URGENT',
  },
  URGENT_UNMARKED: { meaning: 'The urgent mark was removed', writer: 'study-actions', notifies: team },
  DELETED: { meaning: 'The study was marked deleted', writer: 'study-actions', notifies: team },
  SPLIT: { meaning: 'A new report row was split off this one', writer: 'study-actions', notifies: nobody },
  SPLIT_CREATED: {
    meaning: 'This report row was created by splitting another',
    writer: 'study-actions',
    notifies: nobody,
  },
  UNLOCKED: { meaning: 'The report was unlocked and reopened', writer: 'study-actions', notifies: team },
  REWORKED: {
    meaning: 'The reports were deleted for rework',
    writer: 'study-actions',
    notifies: ['ASSIGNED_DOCTOR'],
    kind: 'REWORKED',
  },
  ASSIGNED: {
    meaning: 'The study was assigned to a doctor',
    writer: 'study-actions',
    notifies: ['ASSIGNEE'],
    kind: 'ASSIGNED_TO_YOU',
  },
  UNASSIGNED: { meaning: 'The doctor assignment was removed', writer: 'study-actions', notifies: team },
  AUDITOR_ASSIGNED: {
    meaning: 'An auditor was assigned',
    writer: 'study-actions',
    notifies: ['ASSIGNEE'],
    kind: 'ASSIGNED_TO_YOU',
  },
  AUDITOR_UNASSIGNED: { meaning: 'The auditor was removed', writer: 'study-actions', notifies: team },
  AUDIT_APPROVED: { meaning: 'The auditor approved the report', writer: 'study-actions', notifies: team },
  AUDIT_REJECTED: {
    meaning: 'The auditor rejected the report',
    writer: 'study-actions',
    notifies: ['ASSIGNED_DOCTOR', 'ROUTERS'],
    kind: 'AUDIT_REJECTED',
  },

  REPORT_LOCKED: { meaning: 'A doctor took the report (lock)', writer: 'reporting', notifies: team },
  REPORT_SAVED: {
    meaning: 'The report was saved (REPORTED or DRAFTED)',
    writer: 'reporting',
    notifies: ['CENTER'],
    kind: 'REPORTED',
    reaching: 'REPORTED',
  },
  REPORT_SENT_FOR_VERIFICATION: {
    meaning: 'The report was signed off and waits for a verifier',
    writer: 'reporting',
    notifies: ['VERIFIERS'],
    kind: 'VERIFICATION_NEEDED',
  },
  REPORT_SIGNED_OFF: {
    meaning: 'The report was signed off',
    writer: 'reporting',
    notifies: ['CENTER'],
    kind: 'SIGNED_OFF',
  },
  REPORT_VERIFIED: {
    meaning: 'A verifier signed the report off',
    writer: 'reporting',
    notifies: ['CENTER'],
    kind: 'SIGNED_OFF',
  },
  REPORT_ADDENDUM_ADDED: { meaning: 'An addendum was signed', writer: 'reporting', notifies: team },
  REPORT_PRINTED: { meaning: 'The center printed the report', writer: 'report-documents', notifies: team },

  TAG_ADDED: { meaning: 'A tag was added', writer: 'report-tags', notifies: nobody },
  TAG_DELETED: { meaning: 'A tag was removed', writer: 'report-tags', notifies: nobody },
  TAG_UPDATED: { meaning: 'A tag was switched local/global', writer: 'report-tags', notifies: nobody },
  AUDIO_ADDED: { meaning: 'An audio note was recorded', writer: 'report-audio', notifies: nobody },
  AUDIO_DELETED: { meaning: 'An audio note was deleted', writer: 'report-audio', notifies: nobody },
  ATTACHMENT_ADDED: { meaning: 'A file was attached', writer: 'study-attachments', notifies: nobody },
  ATTACHMENT_DELETED: {
    meaning: 'An attached file was deleted',
    writer: 'study-attachments',
    notifies: nobody,
  },

  FORWARD_REQUESTED: { meaning: 'The study was sent to a PACS', writer: 'forwarding', notifies: nobody },
  FORWARD_RESENT: { meaning: 'Failed instances were sent again', writer: 'forwarding', notifies: nobody },

  PAYMENT_REQUESTED: { meaning: 'A payment was requested', writer: 'payments', notifies: nobody },
  PAYMENT_RECORDED: { meaning: 'A payment was recorded by hand', writer: 'payments', notifies: nobody },
  PAYMENT_PAID: { meaning: 'The payment provider confirmed payment', writer: 'payments', notifies: nobody },
  PAYMENT_CANCELLED: { meaning: 'The payment request was cancelled', writer: 'payments', notifies: nobody },

  REFERRING_DOCTOR_SAVED: {
    meaning: 'A referring doctor user was linked to the study',
    writer: 'study-sharing',
    notifies: nobody,
  },
  SHARED_BY_MESSAGE: {
    meaning: 'The report link was sent by SMS/WhatsApp',
    writer: 'study-sharing',
    notifies: nobody,
  },
  SHARED_BY_EMAIL: {
    meaning: 'The report link was sent by e-mail',
    writer: 'study-sharing',
    notifies: nobody,
  },
  SHARE_OPENED: { meaning: 'Someone opened the share page', writer: 'share-page', notifies: nobody },

  // A message tells its addressee ('a message for you') on the bell; the chat thread shows it.
  CHAT_MESSAGE_SENT: {
    meaning: "A message was posted in the study's chat",
    writer: 'chat',
    notifies: nobody,
    addressed: ['ADDRESSEE'],
    kind: 'MESSAGE',
  },

  CRITICAL_RESULT_RAISED: {
    meaning: 'The radiologist marked a finding critical',
    writer: 'critical-results',
    notifies: ['CENTER', 'REFERRING_DOCTOR'],
    kind: 'CRITICAL_RESULT',
  },
  CRITICAL_RESULT_DELIVERED: {
    meaning: 'A critical result reached an addressee (in-app, SMS or e-mail)',
    writer: 'critical-results',
    notifies: nobody,
  },
  CRITICAL_RESULT_ACKNOWLEDGED: {
    meaning: 'Someone acknowledged the critical result',
    writer: 'critical-results',
    notifies: ['ASSIGNED_DOCTOR'],
    kind: 'CRITICAL_RESULT',
  },
  CRITICAL_RESULT_ESCALATED: {
    meaning: 'The critical result was not acknowledged in time and went to the group admin',
    writer: 'critical-results',
    notifies: ['ROUTERS'],
    kind: 'CRITICAL_RESULT',
  },

  STUDY_CREATED: {
    meaning: 'The report row was created (first image, upload or the create-study form)',
    writer: 'archive',
    notifies: nobody,
  },
  IMAGES_ATTACHED: {
    meaning: 'Images were attached to a row that held an imageless study',
    writer: 'archive',
    notifies: nobody,
  },
  NEW_IMAGES_AFTER_SIGN_OFF: {
    meaning: 'Images arrived after the report was signed off',
    writer: 'archive',
    notifies: ['ASSIGNED_DOCTOR', 'CENTER'],
    kind: 'NEW_IMAGES',
  },
  FOREIGN_IMAGES_REFUSED: {
    meaning: "Another center's images of this study were refused (once an hour)",
    writer: 'archive',
    notifies: nobody,
  },
};

/** Every event type, in the table's order. */
export const STUDY_EVENT_TYPES = Object.keys(STUDY_EVENT_RULES) as readonly TStudyEventType[];

/** Whether a stored name is a known event type (a row may hold a name from another version). */
export function isStudyEventType(name: string): name is TStudyEventType {
  return Object.hasOwn(STUDY_EVENT_RULES, name);
}

/** A row reaching one of these statuses is report news, whichever event moved it there. */
const REPORT_NEWS_STATUSES: ReadonlySet<string> = new Set<TReportStatus>([
  'SIGNED_OFF',
  'REPORTED',
  'DRAFTED',
]);

/**
 * The events of the report notification timeline (spec-core §2): what the people working on the
 * report were told about — who it went to, its urgency, its locks, rework, audit and the report
 * itself — without the center's detail edits. Decision (the spec names the dialog only): the
 * table's audience decides, plus any event that leaves the row in a reported or signed-off status.
 * The name is a string because a stored row may hold a name this version does not know.
 */
export function isNotificationEvent(event: { eventType: string; toStatus: TReportStatus | null }): boolean {
  return (
    (isStudyEventType(event.eventType) && STUDY_EVENT_RULES[event.eventType].notifies.length > 0) ||
    (event.toStatus !== null && REPORT_NEWS_STATUSES.has(event.toStatus))
  );
}

/**
 * The audiences whose bell hears an event of this type (REPORT_TEAM is the timeline, not a bell),
 * and its label; null when no bell hears it.
 */
export function bellRuleOf(
  type: TStudyEventType,
): { audiences: readonly TStudyEventAudience[]; kind: TNotificationKind; reaching?: TReportStatus } | null {
  const rule: TStudyEventRule = STUDY_EVENT_RULES[type];
  const audiences = [...rule.notifies, ...(rule.addressed ?? [])].filter((a) => a !== 'REPORT_TEAM');
  if (audiences.length === 0 || rule.kind === undefined) return null;
  return { audiences, kind: rule.kind, ...(rule.reaching ? { reaching: rule.reaching } : {}) };
}

/** The event types some bell hears (the server's query reads only these). */
export const BELL_EVENT_TYPES: readonly TStudyEventType[] = STUDY_EVENT_TYPES.filter(
  (type) => bellRuleOf(type) !== null,
);
