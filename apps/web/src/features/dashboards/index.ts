/** The dashboards (issue 24 §3): one lazy chunk with the chart library. */
export { DetailedDashboardPage, RegionDashboardPage, ViewerDashboardPage } from './DashboardPage';
