/** The platform's billing screens (issue 26 §3): Admin Billing, and the two dashboards (with the chart library). */
export { AdminBillingPage } from './AdminBillingPage';
