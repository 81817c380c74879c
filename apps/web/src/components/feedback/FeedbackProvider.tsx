import {
  ERROR_SNACKBAR_HIDE_MS,
  INFO_SNACKBAR_HIDE_MS,
  LOADING_AUTO_HIDE_MS,
  MAX_STACKED_NOTIFICATIONS,
} from '@radflow/core';
import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { FeedbackDialog, type TDialogRequest } from './FeedbackDialog';
import { FeedbackContext, type TFeedback, type TSnackbarKind } from './feedback-context';
import { LoadingIndicator } from './LoadingIndicator';
import { SnackbarStack, type TSnack } from './SnackbarStack';

interface TLoadingEntry {
  id: number;
  message: string;
}

/** Appends and keeps the newest `max` entries: at most 3 snackbars stack (spec-core §9). */
export function pushBounded<T>(list: readonly T[], entry: T, max = MAX_STACKED_NOTIFICATIONS): T[] {
  return [...list, entry].slice(-max);
}

export function FeedbackProvider({ children }: { children: ReactNode }) {
  const [snacks, setSnacks] = useState<TSnack[]>([]);
  const [dialogs, setDialogs] = useState<TDialogRequest[]>([]);
  const [loading, setLoading] = useState<TLoadingEntry[]>([]);
  const timers = useRef(new Set<ReturnType<typeof setTimeout>>());
  // Keys of this provider's snackbars, dialogs and loading entries: unique within it is enough.
  const lastId = useRef(0);
  const nextId = useCallback(() => (lastId.current += 1), []);

  useEffect(() => {
    const pending = timers.current;
    return () => {
      for (const t of pending) clearTimeout(t);
      pending.clear();
    };
  }, []);

  const later = useCallback((ms: number, fn: () => void) => {
    const t = setTimeout(() => {
      timers.current.delete(t);
      fn();
    }, ms);
    timers.current.add(t);
  }, []);

  const showSnack = useCallback(
    (kind: TSnackbarKind, text: string) => {
      const id = nextId();
      setSnacks((list) => pushBounded(list, { id, kind, text }));
      later(kind === 'error' ? ERROR_SNACKBAR_HIDE_MS : INFO_SNACKBAR_HIDE_MS, () =>
        setSnacks((list) => list.filter((s) => s.id !== id)),
      );
    },
    [later, nextId],
  );

  const feedback = useMemo<TFeedback>(
    () => ({
      showError: (text) => showSnack('error', text),
      showInfo: (text) => showSnack('info', text),
      confirm: (options) =>
        new Promise<boolean>((resolve) =>
          setDialogs((list) => [...list, { id: nextId(), type: 'confirm', options, resolve }]),
        ),
      showInfoDialog: (options) =>
        new Promise<void>((resolve) =>
          setDialogs((list) => [...list, { id: nextId(), type: 'info', options, resolve: () => resolve() }]),
        ),
      startLoading: (message = 'Loading…') => {
        const id = nextId();
        const hide = () => setLoading((list) => list.filter((l) => l.id !== id));
        setLoading((list) => [...list, { id, message }]);
        // spec-core §4: the loading indicator hides itself after 60 s whatever happens.
        later(LOADING_AUTO_HIDE_MS, hide);
        return hide;
      },
    }),
    [showSnack, later, nextId],
  );

  const current = dialogs[0];
  const closeDialog = (ok: boolean) => {
    if (!current) return;
    setDialogs((list) => list.slice(1));
    current.resolve(ok);
  };
  const latestLoading = loading[loading.length - 1];

  return (
    <FeedbackContext.Provider value={feedback}>
      {children}
      <SnackbarStack snacks={snacks} onClose={(id) => setSnacks((list) => list.filter((s) => s.id !== id))} />
      {current && <FeedbackDialog key={current.id} request={current} onClose={closeDialog} />}
      {latestLoading && <LoadingIndicator message={latestLoading.message} />}
    </FeedbackContext.Provider>
  );
}
