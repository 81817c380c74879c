/** Manage Tele Pricing and Manage Tele Invoice (issue 26 §1): lazy routes of app/routes.tsx. */
export { TelePricingPage } from './TelePricingPage';
export { TeleInvoicePage } from './TeleInvoicePage';
