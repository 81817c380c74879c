import { describe, expect, it } from 'vitest';
import { ZAdminPreferences } from '../settings/preferences.js';
import {
  CRITICAL_FINDING_MAX_LENGTH,
  CRITICAL_RESULT_MESSAGES as M,
  DEFAULT_CRITICAL_ESCALATION_MINUTES,
  ZRaiseCriticalResultRequest,
  checkAcknowledgeCriticalResult,
  checkRaiseCriticalResult,
  criticalResultStateOf,
  criticalResultSteps,
  escalationDueAt,
  escalationMinutesOf,
  mayAcknowledgeCriticalResults,
} from './critical-results.js';

const free = { status: 'LOCKED' as const, assignedToUserId: null, lockedByUserId: 7 };

describe('who raises a critical result', () => {
  it('is the doctor who may write the row: its lock holder, its assignee, or any doctor on a pool row', () => {
    expect(checkRaiseCriticalResult({ roles: ['ROLE_DOCTOR'], userId: 7, row: free })).toBeNull();
    const assigned = { status: 'HISTORY_CREATED' as const, assignedToUserId: 7, lockedByUserId: null };
    expect(checkRaiseCriticalResult({ roles: ['ROLE_DOCTOR'], userId: 7, row: assigned })).toBeNull();
    const pool = { status: 'CREATED' as const, assignedToUserId: null, lockedByUserId: null };
    expect(checkRaiseCriticalResult({ roles: ['ROLE_DOCTOR'], userId: 9, row: pool })).toBeNull();
  });

  it("refuses another doctor's row (403) and a deleted study (409)", () => {
    expect(checkRaiseCriticalResult({ roles: ['ROLE_DOCTOR'], userId: 8, row: free })).toMatchObject({
      kind: 'FORBIDDEN',
    });
    const deleted = { ...free, status: 'DELETED' as const };
    expect(checkRaiseCriticalResult({ roles: ['ROLE_DOCTOR'], userId: 7, row: deleted })?.kind).toBe(
      'CONFLICT',
    );
  });

  it('refuses the center, admins, typists and the read-only roles', () => {
    for (const role of [
      'ROLE_CENTER',
      'ROLE_ADMIN',
      'ROLE_GROUP',
      'ROLE_TYPIST',
      'ROLE_REFERRING_DOCTOR',
    ] as const) {
      expect(checkRaiseCriticalResult({ roles: [role], userId: 7, row: free }), role).toEqual({
        kind: 'FORBIDDEN',
        message: M.notRaiser,
        field: 'roles',
      });
    }
  });
});

describe('who acknowledges', () => {
  const row = { centerId: 3, referringDoctorUserId: 11 };
  const center = { roles: ['ROLE_CENTER' as const], userId: 20, centerId: 3 };

  it("is the row's center staff and its referring doctor, in any open state", () => {
    for (const state of ['RAISED', 'ESCALATED'] as const) {
      expect(checkAcknowledgeCriticalResult({ user: center, row, state })).toBeNull();
      const referring = { roles: ['ROLE_REFERRING_DOCTOR' as const], userId: 11, centerId: null };
      expect(checkAcknowledgeCriticalResult({ user: referring, row, state })).toBeNull();
    }
  });

  it("refuses another center's staff and a referring doctor not linked to the study", () => {
    expect(
      checkAcknowledgeCriticalResult({ user: { ...center, centerId: 4 }, row, state: 'RAISED' })?.message,
    ).toBe(M.notAcknowledger);
    const other = { roles: ['ROLE_REFERRING_DOCTOR' as const], userId: 12, centerId: null };
    expect(checkAcknowledgeCriticalResult({ user: other, row, state: 'RAISED' })?.kind).toBe('FORBIDDEN');
  });

  it('lets the group admins acknowledge only after escalation', () => {
    const admin = { roles: ['ROLE_GROUP' as const], userId: 30, centerId: null };
    expect(checkAcknowledgeCriticalResult({ user: admin, row, state: 'RAISED' })?.message).toBe(
      M.adminBeforeEscalation,
    );
    expect(checkAcknowledgeCriticalResult({ user: admin, row, state: 'ESCALATED' })).toBeNull();
  });

  it('tells the roles that can never acknowledge', () => {
    expect(mayAcknowledgeCriticalResults(['ROLE_DOCTOR'])).toBe(false);
    expect(mayAcknowledgeCriticalResults(['ROLE_CENTER_CUSTOMER'])).toBe(false);
    expect(mayAcknowledgeCriticalResults(['ROLE_CENTER'])).toBe(true);
    expect(mayAcknowledgeCriticalResults(['ROLE_ADMIN'])).toBe(true);
  });
});

