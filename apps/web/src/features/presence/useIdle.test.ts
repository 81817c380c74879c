import { act, renderHook } from '@testing-library/react';
import { IDLE_OFFLINE_MS } from '@radflow/core';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useIdle } from './useIdle';

/** spec-core §9: offline after 5 minutes without mouse or key activity; activity brings it back. */
describe('useIdle', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('turns idle 5 minutes after the last activity, not before, and back at the next one', () => {
    const { result } = renderHook(() => useIdle());
    expect(result.current).toBe(false);

    act(() => {
      vi.advanceTimersByTime(IDLE_OFFLINE_MS - 60_000);
    });
    expect(result.current).toBe(false);
    // A key press a minute before the limit starts the five minutes again.
    act(() => {
      window.dispatchEvent(new KeyboardEvent('keydown', { key: 'a' }));
    });
    act(() => {
      vi.advanceTimersByTime(IDLE_OFFLINE_MS - 1_000);
    });
    expect(result.current).toBe(false);
    act(() => {
      vi.advanceTimersByTime(1_000);
    });
    expect(result.current).toBe(true);

    act(() => {
      window.dispatchEvent(new MouseEvent('mousemove'));
    });
    expect(result.current).toBe(false);
    act(() => {
      vi.advanceTimersByTime(IDLE_OFFLINE_MS);
    });
    expect(result.current).toBe(true);
  });

  it('stops listening when unmounted', () => {
    const remove = vi.spyOn(window, 'removeEventListener');
    const { unmount } = renderHook(() => useIdle());
    unmount();
    expect(remove.mock.calls.map(([name]) => name)).toEqual(
      expect.arrayContaining(['mousemove', 'keydown', 'mousedown']),
    );
    expect(vi.getTimerCount()).toBe(0);
  });
});
