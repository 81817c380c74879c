import { ROUTER_EVENT_THROTTLE_MS } from '@radflow/core';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { throttle } from './throttle';

describe('throttle (spec-core §9 event throttle)', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('runs the first call at once and folds a burst into one run at the end of the window', () => {
    const run = vi.fn();
    const { call } = throttle(run, ROUTER_EVENT_THROTTLE_MS);
    call();
    expect(run).toHaveBeenCalledTimes(1);
    for (let i = 0; i < 100; i++) call();
    expect(run).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(ROUTER_EVENT_THROTTLE_MS - 1);
    expect(run).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(1);
    expect(run).toHaveBeenCalledTimes(2);
    vi.advanceTimersByTime(ROUTER_EVENT_THROTTLE_MS * 3);
    expect(run).toHaveBeenCalledTimes(2);
    call();
    expect(run).toHaveBeenCalledTimes(3);
  });

  it('cancel drops the pending run', () => {
    const run = vi.fn();
    const { call, cancel } = throttle(run, ROUTER_EVENT_THROTTLE_MS);
    call();
    call();
    cancel();
    vi.advanceTimersByTime(ROUTER_EVENT_THROTTLE_MS);
    expect(run).toHaveBeenCalledTimes(1);
  });
});
