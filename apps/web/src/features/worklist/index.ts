/** The study lists (issue 4 §3, §4): route screens, loaded lazily by app/routes.tsx. */
export { CenterReportListPage, HomeStudyListPage } from './StudyListPage';
export { AdminPatientPage } from './AdminPatientPage';
