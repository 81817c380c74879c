import { describe, expect, it } from 'vitest';
import {
  MENU_SECTIONS,
  type TMenuContext,
  type TMenuItem,
  type TMenuSection,
  allowedRoutePatterns,
  defaultMenuContext,
  menuForUser,
} from './menus.js';
import { canPayPlatformInvoice, canPayTeleInvoice } from '../billing/permissions.js';
import { ROLES, type TRole } from './roles.js';

type TFlags = Omit<TMenuContext, 'roles'>;

function createMenuContext(roles: readonly TRole[], flags: Partial<TFlags> = {}): TMenuContext {
  return { ...defaultMenuContext(roles), ...flags };
}

/** Every switch that adds an item on, every switch that removes one off. */
const ALL_ON: Partial<TFlags> = {
  enableElasticReportSummary: true,
  useInBrowserPythonApp: true,
  enableReportSearch: true,
  enableDashboardViewer: true,
  amuSpecialCustomization: true,
  answersSupport: true,
};

type TRow = readonly [label: string, path: string | null, section: TMenuSection];

function menuRows(ctx: TMenuContext): TRow[] {
  return menuForUser(ctx).map((i) => [i.label, i.path, i.section] as const);
}

function labels(ctx: TMenuContext): string[] {
  return menuForUser(ctx).map((i) => i.label);
}

// Items shared between rows (spec-core §2 uses 'preference' for 'Manage preference /setting-page').
const PREFERENCE: TRow = ['Manage preference', '/setting-page', 'Manage'];
const REPORT_SEARCH: TRow = ['Report Search', '/search-page', 'Report'];
/** Ours (issue 21 §9): the group's centers and users. */
const PEOPLE: TRow[] = [
  ['Manage centers', '/manage-centers', 'Manage'],
  ['Manage users', '/manage-users', 'Manage'],
];
const ADVANCED_SEARCH: TRow = ['Advanced Search Report Summary', '/search-page/summary', 'Summary'];
const DETAILED_DASHBOARD: TRow = ['View Detailed Dashboard', '/page/dashboard', 'Dashboard'];
/** The same screen as the DOCTOR row and the supervisor's lab menu word it (spec-core §2, spec-lab §6). */
const DETAILED_DASHBOARD_LISTED: TRow = ['Detailed Dashboard', '/page/dashboard', 'Dashboard'];
const STUDY_LIST: TRow = ['Study list', '/', 'Study'];
const MANAGE_TEMPLATE: TRow = ['Manage template', '/template-page', 'Report'];
const TELE: TRow[] = [
  ['Manage Tele Pricing', '/manage-tele-pricing', 'Manage'],
  ['Manage Tele Invoice', '/manage-tele-invoice', 'Manage'],
  ['Radiologist payouts', '/manage-tele-payout', 'Manage'],
];
const MY_PAYOUTS: TRow = ['Radiologist payouts', '/manage-tele-payout', 'Manage'];
/** Ours (issue 26): the payers' invoice pages. */
const CENTER_INVOICES: TRow = ['Invoices', '/center-invoices', 'Manage'];
const PLATFORM_INVOICES: TRow = ['Radflow invoices', '/platform-invoices', 'Manage'];
/** Ours (issue 29 §6): the support chat's threads, for the platform's support only. */
const SUPPORT_INBOX: TRow = ['Support inbox', '/support-inbox', 'Manage'];
const ADMIN_BILLING: TRow = ['Admin Billing', '/admin-page/billing', 'Manage'];
const LAB_RECEPTIONIST: TRow[] = [
  ['Patient Registration', '/lab/registration', 'Manage'],
  ['Create Bill', '/lab/create-bill', 'Manage'],
  ['Edit Referring Doctor', '/lab/edit-referring-doctor', 'Manage'],
  ['Edit Patient Details', '/lab/edit-patient-details', 'Manage'],
];
const TEST_LEVEL_DASHBOARD: TRow = ['Test level Dashboard', '/lab/lab-bill-test', 'Dashboard'];

/**
 * One row per line of spec-core §2 "Menu per role" and spec-lab §6 "Lab menu": the role's menu with
 * every condition met (ALL_ON) and with none (default context).
 */
