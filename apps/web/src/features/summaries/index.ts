/** The report summaries (issue 24 §1): route screens, loaded lazily by app/routes.tsx. */
export { SummaryPage } from './SummaryPage';
