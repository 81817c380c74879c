import { CENTER_INVOICES_PATH, PLATFORM_INVOICES_PATH } from '../billing/paths.js';
import { INVOICE_PAYER_ROLES } from '../billing/permissions.js';
import { PAYOUTS_PATH } from '../payouts/paths.js';
import { MANAGE_CENTERS_PATH, MANAGE_USERS_PATH } from '../people/paths.js';
import { SUPPORT_INBOX_PATH } from '../chat/support-paths.js';
import { FAQ_PATH } from '../help/paths.js';
import { ROLES, type TRole, isSoleDoctor, opensStudies } from './roles.js';

/**
 * Menus per role (spec-core §2 "Menu per role", spec-lab §6 "Lab menu"). The allowed paths of a
 * user are the union of the menu paths of their roles (spec-core §2 Route guard), plus each role's
 * home screen (below) so that roles the spec gives no menu items of their own still land somewhere.
 */

export const MENU_SECTIONS = ['Manage', 'Summary', 'Report', 'Study', 'Dashboard'] as const;
export type TMenuSection = (typeof MENU_SECTIONS)[number];

export interface TMenuItem {
  /** Stable key, unique within the merged menu. */
  key: string;
  label: string;
  /** Route path; null for an action item (the viewer's 'Stop viewing'). */
  path: string | null;
  section: TMenuSection;
}

/** What the menu conditions read: group switches and facts about the user. */
export interface TMenuContext {
  roles: readonly TRole[];
  enableElasticReportSummary: boolean;
  useInBrowserPythonApp: boolean;
  enableReportSearch: boolean;
  enableDashboardViewer: boolean;
  doNotSendWhatsappMessage: boolean;
  disableCreateTemplateOptionToRadiologist: boolean;
  amuSpecialCustomization: boolean;
  hideSummaryPage: boolean;
  teleMedSpecificCustomization: boolean;
  /** Tele info: the user is a tele user (spec-core §3 "Tele info: teleUser flag"). */
  teleUser: boolean;
  /** Ours (issue 29 §6): the user answers the support chat (core canAnswerSupport). */
  answersSupport: boolean;
}

export function defaultMenuContext(roles: readonly TRole[]): TMenuContext {
  return {
    roles,
    enableElasticReportSummary: false,
    useInBrowserPythonApp: false,
    enableReportSearch: false,
    enableDashboardViewer: false,
    doNotSendWhatsappMessage: false,
    disableCreateTemplateOptionToRadiologist: false,
    amuSpecialCustomization: false,
    hideSummaryPage: false,
    teleMedSpecificCustomization: false,
    teleUser: false,
    answersSupport: false,
  };
}

interface TMenuRow extends TMenuItem {
  /** When false the item is not offered and its path is not allowed. */
  when?: (ctx: TMenuContext) => boolean;
}

const item = (
  key: string,
  label: string,
  path: string | null,
  section: TMenuSection,
  when?: (ctx: TMenuContext) => boolean,
): TMenuRow => (when ? { key, label, path, section, when } : { key, label, path, section });

const preference = item('preference', 'Manage preference', '/setting-page', 'Manage');
const reportSearch = item(
  'report-search',
  'Report Search',
  '/search-page',
  'Report',
  (c) => c.enableReportSearch,
);
const advancedSearch = item(
  'advanced-search',
  'Advanced Search Report Summary',
  '/search-page/summary',
  'Summary',
  (c) => c.enableElasticReportSummary,
);
/** One screen, worded per menu: 'View Detailed Dashboard' in the CENTER row, 'Detailed Dashboard' in
 * the DOCTOR row (spec-core §2) and the supervisor's lab menu (spec-lab §6). */
const detailedDashboard = (
  label: 'View Detailed Dashboard' | 'Detailed Dashboard',
  when?: (c: TMenuContext) => boolean,
) => item('detailed-dashboard', label, '/page/dashboard', 'Dashboard', when);
const studyList = item('study-list', 'Study list', '/', 'Study');
/**
 * Ours (issue 21 §9; the spec names no such screens): the group's centers and users, for the two
 * roles that manage the group (core people/rules.ts canManagePeople).
 */
const peopleMenu = [
  item('manage-centers', 'Manage centers', MANAGE_CENTERS_PATH, 'Manage'),
  item('manage-users', 'Manage users', MANAGE_USERS_PATH, 'Manage'),
];
/** Ours (issue 26 §2): doctor rates, statements and the margin for the tele roles; a doctor's own statements. */
const payouts = item('tele-payouts', 'Radiologist payouts', PAYOUTS_PATH, 'Manage');
/**
 * Ours (issue 26): the payers' invoice pages, last in the menu of each role of INVOICE_PAYER_ROLES,
 * the table the server's guards read too (rowsFor adds them).
 */