describe('the states', () => {
  it('go RAISED → ESCALATED → ACKNOWLEDGED, and an acknowledgment ends it whatever came before', () => {
    expect(criticalResultStateOf({ acknowledgedAt: null, escalatedAt: null })).toBe('RAISED');
    expect(criticalResultStateOf({ acknowledgedAt: null, escalatedAt: '2026-01-01' })).toBe('ESCALATED');
    expect(criticalResultStateOf({ acknowledgedAt: '2026-01-01', escalatedAt: null })).toBe('ACKNOWLEDGED');
    expect(criticalResultStateOf({ acknowledgedAt: '2026-01-01', escalatedAt: '2026-01-01' })).toBe(
      'ACKNOWLEDGED',
    );
  });
});

describe('the escalation time', () => {
  it("is the group's setting, else the default, and counts from the raise", () => {
    expect(escalationMinutesOf({ criticalResultEscalationMinutes: null })).toBe(
      DEFAULT_CRITICAL_ESCALATION_MINUTES,
    );
    expect(escalationMinutesOf({ criticalResultEscalationMinutes: 10 })).toBe(10);
    expect(escalationDueAt(new Date('2026-01-01T10:00:00Z'), 45).toISOString()).toBe(
      '2026-01-01T10:45:00.000Z',
    );
  });

  it('is a group admin value between 5 and 1440 minutes', () => {
    expect(ZAdminPreferences.parse({}).criticalResultEscalationMinutes).toBeNull();
    expect(
      ZAdminPreferences.parse({ criticalResultEscalationMinutes: 60 }).criticalResultEscalationMinutes,
    ).toBe(60);
    for (const bad of [4, 1441, 2.5, '30']) {
      const result = ZAdminPreferences.safeParse({ criticalResultEscalationMinutes: bad });
      expect(result.success, String(bad)).toBe(false);
    }
    const refused = ZAdminPreferences.safeParse({ criticalResultEscalationMinutes: 2 });
    expect(refused.error?.issues[0]?.message).toBe(M.escalationMinutes);
  });
});

describe('the raise request', () => {
  const parse = (body: unknown) => ZRaiseCriticalResultRequest.safeParse(body);
  const messageOf = (body: unknown) => parse(body).error?.issues[0]?.message;

  it('takes a category and a trimmed finding', () => {
    expect(
      parse({ entityId: '5', category: 'URGENT', finding: '  Free air under the diaphragm ' }).data,
    ).toEqual({
      entityId: 5,
      category: 'URGENT',
      finding: 'Free air under the diaphragm',
    });
  });

  it('refuses an empty or too long finding and an unknown category, each with its message', () => {
    expect(messageOf({ entityId: 5, category: 'URGENT', finding: '   ' })).toBe(M.findingEmpty);
    expect(messageOf({ entityId: 5, category: 'URGENT' })).toBe(M.findingEmpty);
    expect(
      messageOf({ entityId: 5, category: 'URGENT', finding: 'x'.repeat(CRITICAL_FINDING_MAX_LENGTH + 1) }),
    ).toBe(M.findingTooLong);
    expect(messageOf({ entityId: 5, category: 'SEVERE', finding: 'x' })).toBe(M.category);
  });
});

describe('the steps of one result', () => {
  it("are its own events of the row's timeline, in order", () => {
    const at = '2026-01-01T10:00:00.000Z';
    const event = (eventType: string, detail: Record<string, unknown>) => ({
      eventType,
      detail,
      createdAt: at,
      actorName: eventType.endsWith('RAISED') ? 'Dr A' : null,
      actorEmail: null,
    });
    const steps = criticalResultSteps(1, [
      event('CRITICAL_RESULT_RAISED', { criticalResultId: 1, category: 'URGENT', finding: 'x' }),
      event('CRITICAL_RESULT_RAISED', { criticalResultId: 2, category: 'URGENT', finding: 'y' }),
      event('REPORT_SAVED', { criticalResultId: 1 }),
      event('CRITICAL_RESULT_DELIVERED', { criticalResultId: 1, channel: 'SMS', to: '9000000000' }),
    ]);
    expect(steps).toEqual([
      { type: 'RAISED', at, by: 'Dr A', channel: null, to: null },
      { type: 'DELIVERED', at, by: null, channel: 'SMS', to: '9000000000' },
    ]);
  });
});
