import { type TNotification, type TNotificationsPage, itemsOf, stackPopups } from '@radflow/core';
import { useCallback, useEffect, useRef, useState } from 'react';
import { showBrowserNotification } from './browser-notification';
import { notificationText } from './notification-text';

/** How long a pop-up stays (spec-core §9 names none for these; a message is read in seconds). */
export const POPUP_HIDE_MS = 10_000;

/**
 * The pop-ups from the bell's answers: a notification pops up when it first arrives after the page
 * loaded (those already there are counted on the bell, not thrown at the user at once), unseen, of
 * a kind the user pops up. The stack is core `stackPopups` (3 pop-ups, 2 per study); each item
 * hides POPUP_HIDE_MS after it popped, or when it is seen (here or in another tab).
 */
export function usePopups(page: TNotificationsPage | undefined, onOpen: (n: TNotification) => void) {
  const known = useRef<Set<number> | null>(null);
  const poppedAt = useRef(new Map<number, number>());
  const [shown, setShown] = useState<TNotification[]>([]);
  const openRef = useRef(onOpen);
  openRef.current = onOpen;

  useEffect(() => {
    if (!page) return;
    if (known.current === null) {
      known.current = new Set(page.notifications.map((n) => n.id));
      return;
    }
    const seenBefore = known.current;
    const incoming = page.notifications.filter(
      (n) => !seenBefore.has(n.id) && !n.seen && page.popupKinds.includes(n.kind),
    );
    for (const n of page.notifications) seenBefore.add(n.id);
    const now = Date.now();
    for (const n of incoming) poppedAt.current.set(n.id, now);
    // The page's copies of what is shown carry their seen state (seen elsewhere: it drops out).
    setShown((current) => {
      const ids = new Set(current.map((n) => n.id));
      const updates = page.notifications.filter((n) => ids.has(n.id));
      return itemsOf(stackPopups(current, [...updates, ...incoming]));
    });
    if (page.browserNotifications) {
      for (const n of incoming) {
        const text = notificationText(n);
        showBrowserNotification(text.title, `${text.study}\n${text.byWhen}`, `radflow-${n.id}`, () =>
          openRef.current(n),
        );
      }
    }
  }, [page]);

  useEffect(() => {
    if (shown.length === 0) return;
    const expiries = shown.map((n) => (poppedAt.current.get(n.id) ?? 0) + POPUP_HIDE_MS);
    const wait = Math.max(0, Math.min(...expiries) - Date.now());
    const timer = setTimeout(() => {
      const now = Date.now();
      setShown((current) => current.filter((n) => (poppedAt.current.get(n.id) ?? 0) + POPUP_HIDE_MS > now));
    }, wait);
    return () => clearTimeout(timer);
  }, [shown]);

  const dismiss = useCallback((ids: readonly number[]) => {
    setShown((current) => current.filter((n) => !ids.includes(n.id)));
  }, []);

  return { groups: stackPopups<TNotification>([], shown), dismiss };
}