const MENU_TABLE: ReadonlyArray<{ role: TRole; allOn: TRow[]; allOff: TRow[] }> = [
  {
    role: 'ROLE_CENTER',
    allOn: [
      ['Manage report', '/status', 'Manage'],
      PREFERENCE,
      ['Report summary', '/summary', 'Summary'],
      ADVANCED_SEARCH,
      ['PACS router', '/pacs-router', 'Manage'],
      REPORT_SEARCH,
      DETAILED_DASHBOARD,
      CENTER_INVOICES,
    ],
    allOff: [
      ['Manage report', '/status', 'Manage'],
      PREFERENCE,
      ['Report summary', '/summary', 'Summary'],
      CENTER_INVOICES,
    ],
  },
  {
    role: 'ROLE_VIEWER',
    allOn: [['Stop viewing', null, 'Manage']],
    allOff: [['Stop viewing', null, 'Manage']],
  },
  {
    role: 'ROLE_CENTER_CUSTOMER',
    allOn: [['Manage patient for center', '/manage-patient', 'Manage']],
    allOff: [['Manage patient for center', '/manage-patient', 'Manage']],
  },
  { role: 'ROLE_TELE_RADIOLOGY', allOn: TELE, allOff: TELE },
  { role: 'ROLE_BILLER', allOn: TELE, allOff: TELE },
  {
    role: 'ROLE_GROUP',
    // Ours (tele-billing DECISIONS "Who"): the group's owner runs its tele billing too.
    allOn: [
      PREFERENCE,
      ['Audit Logins', '/audit-logins', 'Manage'],
      ...PEOPLE,
      ...TELE,
      SUPPORT_INBOX,
      PLATFORM_INVOICES,
    ],
    allOff: [PREFERENCE, ['Audit Logins', '/audit-logins', 'Manage'], ...PEOPLE, ...TELE, PLATFORM_INVOICES],
  },
  {
    role: 'ROLE_CUSTOMER',
    allOn: [['Manage report', '/manage-customer-report', 'Manage']],
    allOff: [['Manage report', '/manage-customer-report', 'Manage']],
  },
  {
    role: 'ROLE_ADMIN',
    allOn: [
      ['Manage patient', '/admin-page', 'Manage'],
      PREFERENCE,
      ['Report summary admin', '/summary-admin', 'Summary'],
      REPORT_SEARCH,
      ...PEOPLE,
      SUPPORT_INBOX,
      PLATFORM_INVOICES,
    ],
    allOff: [
      ['Manage patient', '/admin-page', 'Manage'],
      PREFERENCE,
      ['Report summary admin', '/summary-admin', 'Summary'],
      ...PEOPLE,
      PLATFORM_INVOICES,
    ],
  },
  {
    role: 'ROLE_DOCTOR',
    allOn: [
      STUDY_LIST,
      ['Report summary', '/summary', 'Summary'],
      ADVANCED_SEARCH,
      PREFERENCE,
      MANAGE_TEMPLATE,
      REPORT_SEARCH,
      DETAILED_DASHBOARD_LISTED,
      MY_PAYOUTS,
    ],
    allOff: [
      STUDY_LIST,
      ['Report summary', '/summary', 'Summary'],
      PREFERENCE,
      MANAGE_TEMPLATE,
      DETAILED_DASHBOARD_LISTED,
      MY_PAYOUTS,
    ],
  },
  { role: 'ROLE_REFERRING_DOCTOR', allOn: [STUDY_LIST], allOff: [STUDY_LIST] },
  { role: 'ROLE_AUDITOR', allOn: [STUDY_LIST], allOff: [STUDY_LIST] },
  {
    role: 'ROLE_ADMIN_BILLER',
    allOn: [ADMIN_BILLING, PREFERENCE, ['Billing Dashboard', '/admin-page/billing-dashboard', 'Dashboard']],
    allOff: [ADMIN_BILLING, PREFERENCE, ['Billing Dashboard', '/admin-page/billing-dashboard', 'Dashboard']],
  },
  {
    role: 'ROLE_RADFLOW_SALES',
    allOn: [ADMIN_BILLING, ['Admin Sales Dashboard', '/admin-page/sales-dashboard', 'Dashboard']],
    allOff: [ADMIN_BILLING, ['Admin Sales Dashboard', '/admin-page/sales-dashboard', 'Dashboard']],
  },
  {
    role: 'ROLE_DASHBOARD_VIEWER',
    allOn: [['View Dashboard', '/admin-page/dashboard', 'Dashboard']],
    allOff: [['View Dashboard', '/admin-page/dashboard', 'Dashboard']],
  },
  {
    role: 'ROLE_LABS_RECEPTIONIST',
    allOn: [...LAB_RECEPTIONIST, TEST_LEVEL_DASHBOARD],
    allOff: LAB_RECEPTIONIST,
  },
  {
    role: 'ROLE_LABS_SUPERVISOR',
    allOn: [
      ...LAB_RECEPTIONIST,
      TEST_LEVEL_DASHBOARD,
      ['Lab Test', '/lab/test', 'Manage'],
      ['Lab summary', '/lab/summary', 'Summary'],
      DETAILED_DASHBOARD_LISTED,
    ],
    allOff: [
      ...LAB_RECEPTIONIST,
      TEST_LEVEL_DASHBOARD,
      ['Lab Test', '/lab/test', 'Manage'],
      ['Lab summary', '/lab/summary', 'Summary'],
      DETAILED_DASHBOARD_LISTED,
    ],
  },
  { role: 'ROLE_TYPIST', allOn: [STUDY_LIST, MANAGE_TEMPLATE], allOff: [STUDY_LIST, MANAGE_TEMPLATE] },
  {
    role: 'ROLE_OFFLINE_HYBRID',
    allOn: [['Manage report', '/hybrid-study-list', 'Manage']],
    allOff: [['Manage report', '/hybrid-study-list', 'Manage']],
  },
  { role: 'ROLE_ASSIGNOR', allOn: [], allOff: [] },
  { role: 'ROLE_VERIFIER', allOn: [], allOff: [] },
  { role: 'ROLE_CENTER_BACKUP', allOn: [], allOff: [] },
  { role: 'ROLE_CENTER_SHARE_ALL', allOn: [], allOff: [] },
];

