/** The Billing and Admin Sales dashboards: their own lazy chunk with the chart library. */
export { BillingDashboardPage, SalesDashboardPage } from './PlatformDashboardPage';
