import { BEAT_INTERVAL_MS, FIRST_BEAT_DELAY_MS, MESSAGES, type TPresenceStatus } from '@radflow/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { ApiError } from '../../api/client';
import { useFeedback } from '../../components/feedback/feedback-context';
import { CHAT_UNSEEN_KEY, chatThreadKey } from '../chat/chat-api';
import { PRESENCE_BEAT_KEY, postBeat } from './presence-api';
import { useIdle } from './useIdle';

/** After a beat that did not reach the server, the next try comes sooner than the interval. */
const RETRY_AFTER_FAILURE_MS = 30_000;
/** The first beat asks for the messages of the last day (spec-core §9 'one unit before now'). */
const FIRST_FETCH_BACK_MS = 24 * 60 * 60_000;
/** Later beats ask from a little before the previous one, so a clock skew loses no message. */
const FETCH_OVERLAP_MS = 60_000;

const isConnectionFailure = (error: unknown) => error instanceof ApiError && error.status === 0;

/**
 * The tab's presence (issue 23 §3; spec-core §1 Presence, §8, §9): beats first after 3 s and then
 * every 10 minutes with the status (OFFLINE after 5 minutes idle: useIdle); tells 'You are now
 * offline.' when the user goes idle or the connection drops (the browser's `offline`, a beat that
 * does not arrive), and 'You are now online.' when they come back, beating at once so the new
 * messages arrive. Renders nothing; mounted once in the signed-in frame.
 */
export function PresenceHost() {
  const queryClient = useQueryClient();
  const { showInfo } = useFeedback();
  const idle = useIdle();
  const [browserOnline, setBrowserOnline] = useState(() => navigator.onLine);
  const [started, setStarted] = useState(false);
  const status: TPresenceStatus = idle ? 'OFFLINE' : 'ONLINE';
  const statusRef = useRef(status);
  statusRef.current = status;
  const lastBeatAt = useRef<Date | null>(null);

  useEffect(() => {
    const timer = window.setTimeout(() => setStarted(true), FIRST_BEAT_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, []);

  const beat = useQuery({
    queryKey: PRESENCE_BEAT_KEY,
    queryFn: async ({ signal }) => {
      const now = new Date();
      const from = lastBeatAt.current
        ? new Date(lastBeatAt.current.getTime() - FETCH_OVERLAP_MS)
        : new Date(now.getTime() - FIRST_FETCH_BACK_MS);
      const answer = await postBeat(statusRef.current, from, signal);
      lastBeatAt.current = now;
      // New messages: the row badges and their threads ask again.
      if (answer.notificationMessages.length > 0) {
        void queryClient.invalidateQueries({ queryKey: CHAT_UNSEEN_KEY });
        for (const id of new Set(answer.notificationMessages.map((m) => m.entityId))) {
          void queryClient.invalidateQueries({ queryKey: chatThreadKey(id), exact: true });
        }
      }
      return answer;
    },
    enabled: started,
    retry: false,
    staleTime: Infinity,
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
    refetchIntervalInBackground: true,
    refetchInterval: (query) =>
      isConnectionFailure(query.state.error) ? RETRY_AFTER_FAILURE_MS : BEAT_INTERVAL_MS,
  });
  const beatReached = !isConnectionFailure(beat.error);
  const connected = browserOnline && beatReached;

  useEffect(() => {
    const up = () => setBrowserOnline(true);
    const down = () => setBrowserOnline(false);
    window.addEventListener('online', up);
    window.addEventListener('offline', down);
    return () => {
      window.removeEventListener('online', up);
      window.removeEventListener('offline', down);
    };
  }, []);

  // What the user is told: one toast per change, none for the state the tab opened in.
  const shown = connected && status === 'ONLINE';
  const told = useRef(shown);
  useEffect(() => {
    if (told.current === shown) return;
    told.current = shown;
    showInfo(shown ? MESSAGES.youAreOnline : MESSAGES.youAreOffline);
  }, [shown, showInfo]);

  // A change of status, or the browser's link coming back, is a beat now (once the beats began).
  const beatNow = useRef(() => undefined as void);
  beatNow.current = () => {
    if (started) void queryClient.refetchQueries({ queryKey: PRESENCE_BEAT_KEY, exact: true });
  };
  useEffect(() => {
    beatNow.current();
  }, [status, browserOnline]);

  return null;
}
