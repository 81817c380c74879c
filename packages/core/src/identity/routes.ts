import { type TMenuContext, allowedRoutePatterns, firstAllowedPath } from './menus.js';
import { MANAGE_CENTERS_PATH, MANAGE_USERS_PATH, SET_PASSWORD_PATH } from '../people/paths.js';
import { PAYMENT_ID_PARAM } from '../payments/schemas.js';
import { CENTER_INVOICES_PATH, PLATFORM_INVOICES_PATH } from '../billing/paths.js';
import { PAYOUTS_PATH } from '../payouts/paths.js';
import { FAQ_PATH } from '../help/paths.js';
import { SUPPORT_INBOX_PATH } from '../chat/support-paths.js';

/** spec-core §2: paths that need no login. */
export const PUBLIC_PATHS = [
  '/share',
  '/info-page',
  '/signup',
  '/admin-page/dashboard',
  '/login-page',
  // Ours (issue 21 §9): the page of an invitation or password-reset link.
  SET_PASSWORD_PATH,
] as const;

/** Every route of spec-core §2 and spec-lab §2 (anything else shows 'Not found'). */
export const KNOWN_ROUTES = [
  '/login-page/:user?',
  '/',
  '/admin-page',
  '/summary',
  '/search-page/summary',
  '/summary-admin',
  '/status',
  '/search-page',
  '/setting-page',
  '/audit-logins',
  '/hybrid-study-list',
  '/template-page',
  '/manage-tele-pricing',
  '/manage-tele-invoice',
  '/manage-patient',
  '/manage-customer-report',
  '/signup',
  '/share',
  '/info-page',
  '/pacs-router',
  '/lab/registration',
  '/lab/create-bill/:id?',
  '/lab/test',
  '/lab/summary',
  '/lab/edit-referring-doctor',
  '/lab/edit-patient-details',
  '/lab/lab-bill-test',
  '/viewer/:studyInstanceUids/:id',
  '/report-edit/:studyInstanceUids/:id/*',
  '/admin-page/billing',
  '/admin-page/billing-dashboard',
  '/admin-page/sales-dashboard',
  '/admin-page/dashboard',
  '/admin-page/eskag-dashboard',
  '/page/dashboard',
  '/user/get-route',
  // Ours (issue 21 §9): the group admin's people screens and the set-password link's page.
  MANAGE_CENTERS_PATH,
  MANAGE_USERS_PATH,
  SET_PASSWORD_PATH,
  // Ours (issue 26 §2): the radiologist's payout; no listed route fits (the tele pages are §1's).
  PAYOUTS_PATH,
  CENTER_INVOICES_PATH,
  PLATFORM_INVOICES_PATH,
  // Ours (issue 29 §6–§7): the full-screen FAQ with the training videos, support's inbox.
  FAQ_PATH,
  SUPPORT_INBOX_PATH,
] as const;

function normalizePath(pathname: string): string {
  if (pathname.length > 1 && pathname.endsWith('/')) return pathname.replace(/\/+$/, '') || '/';
  return pathname || '/';
}

/**
 * Matches a path against a pattern with `:param`, optional `:param?` and a trailing `/*` (the rest,
 * possibly empty: the report editor route is "not exact match").
 */
export function matchRoute(pattern: string, pathname: string): boolean {
  const path = normalizePath(pathname);
  const pSegs = pattern.split('/').filter(Boolean);
  const segs = path.split('/').filter(Boolean);
  let i = 0;
  for (const p of pSegs) {
    if (p === '*') return true;
    if (p.startsWith(':') && p.endsWith('?')) {
      if (i < segs.length) i++;
      continue;
    }
    const seg = segs[i];
    if (seg === undefined) return false;
    if (!p.startsWith(':') && p !== seg) return false;
    i++;
  }
  return i === segs.length;
}

export function isPublicPath(pathname: string): boolean {
  const path = normalizePath(pathname);
  return PUBLIC_PATHS.some((p) => path === p || path.startsWith(`${p}/`));
}

export function isKnownRoute(pathname: string): boolean {
  return KNOWN_ROUTES.some((p) => matchRoute(p, pathname));
}

export function isPathAllowed(ctx: TMenuContext, pathname: string): boolean {
  if (isPublicPath(pathname) || matchRoute('/user/get-route', pathname)) return true;
  return allowedRoutePatterns(ctx).some((p) => matchRoute(p, pathname));
}

export type TGuardDecision =
  { action: 'allow' } | { action: 'not-found' } | { action: 'redirect'; to: string };

export interface TGuardInput {
  pathname: string;
  /** Null when nobody is signed in. */
  user: { email: string; ctx: TMenuContext } | null;
  /** The query string ('?payment-id=…'), when the caller knows it. */
  search?: string;
}

/**
 * The route guard of spec-core §2: unauthenticated users off a public path go to the login page;
 * an authenticated user on a path outside their allowed set goes to the first allowed path; a
 * login-page visit for a different user than the signed-in one is left alone; unknown paths show
 * 'Not found'.
 */
export function decideRoute({ pathname, user, search }: TGuardInput): TGuardDecision {
  const path = normalizePath(pathname);
  if (!isKnownRoute(path)) return { action: 'not-found' };
  if (!user) {
    if (isPublicPath(path)) return { action: 'allow' };
    return { action: 'redirect', to: '/login-page' };
  }
  if (matchRoute('/login-page/:user?', path)) {
    // A payment provider returns the payer to the login page (spec-core §2 payment confirm): a
    // signed-in payer stays there until the payment is confirmed, then goes to /user/get-route.
    if (new URLSearchParams(search ?? '').has(PAYMENT_ID_PARAM)) return { action: 'allow' };
    const requested = decodeURIComponent(path.split('/')[2] ?? '').toLowerCase();
    if (requested && requested !== user.email.toLowerCase()) return { action: 'allow' };
    return { action: 'redirect', to: firstAllowedPath(user.ctx) };
  }
  if (matchRoute('/user/get-route', path)) return { action: 'redirect', to: firstAllowedPath(user.ctx) };
  if (isPathAllowed(user.ctx, path)) return { action: 'allow' };
  return { action: 'redirect', to: firstAllowedPath(user.ctx) };
}
