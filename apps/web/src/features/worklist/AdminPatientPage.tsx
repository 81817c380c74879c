import { StudyListView } from './StudyListView';

/**
 * The admin patient table at /admin-page (spec-core §2 "Admin patient table", §7: POST
 * /report-status/ for the admin patient list): every study of the group, no tabs. Decision: it shows
 * the admin list's columns (table key adminStudyList) but keeps its own last search, so filtering
 * here does not filter the admin's study list at '/'.
 */
export function AdminPatientPage() {
  return (
    <StudyListView
      title="Manage patient"
      kind="admin"
      tableKey="adminStudyList"
      storageKey="adminPatientList"
      path="/report-status/"
    />
  );
}

export default AdminPatientPage;