const payerRows: readonly { roles: readonly TRole[]; row: TMenuRow }[] = [
  {
    roles: INVOICE_PAYER_ROLES.tele,
    row: item('center-invoices', 'Invoices', CENTER_INVOICES_PATH, 'Manage'),
  },
  {
    roles: INVOICE_PAYER_ROLES.platform,
    row: item('platform-invoices', 'Radflow invoices', PLATFORM_INVOICES_PATH, 'Manage'),
  },
];
/** Ours (issue 29 §6): the support chat's threads, for the platform's support (canAnswerSupport). */
const supportInbox = item(
  'support-inbox',
  'Support inbox',
  SUPPORT_INBOX_PATH,
  'Manage',
  (c) => c.answersSupport,
);
const teleMenu = [
  item('tele-pricing', 'Manage Tele Pricing', '/manage-tele-pricing', 'Manage'),
  item('tele-invoice', 'Manage Tele Invoice', '/manage-tele-invoice', 'Manage'),
  payouts,
];
const labReceptionistMenu = [
  item('lab-registration', 'Patient Registration', '/lab/registration', 'Manage'),
  item('lab-create-bill', 'Create Bill', '/lab/create-bill', 'Manage'),
  item('lab-referring-doctor', 'Edit Referring Doctor', '/lab/edit-referring-doctor', 'Manage'),
  item('lab-patients', 'Edit Patient Details', '/lab/edit-patient-details', 'Manage'),
  item(
    'lab-bill-test',
    'Test level Dashboard',
    '/lab/lab-bill-test',
    'Dashboard',
    (c) => c.roles.includes('ROLE_LABS_SUPERVISOR') || c.amuSpecialCustomization,
  ),
];

const MENU_ROWS: Record<TRole, readonly TMenuRow[]> = {
  ROLE_CENTER: [
    item('manage-report', 'Manage report', '/status', 'Manage'),
    preference,
    item('report-summary', 'Report summary', '/summary', 'Summary'),
    advancedSearch,
    item('pacs-router', 'PACS router', '/pacs-router', 'Manage', (c) => c.useInBrowserPythonApp),
    reportSearch,
    detailedDashboard('View Detailed Dashboard', (c) => c.enableDashboardViewer),
  ],
  ROLE_VIEWER: [item('stop-viewing', 'Stop viewing', null, 'Manage')],
  ROLE_CENTER_CUSTOMER: [
    item(
      'manage-patient-center',
      'Manage patient for center',
      '/manage-patient',
      'Manage',
      (c) => !c.doNotSendWhatsappMessage,
    ),
  ],
  ROLE_TELE_RADIOLOGY: teleMenu,
  ROLE_BILLER: teleMenu,
  ROLE_GROUP: [
    preference,
    item('audit-logins', 'Audit Logins', '/audit-logins', 'Manage'),
    ...peopleMenu,
    // Ours: the group's owner runs its tele billing too (core canUseTeleBilling; tele-billing
    // DECISIONS "Who").
    ...teleMenu,
    supportInbox,
  ],
  ROLE_CUSTOMER: [item('manage-customer-report', 'Manage report', '/manage-customer-report', 'Manage')],
  ROLE_ADMIN: [
    item('manage-patient', 'Manage patient', '/admin-page', 'Manage'),
    preference,
    item('report-summary-admin', 'Report summary admin', '/summary-admin', 'Summary'),
    reportSearch,
    ...peopleMenu,
    supportInbox,
  ],
  ROLE_DOCTOR: [
    studyList,
    item('report-summary', 'Report summary', '/summary', 'Summary'),
    advancedSearch,
    preference,
    item(
      'manage-template',
      'Manage template',
      '/template-page',
      'Report',
      (c) => !(c.disableCreateTemplateOptionToRadiologist && isSoleDoctor(c.roles)),
    ),
    reportSearch,
    // spec-core §2 Menu per role: enableDashboardViewer conditions the CENTER row only; the
    // DOCTOR row lists Detailed Dashboard without a condition (as the supervisor's, spec-lab §6).
    detailedDashboard('Detailed Dashboard'),
    payouts,
  ],
  ROLE_REFERRING_DOCTOR: [studyList],
  ROLE_AUDITOR: [studyList],
  ROLE_ADMIN_BILLER: [
    item('admin-billing', 'Admin Billing', '/admin-page/billing', 'Manage'),
    preference,
    item('billing-dashboard', 'Billing Dashboard', '/admin-page/billing-dashboard', 'Dashboard'),
  ],
  ROLE_RADFLOW_SALES: [
    item('admin-billing', 'Admin Billing', '/admin-page/billing', 'Manage'),
    item('sales-dashboard', 'Admin Sales Dashboard', '/admin-page/sales-dashboard', 'Dashboard'),
  ],
  ROLE_DASHBOARD_VIEWER: [item('view-dashboard', 'View Dashboard', '/admin-page/dashboard', 'Dashboard')],
  ROLE_LABS_RECEPTIONIST: labReceptionistMenu,
  ROLE_LABS_SUPERVISOR: [
    ...labReceptionistMenu,
    item('lab-test', 'Lab Test', '/lab/test', 'Manage'),
    item('lab-summary', 'Lab summary', '/lab/summary', 'Summary'),
    detailedDashboard('Detailed Dashboard'),
  ],
  ROLE_TYPIST: [studyList, item('manage-template', 'Manage template', '/template-page', 'Report')],
  ROLE_OFFLINE_HYBRID: [item('manage-hybrid-report', 'Manage report', '/hybrid-study-list', 'Manage')],
  ROLE_ASSIGNOR: [],
  ROLE_VERIFIER: [],
  ROLE_CENTER_BACKUP: [],
  ROLE_CENTER_SHARE_ALL: [],
};

