/** The payers' invoice pages (issue 26): lazy routes of app/routes.tsx. */
export { CenterInvoicesPage } from './CenterInvoicesPage';
export { PlatformInvoicesPage } from './PlatformInvoicesPage';