describe('menu per role (spec-core §2, spec-lab §6)', () => {
  it('has a row for each of the 22 roles', () => {
    expect(MENU_TABLE.map((r) => r.role).sort()).toEqual([...ROLES].sort());
  });

  it.each(MENU_TABLE)('$role with every condition met', ({ role, allOn }) => {
    expect(menuRows(createMenuContext([role], ALL_ON))).toEqual(allOn);
  });

  it.each(MENU_TABLE)('$role with no condition met', ({ role, allOff }) => {
    expect(menuRows(createMenuContext([role]))).toEqual(allOff);
  });

  it('gives the viewer an action (no path) that logs out', () => {
    const [stop] = menuForUser(createMenuContext(['ROLE_VIEWER']));
    expect(stop).toMatchObject({ label: 'Stop viewing', path: null });
  });
});

describe('menu conditions, each both ways', () => {
  const cases: ReadonlyArray<{ role: TRole; flag: keyof TFlags; label: string; shownWhen: boolean }> = [
    {
      role: 'ROLE_CENTER',
      flag: 'enableElasticReportSummary',
      label: 'Advanced Search Report Summary',
      shownWhen: true,
    },
    { role: 'ROLE_CENTER', flag: 'useInBrowserPythonApp', label: 'PACS router', shownWhen: true },
    { role: 'ROLE_CENTER', flag: 'enableReportSearch', label: 'Report Search', shownWhen: true },
    { role: 'ROLE_CENTER', flag: 'enableDashboardViewer', label: 'View Detailed Dashboard', shownWhen: true },
    { role: 'ROLE_ADMIN', flag: 'enableReportSearch', label: 'Report Search', shownWhen: true },
    { role: 'ROLE_ADMIN', flag: 'answersSupport', label: 'Support inbox', shownWhen: true },
    { role: 'ROLE_GROUP', flag: 'answersSupport', label: 'Support inbox', shownWhen: true },
    {
      role: 'ROLE_DOCTOR',
      flag: 'enableElasticReportSummary',
      label: 'Advanced Search Report Summary',
      shownWhen: true,
    },
    { role: 'ROLE_DOCTOR', flag: 'enableReportSearch', label: 'Report Search', shownWhen: true },
    {
      role: 'ROLE_CENTER_CUSTOMER',
      flag: 'doNotSendWhatsappMessage',
      label: 'Manage patient for center',
      shownWhen: false,
    },
    {
      role: 'ROLE_LABS_RECEPTIONIST',
      flag: 'amuSpecialCustomization',
      label: 'Test level Dashboard',
      shownWhen: true,
    },
  ];

  it.each(cases)('$role: $label needs $flag = $shownWhen', ({ role, flag, label, shownWhen }) => {
    expect(labels(createMenuContext([role], { [flag]: shownWhen }))).toContain(label);
    expect(labels(createMenuContext([role], { [flag]: !shownWhen }))).not.toContain(label);
  });

  it('leaves the rest of the menu untouched when a condition flips', () => {
    const off = labels(createMenuContext(['ROLE_CENTER']));
    const on = labels(createMenuContext(['ROLE_CENTER'], { useInBrowserPythonApp: true }));
    expect(on.filter((l) => l !== 'PACS router')).toEqual(off);
  });

  it.each<keyof TFlags>(['enableDashboardViewer', 'enableReportSearch', 'enableElasticReportSummary'])(
    'offers the supervisor the Detailed Dashboard whatever %s is',
    (flag) => {
      expect(labels(createMenuContext(['ROLE_LABS_SUPERVISOR'], { [flag]: false }))).toContain(
        'Detailed Dashboard',
      );
    },
  );

  it('offers the doctor the Detailed Dashboard without enableDashboardViewer (the DOCTOR row has no condition)', () => {
    expect(labels(createMenuContext(['ROLE_DOCTOR'], { enableDashboardViewer: false }))).toContain(
      'Detailed Dashboard',
    );
  });

  describe('Manage template: hidden when disableCreateTemplateOptionToRadiologist and the user is a sole doctor', () => {
    it.each<[string, TRole[], boolean, boolean]>([
      ['sole doctor, switch on', ['ROLE_DOCTOR'], true, false],
      ['sole doctor, switch off', ['ROLE_DOCTOR'], false, true],
      ['doctor who is also admin, switch on', ['ROLE_DOCTOR', 'ROLE_ADMIN'], true, true],
      ['admin who is also doctor, switch on', ['ROLE_ADMIN', 'ROLE_DOCTOR'], true, true],
      ['typist, switch on', ['ROLE_TYPIST'], true, true],
      ['doctor who is also typist, switch on', ['ROLE_DOCTOR', 'ROLE_TYPIST'], true, true],
    ])('%s', (_name, roles, disable, shown) => {
      const menu = labels(createMenuContext(roles, { disableCreateTemplateOptionToRadiologist: disable }));
      expect(menu.includes('Manage template')).toBe(shown);
    });
  });

  describe('Test level Dashboard: for a lab supervisor or under amuSpecialCustomization', () => {
    it.each<[string, TRole[], boolean, boolean]>([
      ['supervisor', ['ROLE_LABS_SUPERVISOR'], false, true],
      ['supervisor with the customisation', ['ROLE_LABS_SUPERVISOR'], true, true],
      ['receptionist', ['ROLE_LABS_RECEPTIONIST'], false, false],
      ['receptionist with the customisation', ['ROLE_LABS_RECEPTIONIST'], true, true],
      [
        'receptionist who is also supervisor',
        ['ROLE_LABS_RECEPTIONIST', 'ROLE_LABS_SUPERVISOR'],
        false,
        true,
      ],
    ])('%s', (_name, roles, amu, shown) => {
      const menu = labels(createMenuContext(roles, { amuSpecialCustomization: amu }));
      expect(menu.includes('Test level Dashboard')).toBe(shown);
    });
  });
});

