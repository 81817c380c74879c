import { describe, expect, it } from 'vitest';
import { REPORTING_MESSAGES as M } from './messages.js';
import { checkBaseVersion } from './rules.js';
import { ZReportSaveRequest } from './schemas.js';

describe('a save names the version it started from (issue 21 §7)', () => {
  it('writes over the newest version only', () => {
    expect(checkBaseVersion({ baseVersion: null, savedVersion: null })).toBeNull();
    expect(checkBaseVersion({ baseVersion: 3, savedVersion: 3 })).toBeNull();
  });

  it('refuses an older, a missing or an unknown base 409 naming baseVersion', () => {
    const stale = { kind: 'CONFLICT', message: M.savedElsewhere, field: 'baseVersion' };
    expect(checkBaseVersion({ baseVersion: null, savedVersion: 1 })).toEqual(stale);
    expect(checkBaseVersion({ baseVersion: 2, savedVersion: 3 })).toEqual(stale);
    expect(checkBaseVersion({ baseVersion: 4, savedVersion: 3 })).toEqual(stale);
    // Reworked meanwhile: the report is gone.
    expect(checkBaseVersion({ baseVersion: 2, savedVersion: null })).toEqual(stale);
  });

  it('requires the field: left out is refused with the message naming it', () => {
    const parsed = ZReportSaveRequest.safeParse({ name: 'CT', content: '<p>x</p>' });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]).toMatchObject({ path: ['baseVersion'], message: M.baseVersionRequired });
    expect(ZReportSaveRequest.parse({ name: 'CT', content: '', baseVersion: null }).baseVersion).toBeNull();
  });
});