/**
 * Each role's home screen. For most roles it is their first menu path; the roles the spec gives no
 * menu of their own work in a study list: assignors and verifiers in the admin study list (spec-core
 * §2 "Admin/doctor study list"), billers too ('assignor/biller/verifier' group), the center variants,
 * center customers and tele-radiology users in the center / tele-center report list at /status.
 */
const HOME_PATHS: Partial<Record<TRole, string>> = {
  ROLE_ADMIN: '/',
  ROLE_ASSIGNOR: '/',
  ROLE_VERIFIER: '/',
  ROLE_BILLER: '/',
  ROLE_CENTER_BACKUP: '/status',
  ROLE_CENTER_SHARE_ALL: '/status',
  ROLE_CENTER_CUSTOMER: '/status',
  ROLE_TELE_RADIOLOGY: '/status',
  ROLE_VIEWER: '/share',
};

/** Paths a role may open that are not menu items: its home and role-bound screens. */
const EXTRA_PATHS: Partial<Record<TRole, readonly string[]>> = {
  // The region dashboard (spec-core §3) is a dashboard-viewer screen without a menu entry.
  ROLE_DASHBOARD_VIEWER: ['/admin-page/eskag-dashboard'],
  // Ours (issue 24 §3 "what a group admin would want"): the group admin reads the group's dashboards
  // too, opened from Manage centers, where it sets each center's region; the spec's menu stays as is.
  ROLE_GROUP: ['/admin-page/dashboard', '/admin-page/eskag-dashboard'],
};

/** Each role's rows with the payers' invoice pages added (built once). */
const ROLE_ROWS = {} as Record<TRole, readonly TMenuRow[]>;
for (const role of ROLES) {
  ROLE_ROWS[role] = [
    ...MENU_ROWS[role],
    ...payerRows.filter((p) => p.roles.includes(role)).map((p) => p.row),
  ];
}

function rowsFor(role: TRole, ctx: TMenuContext): TMenuRow[] {
  return ROLE_ROWS[role].filter((row) => !row.when || row.when(ctx));
}

/**
 * The drawer menu of a user: the union of their roles' menus in role order, de-duplicated by key.
 * The drawer hides the setting page for tele users and the summary page when hideSummaryPage is on
 * or for a tele-medicine-customised assignor or center (spec-core §2 Shell, Summary screen).
 */
export function menuForUser(ctx: TMenuContext): TMenuItem[] {
  const seen = new Set<string>();
  const out: TMenuItem[] = [];
  const hideSummary =
    ctx.hideSummaryPage ||
    (ctx.teleMedSpecificCustomization && ctx.roles.some((r) => r === 'ROLE_ASSIGNOR' || r === 'ROLE_CENTER'));
  for (const role of ctx.roles) {
    for (const row of rowsFor(role, ctx)) {
      if (seen.has(row.key)) continue;
      if (ctx.teleUser && row.path === '/setting-page') continue;
      if (hideSummary && (row.path === '/summary' || row.path === '/summary-admin')) continue;
      seen.add(row.key);
      out.push({ key: row.key, label: row.label, path: row.path, section: row.section });
    }
  }
  return out;
}

/** The route patterns a user may open (before the public paths, which anyone may open). */
export function allowedRoutePatterns(ctx: TMenuContext): string[] {
  const patterns = new Set<string>();
  for (const role of ctx.roles) {
    const home = HOME_PATHS[role];
    if (home) patterns.add(home);
    for (const row of rowsFor(role, ctx)) if (row.path) patterns.add(row.path);
    for (const extra of EXTRA_PATHS[role] ?? []) patterns.add(extra);
  }
  // The FAQ and its training videos (drawer 'Support Videos') are for everyone signed in.
  if (ctx.roles.length > 0) patterns.add(FAQ_PATH);
  // Parametrised forms of menu screens.
  if (patterns.has('/lab/create-bill')) patterns.add('/lab/create-bill/:id');
  if (opensStudies(ctx.roles)) {
    patterns.add('/viewer/:studyInstanceUids/:id');
    patterns.add('/report-edit/:studyInstanceUids/:id/*');
  }
  return [...patterns];
}

/** The first allowed path: the home of the first role that has one, else its first menu path. */
export function firstAllowedPath(ctx: TMenuContext): string {
  for (const role of ctx.roles) {
    const home = HOME_PATHS[role];
    if (home) return home;
    const first = rowsFor(role, ctx).find((r) => r.path);
    if (first?.path) return first.path;
  }
  return '/info-page';
}
