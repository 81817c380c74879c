import { IDLE_OFFLINE_MS, reportedStatus } from '@radflow/core';
import { useEffect, useState } from 'react';

/** What counts as the user being there: a key, the pointer, a touch, the wheel. */
const ACTIVITY_EVENTS = ['mousemove', 'mousedown', 'keydown', 'touchstart', 'wheel'] as const;

/**
 * Whether the user has been idle in this tab (spec-core §1 Presence, §9): true once core
 * `reportedStatus` says OFFLINE (no activity for IDLE_OFFLINE_MS), false again at the next activity.
 * Activity only notes the time (a mouse move is many events); one timer checks when it is due.
 */
export function useIdle(): boolean {
  const [idle, setIdle] = useState(false);
  useEffect(() => {
    let lastActivity = Date.now();
    let timer: number | undefined;
    const check = () => {
      timer = undefined;
      const now = Date.now();
      if (reportedStatus(new Date(lastActivity), new Date(now)) === 'OFFLINE') {
        setIdle(true);
        return;
      }
      timer = window.setTimeout(check, IDLE_OFFLINE_MS - (now - lastActivity));
    };
    const onActivity = () => {
      lastActivity = Date.now();
      if (timer === undefined) {
        // It was idle (or the check is due): back, and watch again.
        setIdle(false);
        timer = window.setTimeout(check, IDLE_OFFLINE_MS);
      }
    };
    timer = window.setTimeout(check, IDLE_OFFLINE_MS);
    for (const name of ACTIVITY_EVENTS) window.addEventListener(name, onActivity, { passive: true });
    return () => {
      window.clearTimeout(timer);
      for (const name of ACTIVITY_EVENTS) window.removeEventListener(name, onActivity);
    };
  }, []);
  return idle;
}
