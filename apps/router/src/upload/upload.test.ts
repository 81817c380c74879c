import { describe, expect, it } from 'vitest';
import { backoffDelay, retryAfterMs } from './backoff.js';
import { readStoreResponse } from './stow-client.js';
import { TokenBucket, type Clock } from './token-bucket.js';
import { isUploadTime, msUntilUploadTime, parseUploadHours } from './upload-hours.js';

describe('retry backoff', () => {
  it('doubles from the base up to the cap, with jitter between half and all of the step', () => {
    const options = { baseMs: 1000, maxMs: 60_000 };
    expect([0, 1, 2, 3].map((n) => backoffDelay(n, options, () => 0))).toEqual([500, 1000, 2000, 4000]);
    expect([0, 1, 2, 3].map((n) => backoffDelay(n, options, () => 1))).toEqual([1000, 2000, 4000, 8000]);
    expect(backoffDelay(20, options, () => 1)).toBe(60_000);
    expect(backoffDelay(20, options, () => 0)).toBe(30_000);
  });
  it("reads a server's Retry-After in seconds or as a date", () => {
    expect(retryAfterMs('7')).toBe(7000);
    expect(retryAfterMs(new Date(10_000).toUTCString(), 4000)).toBe(6000);
    expect(retryAfterMs('soon')).toBeUndefined();
  });
});

function fakeClock(): Clock & { t: number } {
  const clock = {
    t: 0,
    now: () => clock.t,
    sleep: async (ms: number) => {
      clock.t += ms;
    },
  };
  return clock;
}

describe('the bandwidth token bucket', () => {
  it('lets the burst through at once, then the rate', async () => {
    const clock = fakeClock();
    const bucket = new TokenBucket(100_000, clock, 20_000);
    await bucket.take(20_000);
    expect(clock.t).toBe(0);
    for (let i = 0; i < 10; i++) await bucket.take(10_000);
    // 100 KB beyond the burst at 100 KB/s.
    expect(clock.t).toBeCloseTo(1000, -1);
  });
  it('refills with time but never beyond the burst', async () => {
    const clock = fakeClock();
    const bucket = new TokenBucket(100_000, clock, 20_000);
    clock.t += 60_000;
    await bucket.take(20_000);
    expect(clock.t).toBe(60_000);
    await bucket.take(10_000);
    expect(clock.t).toBe(60_100);
  });
  it('does not wait without a cap', async () => {
    const clock = fakeClock();
    const bucket = new TokenBucket(0, clock);
    await bucket.take(1e9);
    expect(clock.t).toBe(0);
  });
});

describe('upload hours', () => {
  const at = (h: number, m = 0) => new Date(2026, 10, 27, h, m);
  it('crosses midnight and combines ranges', () => {
    const hours = parseUploadHours('20:00-07:00, 12:00-14:00');
    expect([at(21), at(3), at(7), at(12, 30), at(14), at(9)].map((d) => isUploadTime(hours, d))).toEqual([
      true,
      true,
      false,
      true,
      false,
      false,
    ]);
    expect(msUntilUploadTime(hours, at(9))).toBe(3 * 3600_000);
    expect(msUntilUploadTime(hours, at(21))).toBe(0);
  });
  it('is always open when empty, and names a bad range', () => {
    expect(isUploadTime(parseUploadHours(''), at(3))).toBe(true);
    expect(() => parseUploadHours('8-17')).toThrow(/'8-17'/);
  });
});

describe("reading the cloud's STOW answer", () => {
  it('confirms referenced instances only without the kept-first warning; sorts failures', () => {
    const answer = {
      '00081199': {
        vr: 'SQ',
        Value: [
          { '00081155': { vr: 'UI', Value: ['1.1'] } },
          { '00081155': { vr: 'UI', Value: ['1.2'] }, '00081196': { vr: 'US', Value: [0xb006] } },
        ],
      },
      '00081198': {
        vr: 'SQ',
        Value: [
          { '00081155': { vr: 'UI', Value: ['1.3'] }, '00081197': { vr: 'US', Value: [0xa700] } },
          { '00081155': { vr: 'UI', Value: ['1.4'] }, '00081197': { vr: 'US', Value: [0xc000] } },
        ],
      },
    };
    const outcomes = readStoreResponse(answer, ['1.1', '1.2', '1.3', '1.4', '1.5']);
    expect(Object.fromEntries([...outcomes].map(([uid, o]) => [uid, o.kind]))).toEqual({
      '1.1': 'confirmed',
      '1.2': 'refused',
      '1.3': 'transient',
      '1.4': 'refused',
      '1.5': 'transient',
    });
  });
});
