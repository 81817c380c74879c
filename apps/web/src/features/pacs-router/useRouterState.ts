import { ROUTER_EVENT_THROTTLE_MS, ROUTER_REFRESH_MS, ROUTER_VERSION_CHECK_MS } from '@radflow/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import type { RouterClient } from './router-client';
import { throttle } from './throttle';

const keys = (baseUrl: string) => ({
  all: ['router', baseUrl] as const,
  info: ['router', baseUrl, 'info'] as const,
  cases: ['router', baseUrl, 'cases'] as const,
  settings: ['router', baseUrl, 'settings'] as const,
  version: ['router', baseUrl, 'version'] as const,
});

/**
 * The router's state for the /pacs-router screen (spec-core §4 'Router connection', §9 'Router'):
 * info and pending cases every 30 s, the version every 10 minutes, and while signed in the /events
 * stream, whose open/error is the online flag; a reconnect refreshes info, and queue events refresh
 * the cases at most once per 10 s.
 */
export function useRouterState(client: RouterClient) {
  const queryClient = useQueryClient();
  const k = keys(client.baseUrl);

  const info = useQuery({
    queryKey: k.info,
    queryFn: () => client.info(),
    refetchInterval: ROUTER_REFRESH_MS,
    retry: false,
  });
  const signedIn = info.data?.user != null;

  useEffect(() => {
    // The router no longer knows our session (it restarted, or the session ended): forget it.
    if (info.data && !info.data.user && client.hasSession()) client.forgetSession();
  }, [client, info.data]);

  const cases = useQuery({
    queryKey: k.cases,
    queryFn: () => client.pendingCases(),
    refetchInterval: ROUTER_REFRESH_MS,
    enabled: signedIn,
    retry: false,
  });
  const settings = useQuery({
    queryKey: k.settings,
    queryFn: () => client.settings(),
    enabled: signedIn,
    retry: false,
  });
  const version = useQuery({
    queryKey: k.version,
    queryFn: () => client.checkVersion(),
    refetchInterval: ROUTER_VERSION_CHECK_MS,
    enabled: signedIn,
    retry: false,
  });

  /** The event stream's open flag; null until it first opens or fails. */
  const [streamOpen, setStreamOpen] = useState<boolean | null>(null);
  useEffect(() => {
    if (!signedIn) {
      setStreamOpen(null);
      return undefined;
    }
    let failed = false;
    const refresh = throttle(() => {
      void queryClient.invalidateQueries({ queryKey: k.cases });
      void queryClient.invalidateQueries({ queryKey: k.info });
    }, ROUTER_EVENT_THROTTLE_MS);
    const close = client.openEvents({
      onOpen: () => {
        setStreamOpen(true);
        // spec-core §4: on reconnect it refreshes info (and what the outage may have changed).
        if (failed) {
          failed = false;
          void queryClient.invalidateQueries({ queryKey: k.all });
        }
      },
      onError: () => {
        failed = true;
        setStreamOpen(false);
      },
      onEvent: (event) => {
        if (event.type !== 'hello') refresh.call();
      },
    });
    return () => {
      refresh.cancel();
      close();
    };
    // k.* derive from client.baseUrl.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [client, signedIn, queryClient]);

  // Online: the stream's flag while signed in; before sign-in, whether /get-info answers.
  const online = signedIn && streamOpen !== null ? streamOpen : info.isSuccess;

  const refreshAll = () => queryClient.invalidateQueries({ queryKey: k.all });
  return { info, signedIn, online, cases, settings, version, refreshAll };
}