describe("the payers' invoice pages (core INVOICE_PAYER_ROLES, the server's guard reads it too)", () => {
  it('are in the menu and the routes of exactly the roles that may pay', () => {
    for (const role of ROLES) {
      const ctx = createMenuContext([role], ALL_ON);
      const paths = menuForUser(ctx).map((m) => m.path);
      const routes = allowedRoutePatterns(ctx);
      expect(paths.includes('/center-invoices'), role).toBe(canPayTeleInvoice([role]));
      expect(routes.includes('/center-invoices'), role).toBe(canPayTeleInvoice([role]));
      expect(paths.includes('/platform-invoices'), role).toBe(canPayPlatformInvoice([role]));
      expect(routes.includes('/platform-invoices'), role).toBe(canPayPlatformInvoice([role]));
    }
    expect(ROLES.filter((r) => canPayTeleInvoice([r]))).toEqual(['ROLE_CENTER']);
    expect(ROLES.filter((r) => canPayPlatformInvoice([r])).sort()).toEqual(['ROLE_ADMIN', 'ROLE_GROUP']);
  });
});

describe('menu sections', () => {
  it('are the five of the spec, in its order', () => {
    expect([...MENU_SECTIONS]).toEqual(['Manage', 'Summary', 'Report', 'Study', 'Dashboard']);
  });

  it('are each used by some role, and no item falls outside them', () => {
    const used = new Set<string>();
    for (const role of ROLES) {
      for (const item of menuForUser(createMenuContext([role], ALL_ON))) used.add(item.section);
    }
    expect([...used].sort()).toEqual([...MENU_SECTIONS].sort());
  });
});

