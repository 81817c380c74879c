import { describe, expect, it } from 'vitest';
import { nextAttemptAfterFailure } from './retry-policy.js';

describe('forward retry back-off', () => {
  const now = new Date('2026-01-01T00:00:00Z');
  const after = (attempts: number) => {
    const next = nextAttemptAfterFailure(attempts, now);
    return next === null ? null : (next.getTime() - now.getTime()) / 1000;
  };

  // Five attempts in all: four waits, and no fifth retry (what the constant said, as behaviour).
  it('waits 30 s, 2 min, 10 min, 30 min, then gives up', () => {
    expect([1, 2, 3, 4].map(after)).toEqual([30, 120, 600, 1800]);
    expect(after(5)).toBeNull();
    expect(after(9)).toBeNull();
  });
});
