import { StudyListView } from './StudyListView';

export const HYBRID_SOURCE_NOTE =
  'This list shows the studies held by your center’s local router while you work offline. ' +
  'Its data source arrives with the router issue; until then the list stays empty.';

/**
 * The offline hybrid list at /hybrid-study-list (spec-core §2): the center report table over the
 * local router's studies. The router's list call comes with the router issue, so the table shell is
 * drawn without asking for data.
 */
export function HybridStudyListPage() {
  return (
    <StudyListView
      title="Manage report"
      kind="center"
      tableKey="centerReportList"
      storageKey="hybridStudyList"
      path="/report-status/"
      note={HYBRID_SOURCE_NOTE}
      noData
    />
  );
}

export default HybridStudyListPage;
