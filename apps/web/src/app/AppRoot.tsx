import { MESSAGES } from '@radflow/core';
import { useEffect } from 'react';
import { Outlet } from 'react-router';
import { signOut } from '../api/identity';
import { FullPageMessage } from '../components/FullPageMessage';
import { useSession } from '../features/auth/session';
import { browserLocation } from '../lib/browser-location';
import { dropEarlyPreview } from '../lib/early-preview-layer';
import { ApiFailureBridge } from './ApiFailureBridge';
import { appDomainRedirect } from './app-domain';
import { RouteGuard } from './shell/RouteGuard';

/** The root route: loads the session (spec-core §4), then guards and frames every screen. */
export function AppRoot() {
  const { data: session, isPending } = useSession();
  const redirectTo = appDomainRedirect(session?.flags.appDomain, window.location);

  useEffect(() => {
    if (!redirectTo) return;
    dropEarlyPreview();
    void signOut()
      .catch(() => undefined)
      .finally(() => browserLocation.assign(redirectTo));
  }, [redirectTo]);

  return (
    <>
      <ApiFailureBridge />
      {isPending ? (
        <FullPageMessage text="Loading Radflow…" />
      ) : redirectTo ? (
        <FullPageMessage text={MESSAGES.redirecting(new URL(redirectTo).host)} />
      ) : (
        <RouteGuard session={session ?? null}>
          <Outlet />
        </RouteGuard>
      )}
    </>
  );
}
