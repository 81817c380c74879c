import { CENTER_INVOICES_PATH, FAQ_PATH, PLATFORM_INVOICES_PATH, SUPPORT_INBOX_PATH } from '@radflow/core';
// The viewers are chunks of their own (ViewerRoute.tsx); Cornerstone loads only with d=1.
import { ViewerRoute } from '../features/viewer/ViewerRoute';
import { isValidElement } from 'react';
import { matchRoutes, type RouteObject } from 'react-router';
import { NotFoundPage } from '../components/NotFoundPage';
import { AppRoot } from './AppRoot';
import { preloadable, type TPreloadable } from '../lib/preloadable';

// Route screens load on demand so the first paint (login or the shell) stays small.
const LoginPage = preloadable(() => import('../features/auth/LoginPage'));
const AuditLoginsPage = preloadable(() => import('../features/audit-logins/AuditLoginsPage'));
const InfoPage = preloadable(() => import('../features/info/InfoPage'));
const SettingsPage = preloadable(() => import('../features/settings/SettingsPage'));
const TemplatePage = preloadable(() => import('../features/report-templates/TemplatePage'));
const ReportSearchPage = preloadable(() => import('../features/report-search/ReportSearchPage'));
const ReportEditPage = preloadable(() => import('../features/report-editor/ReportEditPage'));
const SharePage = preloadable(() => import('../features/share-page/SharePage'));
// A new group's sign-up (issue 26 §4), public, its own chunk.
const SignupPage = preloadable(() => import('../features/signup/SignupPage'));
// The group admin's screens (issue 21 §9) and the set-password link's page, each its own chunk.
const people = () => import('../features/people');
const ManageCentersPage = preloadable(() => people().then((m) => ({ default: m.ManageCentersPage })));
const ManageUsersPage = preloadable(() => people().then((m) => ({ default: m.ManageUsersPage })));
const SetPasswordPage = preloadable(() => people().then((m) => ({ default: m.SetPasswordPage })));
// The dashboards and their chart library: one chunk, loaded only when a dashboard opens (issue 24 §3).
const dashboards = () => import('../features/dashboards');
const DetailedDashboardPage = preloadable(() =>
  dashboards().then((m) => ({ default: m.DetailedDashboardPage })),
);
const ViewerDashboardPage = preloadable(() => dashboards().then((m) => ({ default: m.ViewerDashboardPage })));
const RegionDashboardPage = preloadable(() => dashboards().then((m) => ({ default: m.RegionDashboardPage })));
// The study lists share one chunk (table, search, tabs); their dialogs load later on their own.
const worklist = () => import('../features/worklist');
const HomeStudyListPage = preloadable(() => worklist().then((m) => ({ default: m.HomeStudyListPage })));
const CenterReportListPage = preloadable(() => worklist().then((m) => ({ default: m.CenterReportListPage })));
const AdminPatientPage = preloadable(() => worklist().then((m) => ({ default: m.AdminPatientPage })));
// Its own chunk: it carries the report editor (TipTap), kept out of the list bundle.
const HybridStudyListPage = preloadable(() => import('../features/worklist/HybridStudyListPage'));
// The report summaries (issue 24 §1), one chunk.
const summaries = () => import('../features/summaries');
const SummaryPage = preloadable(() => summaries().then((m) => ({ default: m.SummaryPage })));
// The lab's test catalogue (issue 25 §2), one chunk.
const LabTestPage = preloadable(() =>
  import('../features/lab-tests').then((m) => ({ default: m.LabTestPage })),
);
// The lab front desk's patients and referring doctors (issue 25 §1), one chunk.
const labPatients = () => import('../features/lab-patients');
const RegistrationPage = preloadable(() => labPatients().then((m) => ({ default: m.RegistrationPage })));
const EditPatientDetailsPage = preloadable(() =>
  labPatients().then((m) => ({ default: m.EditPatientDetailsPage })),
);
const EditReferringDoctorPage = preloadable(() =>
  labPatients().then((m) => ({ default: m.EditReferringDoctorPage })),
);
// The lab summary and the bill print chooser (issue 25 §5), one chunk.
const LabSummaryPage = preloadable(() =>
  import('../features/lab-summary').then((m) => ({ default: m.LabSummaryPage })),
);
// The lab bill screen and its dialogs (issue 25 §3–§4), one chunk.
const labBills = () => import('../features/lab-bills');
const BillScreen = preloadable(() => labBills().then((m) => ({ default: m.BillScreen })));
// The platform's billing of the groups (issue 26 §3): Admin Billing, and its dashboards with charts.
const AdminBillingPage = preloadable(() =>
  import('../features/platform-billing').then((m) => ({ default: m.AdminBillingPage })),
);
const platformDashboards = () => import('../features/platform-billing/dashboards');
const BillingDashboardPage = preloadable(() =>
  platformDashboards().then((m) => ({ default: m.BillingDashboardPage })),
);
const SalesDashboardPage = preloadable(() =>
  platformDashboards().then((m) => ({ default: m.SalesDashboardPage })),
);
// The lab's test-level dashboard (issue 25 §5), its own chunk.
const LabBillTestPage = preloadable(() => import('../features/lab-bill-test/LabBillTestPage'));
const customerPages = () => import('../features/customer-pages');
const CustomerReportsPage = preloadable(() =>
  customerPages().then((m) => ({ default: m.CustomerReportsPage })),
);
const ManagePatientPage = preloadable(() => customerPages().then((m) => ({ default: m.ManagePatientPage })));
const teleBilling = () => import('../features/tele-billing');
const TelePricingPage = preloadable(() => teleBilling().then((m) => ({ default: m.TelePricingPage })));
const TeleInvoicePage = preloadable(() => teleBilling().then((m) => ({ default: m.TeleInvoicePage })));
// The payers' invoice pages (issue 26): a center's tele invoices, a group's platform invoices.
const invoicePayments = () => import('../features/invoice-payments');
const CenterInvoicesPage = preloadable(() =>
  invoicePayments().then((m) => ({ default: m.CenterInvoicesPage })),
);
const PlatformInvoicesPage = preloadable(() =>
  invoicePayments().then((m) => ({ default: m.PlatformInvoicesPage })),
);
// The radiologist's payout (issue 26 §2), its own chunk.
const PayoutsPage = preloadable(() => import('../features/tele-payouts/PayoutsPage'));
// The center's router screen (issue 27 §2), its own chunk.
const PacsRouterPage = preloadable(() => import('../features/pacs-router/PacsRouterPage'));
// The FAQ with its training videos and support's inbox (issue 29 §6–§7), each its own chunk.
const FaqPage = preloadable(() => import('../features/faq/FaqPage'));
const SupportInboxPage = preloadable(() => import('../features/support-chat/SupportInboxPage'));

