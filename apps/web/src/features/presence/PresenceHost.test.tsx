import { act, screen, waitFor } from '@testing-library/react';
import { FIRST_BEAT_DELAY_MS, IDLE_OFFLINE_MS, MESSAGES } from '@radflow/core';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeApi } from '../../test/fake-api';
import { renderScreen } from '../../test/render';
import { PresenceHost } from './PresenceHost';

/**
 * Issue 23 §3, spec-core §8-§9: the tab beats 3 s after it opens with its status; idle 5 minutes it
 * says 'You are now offline.' and beats OFFLINE; the connection dropping and returning is told too,
 * and the return beats at once.
 */
const WAIT = { timeout: 5_000 };
const beatAnswer = { body: { notificationMessages: [], onlineStatuses: [] } };

describe('the tab presence', () => {
  beforeEach(() => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('beats after 3 s, tells offline and online (idle, connection) and beats on each change', async () => {
    const api = fakeApi({ 'POST /api/chat-thread/beat': beatAnswer });
    renderScreen(<PresenceHost />);
    const beats = () => api.calls('POST', '/api/chat-thread/beat').map((r) => r.json<{ status: string }>());
    expect(beats()).toHaveLength(0);
    await act(() => vi.advanceTimersByTimeAsync(FIRST_BEAT_DELAY_MS));
    await waitFor(() => expect(beats()).toHaveLength(1), WAIT);
    expect(beats()[0]).toMatchObject({
      status: 'ONLINE',
      fetchFrom: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/),
    });

    act(() => {
      window.dispatchEvent(new Event('offline'));
    });
    expect(await screen.findByText(MESSAGES.youAreOffline, {}, WAIT)).toBeTruthy();
    act(() => {
      window.dispatchEvent(new Event('online'));
    });
    expect(await screen.findByText(MESSAGES.youAreOnline, {}, WAIT)).toBeTruthy();
    await waitFor(() => expect(beats().length).toBeGreaterThanOrEqual(2), WAIT);

    const before = beats().length;
    await act(() => vi.advanceTimersByTimeAsync(IDLE_OFFLINE_MS));
    await waitFor(() => expect(beats().at(-1)).toMatchObject({ status: 'OFFLINE' }), WAIT);
    expect(beats().length).toBeGreaterThan(before);
    act(() => {
      window.dispatchEvent(new KeyboardEvent('keydown', { key: 'x' }));
    });
    await waitFor(() => expect(beats().at(-1)).toMatchObject({ status: 'ONLINE' }), WAIT);
  });

  it('a beat that does not reach the server says offline; the next that does says online', async () => {
    let reachable = true;
    const api = fakeApi({
      'POST /api/chat-thread/beat': () => {
        if (!reachable) throw new TypeError('Failed to fetch');
        return beatAnswer;
      },
    });
    renderScreen(<PresenceHost />);
    await act(() => vi.advanceTimersByTimeAsync(FIRST_BEAT_DELAY_MS));
    await waitFor(() => expect(api.calls('POST', '/api/chat-thread/beat')).toHaveLength(1), WAIT);
    reachable = false;
    // The next beat (10 minutes on), with a key pressed just before so the user is not idle.
    await act(() => vi.advanceTimersByTimeAsync(4 * 60_000));
    act(() => {
      window.dispatchEvent(new KeyboardEvent('keydown', { key: 'x' }));
    });
    await act(() => vi.advanceTimersByTimeAsync(4 * 60_000));
    act(() => {
      window.dispatchEvent(new KeyboardEvent('keydown', { key: 'x' }));
    });
    await act(() => vi.advanceTimersByTimeAsync(2 * 60_000));
    expect(await screen.findByText(MESSAGES.youAreOffline, {}, WAIT)).toBeTruthy();
    reachable = true;
    await act(() => vi.advanceTimersByTimeAsync(30_000));
    expect(await screen.findByText(MESSAGES.youAreOnline, {}, WAIT)).toBeTruthy();
  });
});
