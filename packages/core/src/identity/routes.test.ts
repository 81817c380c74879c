import { describe, expect, it } from 'vitest';
import { type TMenuContext, defaultMenuContext, firstAllowedPath, menuForUser } from './menus.js';
import { ROLES, type TRole, demoEmailForRole } from './roles.js';
import {
  KNOWN_ROUTES,
  PUBLIC_PATHS,
  type TGuardInput,
  decideRoute,
  isKnownRoute,
  isPathAllowed,
  isPublicPath,
  matchRoute,
} from './routes.js';

function createMenuContext(
  roles: readonly TRole[],
  flags: Partial<Omit<TMenuContext, 'roles'>> = {},
): TMenuContext {
  return { ...defaultMenuContext(roles), ...flags };
}

function createSignedInUser(
  roles: readonly TRole[],
  flags: Partial<Omit<TMenuContext, 'roles'>> = {},
): NonNullable<TGuardInput['user']> {
  return { email: demoEmailForRole(roles[0] ?? 'ROLE_ADMIN'), ctx: createMenuContext(roles, flags) };
}

/** One concrete path per entry of spec-core §2 "Route table" and spec-lab §2 "Lab routes". */
const ROUTE_TABLE_PATHS = [
  '/login-page',
  '/login-page/doctor@demo.local',
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
  '/lab/create-bill',
  '/lab/create-bill/7',
  '/lab/test',
  '/lab/summary',
  '/lab/edit-referring-doctor',
  '/lab/edit-patient-details',
  '/lab/lab-bill-test',
  '/viewer/1.2.3/5',
  '/report-edit/1.2.3/5',
  '/report-edit/1.2.3/5/extra',
  '/admin-page/billing',
  '/admin-page/billing-dashboard',
  '/admin-page/sales-dashboard',
  '/admin-page/dashboard',
  '/admin-page/eskag-dashboard',
  '/page/dashboard',
  '/user/get-route',
  // Ours (issue 21 §9).
  '/manage-centers',
  '/manage-users',
  '/set-password',
  // Ours (issue 26 §2).
  '/manage-tele-payout',
  // Ours (issue 26: the payers' invoice pages).
  '/center-invoices',
  '/platform-invoices',
  // Ours (issue 29 §6–§7).
  '/faq',
  '/support-inbox',
];

const UNKNOWN_PATHS = [
  '/nope',
  '/Status',
  '/lab',
  '/lab/create-bill/7/8',
  '/viewer',
  '/viewer/1.2.3',
  '/viewer/1.2.3/5/extra',
  '/report-edit/1.2.3',
  '/admin-page/unknown',
  '/login-page/a/b',
  '/page',
  '/user',
  '/share/abc',
];

/** Contexts the properties run over: defaults, everything on, everything restrictive. */
const CONTEXTS: ReadonlyArray<Partial<Omit<TMenuContext, 'roles'>>> = [
  {},
  {
    enableElasticReportSummary: true,
    useInBrowserPythonApp: true,
    enableReportSearch: true,
    enableDashboardViewer: true,
    amuSpecialCustomization: true,
  },
  { doNotSendWhatsappMessage: true, disableCreateTemplateOptionToRadiologist: true },
  { hideSummaryPage: true, teleMedSpecificCustomization: true, teleUser: true },
];

describe('route table (spec-core §2, spec-lab §2)', () => {
  it.each(ROUTE_TABLE_PATHS)('%s is a known route', (path) => {
    expect(isKnownRoute(path)).toBe(true);
  });

  it.each(UNKNOWN_PATHS)('%s shows Not found, signed in or not', (path) => {
    expect(isKnownRoute(path)).toBe(false);
    expect(decideRoute({ pathname: path, user: null })).toEqual({ action: 'not-found' });
    expect(decideRoute({ pathname: path, user: createSignedInUser(['ROLE_ADMIN']) })).toEqual({
      action: 'not-found',
    });
  });

  it('every pattern of KNOWN_ROUTES is exercised by the table above', () => {
    for (const pattern of KNOWN_ROUTES) {
      expect(ROUTE_TABLE_PATHS.some((p) => matchRoute(pattern, p))).toBe(true);
    }
  });

  it('ignores a trailing slash', () => {
    expect(isKnownRoute('/status/')).toBe(true);
    expect(decideRoute({ pathname: '/status/', user: createSignedInUser(['ROLE_CENTER']) })).toEqual({
      action: 'allow',
    });
  });
});