describe('menus of users with several roles', () => {
  it('lists the roles in order and each item once', () => {
    expect(menuRows(createMenuContext(['ROLE_DOCTOR', 'ROLE_CENTER']))).toEqual([
      STUDY_LIST,
      ['Report summary', '/summary', 'Summary'],
      PREFERENCE,
      MANAGE_TEMPLATE,
      DETAILED_DASHBOARD_LISTED,
      MY_PAYOUTS,
      ['Manage report', '/status', 'Manage'],
      CENTER_INVOICES,
    ]);
  });

  it('merges the shared tele menu of tele-radiology and biller', () => {
    expect(menuRows(createMenuContext(['ROLE_TELE_RADIOLOGY', 'ROLE_BILLER']))).toEqual(TELE);
  });

  it('merges admin biller and sales on Admin Billing', () => {
    expect(labels(createMenuContext(['ROLE_RADFLOW_SALES', 'ROLE_ADMIN_BILLER']))).toEqual([
      'Admin Billing',
      'Admin Sales Dashboard',
      'Manage preference',
      'Billing Dashboard',
    ]);
  });

  it('keeps the three different "Manage report" screens apart', () => {
    const menu = menuForUser(createMenuContext(['ROLE_CENTER', 'ROLE_CUSTOMER', 'ROLE_OFFLINE_HYBRID']));
    expect(menu.filter((i) => i.label === 'Manage report').map((i) => i.path)).toEqual([
      '/status',
      '/manage-customer-report',
      '/hybrid-study-list',
    ]);
  });

  it('never repeats a key or a path, even with all 22 roles', () => {
    for (const flags of [{}, ALL_ON]) {
      const menu = menuForUser(createMenuContext(ROLES, flags));
      const keys = menu.map((i) => i.key);
      const paths = menu.map((i) => i.path);
      expect(new Set(keys).size).toBe(keys.length);
      expect(new Set(paths).size).toBe(paths.length);
    }
  });

  it('with all 22 roles holds every item of every single-role menu', () => {
    const all = menuForUser(createMenuContext(ROLES, ALL_ON));
    // By key and path: one screen may be worded per menu (the Detailed Dashboard), listed once.
    const key = (i: TMenuItem) => `${i.key}|${i.path}`;
    const merged = new Set(all.map(key));
    for (const role of ROLES) {
      for (const item of menuForUser(createMenuContext([role], ALL_ON))) expect(merged).toContain(key(item));
    }
  });
});

describe('drawer hiding (spec-core §2 Shell, Summary screen)', () => {
  it.each<TRole>(['ROLE_CENTER', 'ROLE_GROUP', 'ROLE_ADMIN', 'ROLE_DOCTOR', 'ROLE_ADMIN_BILLER'])(
    'hides the setting page from %s when a tele user, and only then',
    (role) => {
      const paths = (teleUser: boolean) =>
        menuForUser(createMenuContext([role], { teleUser })).map((i) => i.path);
      expect(paths(false)).toContain('/setting-page');
      expect(paths(true)).not.toContain('/setting-page');
      expect(paths(true)).toEqual(paths(false).filter((p) => p !== '/setting-page'));
    },
  );

  it.each<[TRole, string]>([
    ['ROLE_CENTER', '/summary'],
    ['ROLE_DOCTOR', '/summary'],
    ['ROLE_ADMIN', '/summary-admin'],
  ])('hides the summary page of %s (%s) under hideSummaryPage', (role, path) => {
    const paths = (hideSummaryPage: boolean) =>
      menuForUser(createMenuContext([role], { hideSummaryPage })).map((i) => i.path);
    expect(paths(false)).toContain(path);
    expect(paths(true)).toEqual(paths(false).filter((p) => p !== path));
  });

  it.each<[string, TRole[], boolean]>([
    ['a tele-medicine-customised center', ['ROLE_CENTER'], true],
    ['a tele-medicine-customised assignor (who is also a doctor)', ['ROLE_ASSIGNOR', 'ROLE_DOCTOR'], true],
    ['a doctor under the tele-medicine customisation', ['ROLE_DOCTOR'], false],
    ['an admin under the tele-medicine customisation', ['ROLE_ADMIN'], false],
  ])('for %s the summary is hidden: %s', (_name, roles, hidden) => {
    const summaryPaths = (teleMedSpecificCustomization: boolean) =>
      menuForUser(createMenuContext(roles, { teleMedSpecificCustomization }))
        .map((i) => i.path)
        .filter((p) => p === '/summary' || p === '/summary-admin');
    expect(summaryPaths(false)).not.toEqual([]);
    expect(summaryPaths(true).length === 0).toBe(hidden);
  });
});
