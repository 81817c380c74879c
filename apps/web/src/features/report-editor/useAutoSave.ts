import type { TReportDraftRequest } from '@radflow/core';
import { useCallback, useEffect, useRef, useState } from 'react';
import { clearLocalDraft, writeLocalDraft } from './local-drafts';
import { isNetworkFailure, putDraft } from './report-editor-api';

/** How long typing rests before the draft goes to the server. */
export const DRAFT_DELAY_MS = 2000;
/** A draft the server did not get is tried again this often (also at once when the browser is back online). */
export const DRAFT_RETRY_MS = 15_000;

export type TAutoSaveState = 'idle' | 'saving' | 'saved' | 'offline' | 'refused';

/** The status line's words for each state ('idle': nothing typed since opening). */
export const AUTO_SAVE_TEXT: Record<TAutoSaveState, string> = {
  idle: '',
  saving: 'Saving…',
  saved: 'Saved',
  offline: 'Offline — kept on this device',
  refused: 'Not sent to the server — kept on this device',
};

/**
 * Auto-save (issue 7 §1 "nothing typed is ever lost to a reload or a lost connection"): every change
 * goes to this device's storage at once, and to the server draft after `delayMs` of rest; a draft the
 * server did not get (offline) is sent again when the browser is back online, and on leaving.
 */
export function useAutoSave({
  reportStatusId,
  userEmail,
  delayMs = DRAFT_DELAY_MS,
}: {
  reportStatusId: number;
  userEmail: string;
  delayMs?: number;
}) {
  const [state, setState] = useState<TAutoSaveState>('idle');
  const pending = useRef<TReportDraftRequest | null>(null);
  const timer = useRef<number | null>(null);
  /** Retries stop once the editor is gone (the device copy stays for the next opening). */
  const alive = useRef(true);

  const stopTimer = () => {
    if (timer.current !== null) window.clearTimeout(timer.current);
    timer.current = null;
  };

  const flush = useCallback(async () => {
    stopTimer();
    const body = pending.current;
    if (!body) return;
    try {
      await putDraft(reportStatusId, body);
      // A newer change may have arrived meanwhile: it keeps its own timer.
      if (pending.current === body) {
        pending.current = null;
        setState('saved');
      }
    } catch (error) {
      if (pending.current !== body) return;
      const offline = isNetworkFailure(error);
      setState(offline ? 'offline' : 'refused');
      // The server may be down while the browser stays online: no 'online' event would come.
      if (offline && alive.current)
        timer.current = window.setTimeout(() => void flushRef.current(), DRAFT_RETRY_MS);
    }
  }, [reportStatusId]);
  const flushRef = useRef(flush);
  flushRef.current = flush;

  const change = useCallback(
    (draft: TReportDraftRequest) => {
      writeLocalDraft(reportStatusId, userEmail, { ...draft, updatedAt: new Date().toISOString() });
      pending.current = draft;
      setState(navigator.onLine === false ? 'offline' : 'saving');
      stopTimer();
      timer.current = window.setTimeout(() => void flush(), delayMs);
    },
    [reportStatusId, userEmail, delayMs, flush],
  );

  /** After a save: the saved report is the copy now; drop both drafts' pending work. */
  const settle = useCallback(() => {
    stopTimer();
    pending.current = null;
    clearLocalDraft(reportStatusId, userEmail);
    setState('saved');
  }, [reportStatusId, userEmail]);

  useEffect(() => {
    alive.current = true;
    const online = () => void flush();
    window.addEventListener('online', online);
    return () => {
      window.removeEventListener('online', online);
      alive.current = false;
      // Leaving the editor: what the server has not heard yet goes now (the device copy stays).
      if (pending.current) void flush();
    };
  }, [flush]);

  return { state, change, settle, flush };
}
