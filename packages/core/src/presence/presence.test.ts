import { describe, expect, it } from 'vitest';
import { ROLES } from '../identity/roles.js';
import {
  BEAT_INTERVAL_MS,
  FIRST_BEAT_DELAY_MS,
  MISSING_OFFLINE_MS,
  appearsInOnlineList,
  isPresenceChange,
  nextBeatDelayMs,
  reportedStatus,
  seesOnlineStatuses,
  shownStatus,
  sortOnlineFirst,
} from './presence.js';

const at = (minutes: number, seconds = 0) => new Date(Date.UTC(2026, 10, 27, 9, minutes, seconds));

describe('presence on a fake clock (spec-core §9)', () => {
  it('beats 3 s after the tab opens, then every 10 minutes', () => {
    expect(nextBeatDelayMs(0)).toBe(3_000);
    expect(nextBeatDelayMs(1)).toBe(10 * 60_000);
    expect(nextBeatDelayMs(7)).toBe(BEAT_INTERVAL_MS);
    expect(FIRST_BEAT_DELAY_MS).toBeLessThan(BEAT_INTERVAL_MS);
  });

  it('a tab says OFFLINE once its user has been idle 5 minutes, ONLINE before', () => {
    const lastActivity = at(0);
    expect(reportedStatus(lastActivity, at(0))).toBe('ONLINE');
    expect(reportedStatus(lastActivity, at(4, 59))).toBe('ONLINE');
    expect(reportedStatus(lastActivity, at(5))).toBe('OFFLINE');
    expect(reportedStatus(lastActivity, at(30))).toBe('OFFLINE');
  });

  it('an ONLINE user whose beats stopped 20 minutes ago is shown OFFLINE; an OFFLINE one stays so', () => {
    const beat = { status: 'ONLINE' as const, updatedAt: at(0) };
    expect(shownStatus(beat, at(10))).toBe('ONLINE');
    // One missed beat (10 minutes) is not enough; two are.
    expect(shownStatus(beat, at(19, 59))).toBe('ONLINE');
    expect(shownStatus(beat, at(20))).toBe('OFFLINE');
    expect(shownStatus({ status: 'OFFLINE', updatedAt: at(0) }, at(0, 1))).toBe('OFFLINE');
  });

  it('the doctor and the center see the online dots (spec-lab §6), others not', () => {
    expect(ROLES.filter((role) => seesOnlineStatuses([role]))).toEqual(['ROLE_CENTER', 'ROLE_DOCTOR']);
  });
});

describe('which beats are published to the open lists (issue 23 §3)', () => {
  const now = new Date('2026-11-27T10:00:00Z');
  const ago = (ms: number) => new Date(now.getTime() - ms);
  it('a status the others do not see yet is a change; the same status again is not', () => {
    expect(isPresenceChange(null, 'ONLINE', now)).toBe(true);
    expect(isPresenceChange(null, 'OFFLINE', now)).toBe(false);
    expect(isPresenceChange({ status: 'ONLINE', updatedAt: ago(60_000) }, 'ONLINE', now)).toBe(false);
    expect(isPresenceChange({ status: 'ONLINE', updatedAt: ago(60_000) }, 'OFFLINE', now)).toBe(true);
    expect(isPresenceChange({ status: 'OFFLINE', updatedAt: ago(60_000) }, 'ONLINE', now)).toBe(true);
  });
  it('an ONLINE gone stale (shown OFFLINE) that beats ONLINE again is a change', () => {
    expect(isPresenceChange({ status: 'ONLINE', updatedAt: ago(MISSING_OFFLINE_MS) }, 'ONLINE', now)).toBe(
      true,
    );
    expect(isPresenceChange({ status: 'ONLINE', updatedAt: ago(MISSING_OFFLINE_MS) }, 'OFFLINE', now)).toBe(
      false,
    );
  });
  it('only doctors have a dot', () => {
    expect(ROLES.filter((r) => appearsInOnlineList([r]))).toEqual(['ROLE_DOCTOR']);
  });
});

describe('the online list order', () => {
  it('ONLINE first, then by e-mail; the input is left as it was', () => {
    const list = [
      { email: 'c@x', status: 'OFFLINE' as const },
      { email: 'b@x', status: 'ONLINE' as const },
      { email: 'a@x', status: 'OFFLINE' as const },
      { email: 'd@x', status: 'ONLINE' as const },
    ];
    expect(sortOnlineFirst(list).map((d) => d.email)).toEqual(['b@x', 'd@x', 'a@x', 'c@x']);
    expect(list[0]!.email).toBe('c@x');
  });
});