describe('matchRoute', () => {
  it.each<[string, string, boolean]>([
    ['/lab/create-bill/:id?', '/lab/create-bill', true],
    ['/lab/create-bill/:id?', '/lab/create-bill/7', true],
    ['/lab/create-bill/:id?', '/lab/create-bill/7/8', false],
    ['/viewer/:studyInstanceUids/:id', '/viewer/1.2.3/5', true],
    ['/viewer/:studyInstanceUids/:id', '/viewer/1.2.3', false],
    ['/report-edit/:studyInstanceUids/:id/*', '/report-edit/1.2.3/5', true],
    ['/report-edit/:studyInstanceUids/:id/*', '/report-edit/1.2.3/5/a/b', true],
    ['/report-edit/:studyInstanceUids/:id/*', '/report-edit/1.2.3', false],
    ['/', '/', true],
    ['/', '/x', false],
    ['/status', '/summary', false],
  ])('%s ~ %s → %s', (pattern, path, expected) => {
    expect(matchRoute(pattern, path)).toBe(expected);
  });
});

describe('public paths (spec-core §2)', () => {
  // What a visitor may open, asked of the guard rather than read off PUBLIC_PATHS.
  it("let a visitor open /share, /info-page, /signup, /admin-page/dashboard, /login-page and our link's /set-password, and no other page", () => {
    const open = ['/share', '/info-page', '/signup', '/admin-page/dashboard', '/login-page', '/set-password'];
    for (const path of open) {
      expect(decideRoute({ pathname: path, user: null }), path).toEqual({ action: 'allow' });
    }
    const openToVisitors = [...ROUTE_TABLE_PATHS, ...PUBLIC_PATHS].filter(
      (path) => decideRoute({ pathname: path, user: null }).action === 'allow',
    );
    expect(
      openToVisitors.filter((path) => !open.some((p) => path === p || path.startsWith(`${p}/`))),
    ).toEqual([]);
  });

  it.each([
    '/share',
    '/info-page',
    '/signup',
    '/admin-page/dashboard',
    '/login-page',
    '/login-page/doctor@demo.local',
  ])('%s needs no login', (path) => {
    expect(isPublicPath(path)).toBe(true);
    expect(decideRoute({ pathname: path, user: null })).toEqual({ action: 'allow' });
  });

  it.each(['/admin-page', '/admin-page/billing', '/sharex', '/signup-now', '/'])(
    '%s is not public',
    (path) => {
      expect(isPublicPath(path)).toBe(false);
    },
  );

  it.each(ROUTE_TABLE_PATHS.filter((p) => !isPublicPath(p)))(
    '%s sends a visitor who is not signed in to /login-page',
    (path) => {
      expect(decideRoute({ pathname: path, user: null })).toEqual({ action: 'redirect', to: '/login-page' });
    },
  );

  it.each(ROLES)('are open to %s when signed in', (role) => {
    for (const path of PUBLIC_PATHS.filter((p) => p !== '/login-page')) {
      expect(decideRoute({ pathname: path, user: createSignedInUser([role]) })).toEqual({ action: 'allow' });
    }
  });
});

