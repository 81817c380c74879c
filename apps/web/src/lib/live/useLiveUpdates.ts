import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useSyncExternalStore } from 'react';
import type { TLiveStatus } from './live-connection';
import { liveStatus, onLiveStatus, startLiveUpdates } from './live-updates';

/** Keeps the tab's live stream open while the calling component (the signed-in shell) is mounted. */
export function useLiveUpdates(): void {
  const queryClient = useQueryClient();
  useEffect(() => startLiveUpdates(queryClient), [queryClient]);
}

/** The live stream's status: 'connecting', 'open' (events flow) or 'closed' (waiting to retry). */
export function useLiveStatus(): TLiveStatus {
  return useSyncExternalStore(onLiveStatus, liveStatus, liveStatus);
}
