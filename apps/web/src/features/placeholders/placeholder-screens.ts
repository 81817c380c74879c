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

const BILLING = 'a later issue (billing and invoicing)';

/** Every placeholder path, and only those (the type holds the two lists together). */
export const PLACEHOLDER_SCREENS: Readonly<Record<TPlaceholderPath, TPlaceholderScreen>> = {
  '/manage-tele-pricing': {
    title: 'Manage Tele Pricing',
    capability: 'Tele-radiology pricing',
    arrivesWith: BILLING,
    summary: 'Prices per study type and center for tele-radiology reporting.',
  },
  '/manage-tele-invoice': {
    title: 'Manage Tele Invoice',
    capability: 'Tele-radiology invoices',
    arrivesWith: BILLING,
    summary: 'Invoices for reported studies by center and period.',
  },
  '/signup': {
    title: 'Sign up',
    capability: 'Customer sign-up',
    arrivesWith: BILLING,
    summary: 'Create an account with your mobile number.',
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
