import { describe, expect, it } from 'vitest';
import { REPORT_STATUSES } from '../worklist/statuses.js';
import {
  STUDY_EVENT_RULES,
  STUDY_EVENT_TYPES,
  isNotificationEvent,
  isStudyEventType,
} from './study-events.js';

/**
 * The rule the table replaced (issue 22 §2), kept here verbatim as the reference: a set of study
 * action names, the /REPORT|SIGN/ name pattern, and the status the event reached.
 */
const NAMED_BEFORE = new Set([
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
  // Added after the refactor (issue 23 §5), told to the report team like the report's own news.
  'CRITICAL_RESULT_RAISED',
  'CRITICAL_RESULT_ACKNOWLEDGED',
  'CRITICAL_RESULT_ESCALATED',
]);
const notifiedByNameBefore = (eventType: string) =>
  NAMED_BEFORE.has(eventType) || /REPORT|SIGN/.test(eventType);
const notifiedBefore = (event: { eventType: string; toStatus: string | null }) =>
  notifiedByNameBefore(event.eventType) ||
  event.toStatus === 'SIGNED_OFF' ||
  event.toStatus === 'REPORTED' ||
  event.toStatus === 'DRAFTED';

describe('the study event table', () => {
  it('notifies the report team for exactly the types the name pattern picked', () => {
    for (const type of STUDY_EVENT_TYPES) {
      expect(STUDY_EVENT_RULES[type].notifies.length > 0, type).toBe(notifiedByNameBefore(type));
    }
  });

  it('answers the notification timeline as before for every type and every status reached', () => {
    for (const eventType of STUDY_EVENT_TYPES) {
      for (const toStatus of [null, ...REPORT_STATUSES]) {
        expect(isNotificationEvent({ eventType, toStatus }), `${eventType} → ${toStatus}`).toBe(
          notifiedBefore({ eventType, toStatus }),
        );
      }
    }
  });

  it('says what each type means and names its writer', () => {
    for (const type of STUDY_EVENT_TYPES) {
      expect(STUDY_EVENT_RULES[type].meaning, type).not.toBe('');
      expect(STUDY_EVENT_RULES[type].writer, type).not.toBe('');
    }
  });

  it('tells a stored name it does not know from an event type', () => {
    expect(isStudyEventType('IMAGES_ATTACHED')).toBe(true);
    expect(isStudyEventType('IMAGE_ATTACHED')).toBe(false);
    expect(isStudyEventType('toString')).toBe(false);
  });
});
