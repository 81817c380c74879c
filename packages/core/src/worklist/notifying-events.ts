import type { TStudyEvent, TStudyEventType } from './study-actions-schemas.js';

/**
 * The events of the report notification timeline (spec-core §2): what the people working on the
 * report were told about — who it went to, its urgency, its locks, rework and audit — without the
 * center's detail edits. Decision (the spec names the dialog only): a filter on the study timeline,
 * here so that the notifications the server sends later pick the same events.
 */
const NOTIFYING: ReadonlySet<string> = new Set<TStudyEventType>([
  'SENT_FOR_REPORTING',
  'URGENT_MARKED',
  'URGENT_UNMARKED',
  'UNLOCKED',
  'REWORKED',
  'ASSIGNED',
  'UNASSIGNED',
  'AUDITOR_ASSIGNED',
  'AUDITOR_UNASSIGNED',
  'AUDIT_APPROVED',
  'AUDIT_REJECTED',
  'DELETED',
]);

/** Report events (written by the reporting module: drafts, sign-offs) notify as well. */
export function isNotificationEvent(event: Pick<TStudyEvent, 'eventType' | 'toStatus'>): boolean {
  return (
    NOTIFYING.has(event.eventType) ||
    /REPORT|SIGN/.test(event.eventType) ||
    event.toStatus === 'SIGNED_OFF' ||
    event.toStatus === 'REPORTED' ||
    event.toStatus === 'DRAFTED'
  );
}
