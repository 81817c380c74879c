import { decideRoute, matchRoute } from '@radflow/core';
import { Suspense, type ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { FullPageMessage } from '../../components/FullPageMessage';
import { NotFoundPage } from '../../components/NotFoundPage';
import type { TSession } from '../../features/auth/session';
import { PublicLayout, ShellLayout } from './ShellLayout';

/**
 * The route guard of spec-core §2, as decided by core `decideRoute`: 'allow' renders the screen,
 * 'redirect' replaces the location, 'not-found' shows 'Not found'. Signed-in users get the shell;
 * the login page and public pages seen signed out get the bare frame.
 */
export function RouteGuard({ session, children }: { session: TSession | null; children: ReactNode }) {
  const { pathname, search } = useLocation();
  const decision = decideRoute({
    pathname,
    search,
    user: session ? { email: session.user.email, ctx: session.menuContext } : null,
  });
  if (decision.action === 'redirect') return <Navigate to={decision.to} replace />;

  const screen =
    decision.action === 'not-found' ? (
      <NotFoundPage />
    ) : (
      <Suspense fallback={<FullPageMessage text="Loading…" fullHeight={false} />}>{children}</Suspense>
    );
  const inShell = session !== null && !matchRoute('/login-page/:user?', pathname);
  return inShell ? <ShellLayout>{screen}</ShellLayout> : <PublicLayout>{screen}</PublicLayout>;
}