describe('allowed paths: the union of the menu paths of the user roles (spec-core §2 Route guard, §6)', () => {
  it.each(ROLES.flatMap((role) => CONTEXTS.map((flags, i) => [role, i, flags] as const)))(
    '%s (context %i) may open every path of its menu',
    (role, _i, flags) => {
      const ctx = createMenuContext([role], flags);
      for (const item of menuForUser(ctx)) {
        if (item.path === null) continue;
        expect(isPathAllowed(ctx, item.path)).toBe(true);
        expect(decideRoute({ pathname: item.path, user: { email: 'u@x', ctx } })).toEqual({
          action: 'allow',
        });
      }
    },
  );

  it('lets a doctor open /template-page but not a center, who goes to its first allowed path', () => {
    expect(decideRoute({ pathname: '/template-page', user: createSignedInUser(['ROLE_DOCTOR']) })).toEqual({
      action: 'allow',
    });
    expect(decideRoute({ pathname: '/template-page', user: createSignedInUser(['ROLE_CENTER']) })).toEqual({
      action: 'redirect',
      to: '/status',
    });
  });

  it('lets a center open /status but not a doctor, who goes to its first allowed path', () => {
    expect(decideRoute({ pathname: '/status', user: createSignedInUser(['ROLE_CENTER']) })).toEqual({
      action: 'allow',
    });
    expect(decideRoute({ pathname: '/status', user: createSignedInUser(['ROLE_DOCTOR']) })).toEqual({
      action: 'redirect',
      to: '/',
    });
  });

  it('lets a user with both roles open both', () => {
    const user = createSignedInUser(['ROLE_DOCTOR', 'ROLE_CENTER']);
    expect(decideRoute({ pathname: '/status', user })).toEqual({ action: 'allow' });
    expect(decideRoute({ pathname: '/template-page', user })).toEqual({ action: 'allow' });
  });

  it.each<[string, TRole[], Partial<Omit<TMenuContext, 'roles'>>, string, string]>([
    [
      'a sole doctor whose template option is disabled',
      ['ROLE_DOCTOR'],
      { disableCreateTemplateOptionToRadiologist: true },
      '/template-page',
      '/',
    ],
    ['a center without the in-browser router', ['ROLE_CENTER'], {}, '/pacs-router', '/status'],
    ['a center without report search', ['ROLE_CENTER'], {}, '/search-page', '/status'],
    ['a center without the dashboard viewer', ['ROLE_CENTER'], {}, '/page/dashboard', '/status'],
    [
      'a receptionist without the customisation',
      ['ROLE_LABS_RECEPTIONIST'],
      {},
      '/lab/lab-bill-test',
      '/lab/registration',
    ],
    ['a receptionist', ['ROLE_LABS_RECEPTIONIST'], {}, '/lab/test', '/lab/registration'],
    ['a typist', ['ROLE_TYPIST'], {}, '/setting-page', '/'],
    ['a referring doctor', ['ROLE_REFERRING_DOCTOR'], {}, '/summary', '/'],
    ['a group user', ['ROLE_GROUP'], {}, '/admin-page', '/setting-page'],
    ['a sales user', ['ROLE_RADFLOW_SALES'], {}, '/admin-page/billing-dashboard', '/admin-page/billing'],
    ['an admin', ['ROLE_ADMIN'], {}, '/audit-logins', '/'],
    ['an offline hybrid user', ['ROLE_OFFLINE_HYBRID'], {}, '/status', '/hybrid-study-list'],
    ['a customer', ['ROLE_CUSTOMER'], {}, '/lab/create-bill/7', '/manage-customer-report'],
  ])('sends %s away from %s', (_name, roles, flags, path, to) => {
    expect(decideRoute({ pathname: path, user: createSignedInUser(roles, flags) })).toEqual({
      action: 'redirect',
      to,
    });
  });

  it('allows a route condition again as soon as it is met', () => {
    expect(
      decideRoute({
        pathname: '/pacs-router',
        user: createSignedInUser(['ROLE_CENTER'], { useInBrowserPythonApp: true }),
      }),
    ).toEqual({ action: 'allow' });
    expect(
      decideRoute({
        pathname: '/lab/lab-bill-test',
        user: createSignedInUser(['ROLE_LABS_RECEPTIONIST'], { amuSpecialCustomization: true }),
      }),
    ).toEqual({ action: 'allow' });
  });

  it('lets a lab user edit a bill by id (/lab/create-bill/:id)', () => {
    for (const role of ['ROLE_LABS_RECEPTIONIST', 'ROLE_LABS_SUPERVISOR'] as const) {
      expect(decideRoute({ pathname: '/lab/create-bill/7', user: createSignedInUser([role]) })).toEqual({
        action: 'allow',
      });
    }
  });

  it.each<TRole>(['ROLE_DOCTOR', 'ROLE_CENTER', 'ROLE_ADMIN', 'ROLE_TYPIST', 'ROLE_LABS_SUPERVISOR'])(
    'lets %s open the viewer and the report editor',
    (role) => {
      const user = createSignedInUser([role]);
      for (const path of ['/viewer/1.2.3/5', '/report-edit/1.2.3/5', '/report-edit/1.2.3/5/extra']) {
        expect(decideRoute({ pathname: path, user })).toEqual({ action: 'allow' });
      }
    },
  );

  it.each<[TRole, string]>([
    ['ROLE_ADMIN_BILLER', '/admin-page/billing'],
    ['ROLE_RADFLOW_SALES', '/admin-page/billing'],
    ['ROLE_DASHBOARD_VIEWER', '/admin-page/dashboard'],
  ])('keeps %s, who never opens a study, out of the viewer', (role, to) => {
    expect(decideRoute({ pathname: '/viewer/1.2.3/5', user: createSignedInUser([role]) })).toEqual({
      action: 'redirect',
      to,
    });
  });
});

