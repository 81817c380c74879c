import { describe, expect, it } from 'vitest';
import { isNotificationEvent } from './study-events.js';

const event = (eventType: string, toStatus: 'SIGNED_OFF' | 'CREATED' | null = null) => ({
  eventType,
  toStatus,
});

describe('the report notification timeline', () => {
  it('keeps assignment, urgency, lock, rework, audit and deletion', () => {
    for (const type of [
      'ASSIGNED',
      'UNASSIGNED',
      'URGENT_MARKED',
      'UNLOCKED',
      'REWORKED',
      'AUDIT_REJECTED',
      'DELETED',
    ]) {
      expect(isNotificationEvent(event(type)), type).toBe(true);
    }
  });

  it('keeps report events and sign-offs, by name or by the status they reach', () => {
    expect(isNotificationEvent(event('REPORT_SIGNED_OFF'))).toBe(true);
    expect(isNotificationEvent(event('SOMETHING', 'SIGNED_OFF'))).toBe(true);
  });

  it("leaves the center's detail edits and study-type changes out", () => {
    expect(isNotificationEvent(event('DETAILS_UPDATED'))).toBe(false);
    expect(isNotificationEvent(event('STUDY_PARTS_UPDATED', 'CREATED'))).toBe(false);
  });
});
