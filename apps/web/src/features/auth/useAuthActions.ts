import { MESSAGES, firstAllowedPath } from '@radflow/core';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import { signIn, signOut } from '../../api/identity';
import { browserLocation } from '../../lib/browser-location';
import { SESSION_QUERY_KEY, clearSession, loadSession } from './session';

/** Signs in (password or one-time code), loads the session and goes to the user's first allowed path. */
export function useSignIn() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return useCallback(
    async (identifier: string, secret: string): Promise<boolean> => {
      await signIn(identifier, secret);
      const session = await queryClient.fetchQuery({
        queryKey: SESSION_QUERY_KEY,
        queryFn: ({ signal }) => loadSession(signal),
        staleTime: 0,
      });
      if (!session) throw new Error(MESSAGES.pleaseTryAgain);
      await navigate(firstAllowedPath(session.menuContext), { replace: true });
      return true;
    },
    [queryClient, navigate],
  );
}

/** Ends the session on the server (best effort), forgets it here and goes to the login page. */
export function useSignOut() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return useCallback(async () => {
    await signOut().catch(() => undefined);
    clearSession(queryClient);
    await navigate('/login-page', { replace: true });
  }, [queryClient, navigate]);
}

/**
 * Hard Refresh (spec-core §2 Shell): drops Cache Storage and service workers, then reloads, which
 * revalidates the page with the server. Built assets are content-hashed, so a fresh index.html is
 * enough to load a new release.
 */
export async function hardRefresh(): Promise<void> {
  try {
    if ('caches' in window) {
      const keys = await caches.keys();
      await Promise.all(keys.map((k) => caches.delete(k)));
    }
    if ('serviceWorker' in navigator) {
      const registrations = await navigator.serviceWorker.getRegistrations();
      await Promise.all(registrations.map((r) => r.unregister()));
    }
  } finally {
    browserLocation.reload();
  }
}