describe('login page visits by a signed-in user (spec-core §2 Route guard)', () => {
  const doctor = createSignedInUser(['ROLE_DOCTOR']);

  it('keeps a payer the provider returned (payment-id) on the login page to confirm the payment', () => {
    expect(decideRoute({ pathname: '/login-page', search: '?payment-id=pay_1&x=y', user: doctor })).toEqual({
      action: 'allow',
    });
    expect(decideRoute({ pathname: '/login-page', search: '?other=1', user: doctor })).toEqual({
      action: 'redirect',
      to: '/',
    });
  });

  it('leaves a visit for a different user alone', () => {
    expect(decideRoute({ pathname: '/login-page/center@demo.local', user: doctor })).toEqual({
      action: 'allow',
    });
    expect(decideRoute({ pathname: '/login-page/center%40demo.local', user: doctor })).toEqual({
      action: 'allow',
    });
  });

  it.each([
    '/login-page/doctor@demo.local',
    '/login-page/Doctor@Demo.Local',
    '/login-page/doctor%40demo.local',
    '/login-page',
  ])('sends %s for the same user (or none) to the first allowed path', (path) => {
    expect(decideRoute({ pathname: path, user: doctor })).toEqual({ action: 'redirect', to: '/' });
  });
});

describe('/user/get-route (spec-core §2)', () => {
  it.each<[TRole, string]>([
    ['ROLE_DOCTOR', '/'],
    ['ROLE_CENTER', '/status'],
    ['ROLE_GROUP', '/setting-page'],
    ['ROLE_LABS_RECEPTIONIST', '/lab/registration'],
    ['ROLE_OFFLINE_HYBRID', '/hybrid-study-list'],
    ['ROLE_ADMIN_BILLER', '/admin-page/billing'],
  ])('sends %s to %s', (role, to) => {
    expect(decideRoute({ pathname: '/user/get-route', user: createSignedInUser([role]) })).toEqual({
      action: 'redirect',
      to,
    });
  });

  it('follows the first of several roles', () => {
    expect(
      decideRoute({ pathname: '/user/get-route', user: createSignedInUser(['ROLE_CENTER', 'ROLE_DOCTOR']) }),
    ).toEqual({ action: 'redirect', to: '/status' });
    expect(
      decideRoute({ pathname: '/user/get-route', user: createSignedInUser(['ROLE_DOCTOR', 'ROLE_CENTER']) }),
    ).toEqual({ action: 'redirect', to: '/' });
  });
});

describe('roles without menu items of their own land on a usable home', () => {
  it.each<[TRole, string]>([
    ['ROLE_ASSIGNOR', '/'],
    ['ROLE_VERIFIER', '/'],
    ['ROLE_CENTER_BACKUP', '/status'],
    ['ROLE_CENTER_SHARE_ALL', '/status'],
  ])('%s → %s', (role, home) => {
    const user = createSignedInUser([role]);
    expect(menuForUser(user.ctx)).toEqual([]);
    expect(firstAllowedPath(user.ctx)).toBe(home);
    expect(decideRoute({ pathname: home, user })).toEqual({ action: 'allow' });
  });

  it('gives a center customer whose only menu item is switched off the center report list', () => {
    const user = createSignedInUser(['ROLE_CENTER_CUSTOMER'], { doNotSendWhatsappMessage: true });
    expect(menuForUser(user.ctx)).toEqual([]);
    expect(decideRoute({ pathname: '/manage-patient', user })).toEqual({ action: 'redirect', to: '/status' });
  });
});

describe('property: every user has a first allowed path that the guard allows', () => {
  const roleSets: TRole[][] = [
    ...ROLES.map((r) => [r]),
    ...ROLES.flatMap((a) => ROLES.filter((b) => b !== a).map((b) => [a, b])),
  ];

  it.each(CONTEXTS.map((flags, i) => [i, flags] as const))(
    'context %i, every role and pair of roles',
    (_i, flags) => {
      for (const roles of roleSets) {
        const user = createSignedInUser(roles, flags);
        const first = firstAllowedPath(user.ctx);
        expect(isKnownRoute(first), `${roles.join('+')} → ${first}`).toBe(true);
        expect(first.startsWith('/login-page'), `${roles.join('+')} → ${first}`).toBe(false);
        // '/info-page' is the fallback for a user with no home at all; no role should need it.
        expect(first, roles.join('+')).not.toBe('/info-page');
        expect(decideRoute({ pathname: first, user }), `${roles.join('+')} → ${first}`).toEqual({
          action: 'allow',
        });
        expect(decideRoute({ pathname: '/user/get-route', user })).toEqual({ action: 'redirect', to: first });
      }
    },
  );

  it('never redirects a user to a path that would redirect them again', () => {
    for (const roles of roleSets) {
      const user = createSignedInUser(roles);
      for (const path of ROUTE_TABLE_PATHS) {
        const decision = decideRoute({ pathname: path, user });
        if (decision.action !== 'redirect') continue;
        expect(decideRoute({ pathname: decision.to, user })).toEqual({ action: 'allow' });
      }
    }
  });
});
