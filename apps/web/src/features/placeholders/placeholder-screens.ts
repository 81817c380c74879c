import type { TPlaceholderPath } from './placeholder-paths';

/**
 * Screens of spec-core §2 and spec-lab §2 that later issues build. Each is titled with its menu label
 * and says which capability comes later, so every route resolves for the roles that may open it. The
 * paths are in placeholder-paths.ts (the routes need only those); this loads with the page.
 */
export interface TPlaceholderScreen {
  title: string;
  /** The capability the screen will hold. */
  capability: string;
  /** Which issue brings it. */
  arrivesWith: string;
  /** What the screen will do, in one sentence. */
  summary: string;
}

const REPORTING = 'the Reporting issue';
const BILLING = 'a later issue (billing and invoicing)';
const ROUTER = 'a later issue (local router)';

/** Every placeholder path, and only those (the type holds the two lists together). */
export const PLACEHOLDER_SCREENS: Readonly<Record<TPlaceholderPath, TPlaceholderScreen>> = {
  '/manage-patient': {
    title: 'Manage patient for center',
    capability: 'Patient management for centers',
    arrivesWith: REPORTING,
    summary: 'Patients of your center and the reports shared with them.',
  },
  '/manage-customer-report': {
    title: 'Manage report',
    capability: 'Customer reports',
    arrivesWith: REPORTING,
    summary: 'The reports shared with you.',
  },
  '/signup': {
    title: 'Sign up',
    capability: 'Customer sign-up',
    arrivesWith: BILLING,
    summary: 'Create an account with your mobile number.',
  },
  '/pacs-router': {
    title: 'PACS router',
    capability: 'PACS router',
    arrivesWith: ROUTER,
    summary: 'The local router’s upload queue, pending cases and forwarding.',
  },
  '/admin-page/billing': {
    title: 'Admin Billing',
    capability: 'Admin billing',
    arrivesWith: BILLING,
    summary: 'Plans, subscriptions and payments of groups.',
  },
  '/admin-page/billing-dashboard': {
    title: 'Billing Dashboard',
    capability: 'Billing dashboard',
    arrivesWith: BILLING,
    summary: 'Revenue and dues at a glance.',
  },
  '/admin-page/sales-dashboard': {
    title: 'Admin Sales Dashboard',
    capability: 'Sales dashboard',
    arrivesWith: BILLING,
    summary: 'Sales by customer and period.',
  },
};
