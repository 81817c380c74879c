import { decideRoute, matchRoute } from '@radflow/core';
import { Suspense, useEffect, type ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { FullPageMessage } from '../../components/FullPageMessage';
import { dropEarlyPreview } from '../../lib/early-preview-layer';
import { NotFoundPage } from '../../components/NotFoundPage';
import type { TSession } from '../../features/auth/session';
import { PresenceHost } from '../../features/presence/PresenceHost';
import { PublicLayout, ShellLayout } from './ShellLayout';

/**
 * Screens that take the whole window (the viewer covers it: ViewerFrame is fixed above everything
 * but dialogs). The guard applies to them as to any screen, but the shell's bar, drawer and footer
 * are not drawn underneath: nobody sees them, and on a viewer page opened on its own their first
 * render and the bar's re-render at every query's start and end would hold the page's one thread
 * while the first image waits (VIEWER.md "Speed").
 */
const VIEWER_ROUTE = '/viewer/:studyInstanceUids/:id';
const FULL_WINDOW_ROUTES = [VIEWER_ROUTE] as const;

/**
 * The route guard of spec-core §2, as decided by core `decideRoute`: 'allow' renders the screen,
 * 'redirect' replaces the location, 'not-found' shows 'Not found'. Signed-in users get the shell
 * (but on full-window screens); the login page and public pages seen signed out get the bare frame.
 */
export function RouteGuard({ session, children }: { session: TSession | null; children: ReactNode }) {
  const { pathname, search } = useLocation();
  const decision = decideRoute({
    pathname,
    search,
    user: session ? { email: session.user.email, ctx: session.menuContext } : null,
  });
  const showsViewer = decision.action === 'allow' && session !== null && matchRoute(VIEWER_ROUTE, pathname);
  // The early script's first image (lib/early-preview-layer.ts) belongs to the viewer page only.
  useEffect(() => {
    if (!showsViewer) dropEarlyPreview();
  }, [showsViewer]);
  if (decision.action === 'redirect') return <Navigate to={decision.to} replace />;

  const screen =
    decision.action === 'not-found' ? (
      <NotFoundPage />
    ) : (
      <Suspense fallback={<FullPageMessage text="Loading…" fullHeight={false} />}>{children}</Suspense>
    );
  const inShell = session !== null && !matchRoute('/login-page/:user?', pathname);
  // The tab's beat and idle watch run on every signed-in screen, the viewer too (issue 23 §3).
  const presence = inShell ? <PresenceHost /> : null;
  if (inShell && FULL_WINDOW_ROUTES.some((route) => matchRoute(route, pathname))) {
    return (
      <>
        {presence}
        {screen}
      </>
    );
  }
  return (
    <>
      {presence}
      {inShell ? <ShellLayout>{screen}</ShellLayout> : <PublicLayout>{screen}</PublicLayout>}
    </>
  );
}
