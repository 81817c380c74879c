import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startPeriodicTask } from './periodic-task.js';

describe('startPeriodicTask', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('never overlaps runs, carries on after a failure, and stop waits for the run in progress', async () => {
    const started: number[] = [];
    const finishers: Array<(fail?: boolean) => void> = [];
    const errors: unknown[] = [];
    const stop = startPeriodicTask(
      () =>
        new Promise<void>((resolve, reject) => {
          started.push(started.length + 1);
          finishers.push((fail) => (fail ? reject(new Error('boom')) : resolve()));
        }),
      1_000,
      (error) => errors.push(error),
    );
    await vi.advanceTimersByTimeAsync(3_500);
    expect(started).toEqual([1]); // ticks at 2 s and 3 s found the first run still going
    finishers[0]!(true);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(errors).toHaveLength(1);
    expect(started).toEqual([1, 2]);

    let stopped = false;
    const stopping = stop().then(() => (stopped = true));
    await vi.advanceTimersByTimeAsync(5_000);
    expect(stopped).toBe(false);
    expect(started).toEqual([1, 2]); // no tick after stop
    finishers[1]!();
    await stopping;
    expect(stopped).toBe(true);
  });
});