/**
 * Every route of spec-core §2 and spec-lab §2, by the same patterns as core KNOWN_ROUTES. Which user
 * may open which is decided by the route guard in AppRoot, not here.
 */
export const SCREEN_ROUTES: RouteObject[] = [
  { path: '/login-page/:user?', element: <LoginPage /> },
  { path: '/audit-logins', element: <AuditLoginsPage /> },
  { path: '/info-page', element: <InfoPage /> },
  { path: '/', element: <HomeStudyListPage /> },
  { path: '/status', element: <CenterReportListPage /> },
  { path: '/admin-page', element: <AdminPatientPage /> },
  { path: '/hybrid-study-list', element: <HybridStudyListPage /> },
  { path: '/summary', element: <SummaryPage title="Report summary" /> },
  { path: '/summary-admin', element: <SummaryPage title="Report summary admin" /> },
  { path: '/search-page/summary', element: <SummaryPage title="Advanced Search Report Summary" advanced /> },
  { path: '/viewer/:studyInstanceUids/:id', element: <ViewerRoute /> },
  { path: '/report-edit/:studyInstanceUids/:id/*', element: <ReportEditPage /> },
  { path: '/setting-page', element: <SettingsPage /> },
  { path: '/template-page', element: <TemplatePage /> },
  { path: '/share', element: <SharePage /> },
  { path: '/signup', element: <SignupPage /> },
  { path: '/manage-centers', element: <ManageCentersPage /> },
  { path: '/manage-users', element: <ManageUsersPage /> },
  { path: '/set-password', element: <SetPasswordPage /> },
  { path: '/page/dashboard', element: <DetailedDashboardPage /> },
  { path: '/admin-page/dashboard', element: <ViewerDashboardPage /> },
  { path: '/admin-page/eskag-dashboard', element: <RegionDashboardPage /> },
  { path: '/search-page', element: <ReportSearchPage /> },
  { path: '/lab/test', element: <LabTestPage /> },
  { path: '/lab/registration', element: <RegistrationPage /> },
  { path: '/lab/edit-patient-details', element: <EditPatientDetailsPage /> },
  { path: '/lab/edit-referring-doctor', element: <EditReferringDoctorPage /> },
  { path: '/lab/summary', element: <LabSummaryPage /> },
  { path: '/lab/create-bill/:id?', element: <BillScreen /> },
  { path: '/lab/lab-bill-test', element: <LabBillTestPage /> },
  { path: '/manage-customer-report', element: <CustomerReportsPage /> },
  { path: '/manage-patient', element: <ManagePatientPage /> },
  { path: '/admin-page/billing', element: <AdminBillingPage /> },
  { path: '/admin-page/billing-dashboard', element: <BillingDashboardPage /> },
  { path: '/admin-page/sales-dashboard', element: <SalesDashboardPage /> },
  { path: '/manage-tele-pricing', element: <TelePricingPage /> },
  { path: '/manage-tele-invoice', element: <TeleInvoicePage /> },
  { path: '/manage-tele-payout', element: <PayoutsPage /> },
  { path: CENTER_INVOICES_PATH, element: <CenterInvoicesPage /> },
  { path: PLATFORM_INVOICES_PATH, element: <PlatformInvoicesPage /> },
  { path: '/pacs-router', element: <PacsRouterPage /> },
  { path: FAQ_PATH, element: <FaqPage /> },
  { path: SUPPORT_INBOX_PATH, element: <SupportInboxPage /> },
  // The guard always redirects this one to the user's first allowed path.
  { path: '/user/get-route', element: null },
];

/**
 * Starts loading the screen drawn at this address (main.tsx, at startup): its chunk then loads
 * beside the session calls instead of after them, and the screen draws without suspending
 * (lib/preloadable.ts says why that matters).
 */
export function preloadScreenAt(pathname: string): void {
  const route = matchRoutes(SCREEN_ROUTES, pathname)?.at(-1)?.route;
  const screen = isValidElement(route?.element) ? (route.element.type as Partial<TPreloadable<never>>) : null;
  screen?.preload?.().catch(() => undefined);
}

export const APP_ROUTES: RouteObject[] = [
  { element: <AppRoot />, children: [...SCREEN_ROUTES, { path: '*', element: <NotFoundPage /> }] },
];
