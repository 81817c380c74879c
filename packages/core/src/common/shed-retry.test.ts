import { describe, expect, it } from 'vitest';
import { SHED_RETRIES, isShed, sendRetryingWhenShed, shedWaitMs } from './shed-retry.js';

const answer = (status: number, retryAfter?: string) => ({
  status,
  headers: {
    get: (name: string) => (name === 'Retry-After' && retryAfter !== undefined ? retryAfter : null),
  },
});

describe('the shed-call rule', () => {
  it('counts only a 503 with Retry-After as shed', () => {
    expect(isShed(answer(503, '1'))).toBe(true);
    expect(isShed(answer(503))).toBe(false);
    expect(isShed(answer(429, '1'))).toBe(false);
    expect(isShed(answer(200, '1'))).toBe(false);
  });

  it.each([
    ['0', 0],
    ['2', 2000],
    ['0.5', 500],
    ['3600', 5000],
    ['', 1000],
    ['soon', 1000],
    ['-1', 1000],
  ])('waits Retry-After %j as %i ms', (header, ms) => {
    expect(shedWaitMs(answer(503, header))).toBe(ms);
  });

  it('asks again while shed, at most SHED_RETRIES times, telling onShed of each', async () => {
    const sent: number[] = [];
    const shedSeen: number[] = [];
    const alwaysShed = await sendRetryingWhenShed(
      async () => {
        sent.push(sent.length);
        return answer(503, '0');
      },
      (a) => {
        shedSeen.push(a.status);
      },
    );
    expect(alwaysShed.status).toBe(503);
    expect(sent).toHaveLength(1 + SHED_RETRIES);
    expect(shedSeen).toHaveLength(SHED_RETRIES);

    const replies = [answer(503, '0'), answer(201)];
    const saved = await sendRetryingWhenShed(async () => replies.shift()!);
    expect(saved.status).toBe(201);
    expect(replies).toEqual([]);

    // Any other failure is the answer at once: a 503 without Retry-After is not asked again.
    let calls = 0;
    const failed = await sendRetryingWhenShed(async () => {
      calls += 1;
      return answer(503);
    });
    expect([failed.status, calls]).toEqual([503, 1]);
  });
});
