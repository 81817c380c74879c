import AddIcon from '@mui/icons-material/Add';
import ClearAllIcon from '@mui/icons-material/FilterAltOffOutlined';
import ViewColumnIcon from '@mui/icons-material/ViewColumnOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import {
  AUTO_REFRESH_MS,
  type TStudyListKind,
  type TStudyListRow,
  type TStudyTab,
  type TTableKey,
  canAssignMulti,
  canChat,
  canCreateStudy,
  canDownloadZip,
  caseSendBadge,
  rowColour,
  seesActiveInViewer,
} from '@radflow/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type ReactNode, Suspense, useState } from 'react';
import { STUDIES_QUERY_KEY } from '../../api/archive';
import { PageHeader } from '../../components/PageHeader';
import { useSignedInSession } from '../auth/session';
import { ChatRowButton, useChatUnseenCounts } from '../chat';
import {
  AuditStatusCell,
  MultiAssignButton,
  StudyRowActions,
  offeredRowActions,
  rowOpenAction,
  useActor,
  useOpenStudy,
} from '../study-actions';
import { drawnColumns } from './column-settings';
import { DateRangeFilter } from './DateRangeFilter';
import { PaymentRowAction } from '../payments/PaymentRowAction';
import { RowExtraActions, UploadStudyButton, offersForward, offersUploadStudy } from './RowExtraActions';
import { ActiveInViewerCell, useActiveInViewer } from './ActiveInViewer';
import { StudyTable } from './StudyTable';
import { ASSIGNED_TO_YOU, ASSIGNED_TO_YOUR_DOCTOR } from './study-cells';
// Not the feature's index: it also holds the editor's section, which the list must not load.
import { CriticalResultBadge } from '../critical-results/CriticalResultBadge';
import { useOpenCriticalResults } from '../critical-results/critical-results-api';
import { AtRiskButton, AtRiskMark, useAtRisk } from '../turnaround';
import { useStudyListDialogs } from './StudyListDialogs';
import type { TListCallPath } from './study-list-api';
import { useStudySearch } from './useStudySearch';
import { useTableColumns } from './useTableColumns';
import { preloadable } from '../../lib/preloadable';

// The banner loads when there is a result to acknowledge: the list's first load stays within its
// budget (bench/web-bundle.ts).
const OpenCriticalResultsBanner = preloadable(() =>
  import('../critical-results/OpenCriticalResultsBanner').then((m) => ({
    default: m.OpenCriticalResultsBanner,
  })),
);

export interface TStudyListViewProps {
  title: string;
  /** The list kind the row actions are offered for. */
  kind: TStudyListKind;
  tableKey: TTableKey;
  /** Where the last search is kept; the table key unless two screens share one. */
  storageKey?: string;
  path: TListCallPath;
  /** The list's tabs and the selected one; none for a list without tabs. */
  tabs?: { all: readonly TStudyTab[]; selected: TStudyTab; onSelect(tab: TStudyTab): void };
  contextDoctor?: string | null;
  /** A note above the table; with `noData` the list is not asked for (its source is not there yet). */
  note?: ReactNode;
  noData?: boolean;
  /** Extra buttons beside the title (e.g. the typist's doctor). */
  headerActions?: ReactNode;
  /** A card above the table (the new group's getting-started checklist). */
  banner?: ReactNode;
}

/**
 * One study list screen (spec-core §2 Study list screens): title, tabs, the toolbar (clear all
 * filters, the date range, column settings, Create Study, the selection's bulk actions) and the
 * study table with its row actions and audit switch.
 */
export function StudyListView(props: TStudyListViewProps) {
  const { kind, tableKey, tabs } = props;
  const session = useSignedInSession();
  const { roles, flags, user, preferences } = session;
  const queryClient = useQueryClient();
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const table = useStudySearch({
    storageKey: props.storageKey ?? tableKey,
    path: props.path,
    filter: tabs?.selected.filter ?? {},
    contextDoctor: props.contextDoctor ?? null,
    enabled: !props.noData,
    autoRefresh: preferences.UI_PREFERENCES.autoRefresh,
  });
  const rows = table.query.data?.content ?? [];
  const access = { roles, flags };
  const activeInViewer = useActiveInViewer(
    rows.map((r) => r.id),
    { enabled: seesActiveInViewer(roles, flags), autoRefresh: preferences.UI_PREFERENCES.autoRefresh },
  );
  // Rows with an unacknowledged critical result are marked (issue 23 §5).
  const openCriticalResults = useOpenCriticalResults();
  const openCritical = new Set(openCriticalResults.map((r) => r.entityId));
  // Studies forecast to miss their sign-off limit (issue 24 §4), for those who may reassign them.
  const atRisk = useAtRisk();
  const atRiskById = new Map(atRisk.rows.map((r) => [r.id, r]));
  const chats = canChat(roles);
  const chatUnseen = useChatUnseenCounts(
    rows.map((r) => r.id),
    { enabled: chats, autoRefresh: preferences.UI_PREFERENCES.autoRefresh },
  );
  const columns = useTableColumns(tableKey);
  const dialogs = useStudyListDialogs(tableKey, columns);
  const actor = useActor();
  const openStudy = useOpenStudy();

  const refresh = () => void queryClient.invalidateQueries({ queryKey: STUDIES_QUERY_KEY });

  // One status call for the page's case-send badges, refreshed with the list.
  const forwardIds = rows.filter((r) => offersForward(r, access)).map((r) => r.id);
  const forwardStatus = useQuery({
    queryKey: ['forward-status-page', forwardIds],
    // Loaded when first asked: only groups with the forwarding feature ask, and the list's first
    // load stays within its bundle budget (bench/web-bundle.ts).
    queryFn: async ({ signal }) => {
      const { fetchForwardStatus } = await import('../forwarding/forwarding-api');
      return fetchForwardStatus(forwardIds, signal);
    },
    enabled: forwardIds.length > 0,
    refetchInterval: preferences.UI_PREFERENCES.autoRefresh ? AUTO_REFRESH_MS : false,
  });
  const badges = new Map(
    (forwardStatus.data?.studies ?? []).map((s) => [s.reportStatusId, s.badge ?? caseSendBadge(s.records)]),
  );

  const canMultiAssign = canAssignMulti({ roles });
  const canMultiZip = flags.enableMultipleZipDownload && canDownloadZip(roles, flags);
  const selectable = canMultiAssign || canMultiZip;
  const selectedIds = rows.filter((r) => selected.has(r.id)).map((r) => r.id);

  const selectTab = (tab: TStudyTab) => {
    setSelected(new Set());
    table.resetPage();
    tabs?.onSelect(tab);
  };

  const colourContext = {
    roles,
    flags,
    userEmail: user.email,
    colours: preferences.UI_REPORT_TABLE_PREFERENCES,
    now: new Date(),
  };

  return (
    <Box>
      <PageHeader
        title={props.title}
        actions={
          <>
            {props.headerActions}
            {atRisk.enabled && <AtRiskButton count={atRisk.count} rows={atRisk.rows} />}
            {canCreateStudy(roles) && (
              <Button variant="contained" startIcon={<AddIcon />} onClick={dialogs.openCreateStudy}>
                Create study
              </Button>
            )}
          </>
        }
      />
      {openCriticalResults.some((r) => r.canAcknowledge) && (
        <Suspense fallback={null}>
          <OpenCriticalResultsBanner />
        </Suspense>
      )}
      {props.banner}
      {props.note && (
        <Alert severity="info" sx={{ mb: 2 }}>
          {props.note}
        </Alert>
      )}
      {tabs && (
        <Tabs
          value={tabs.selected.key}
          onChange={(_, key: string) => {
            const tab = tabs.all.find((t) => t.key === key);
            if (tab) selectTab(tab);
          }}
          variant="scrollable"
          aria-label="Study list tabs"
          sx={{ mb: 1 }}
        >
          {tabs.all.map((tab) => (
            <Tab key={tab.key} value={tab.key} label={tab.label} />
          ))}
        </Tabs>
      )}
      <Box sx={{ display: 'flex', gap: 1, mb: 1, flexWrap: 'wrap', alignItems: 'center' }}>
        <Button
          size="small"
          color="inherit"
          startIcon={<ClearAllIcon />}
          disabled={!table.hasFilters}
          onClick={table.clearFilters}
        >
          Clear all filters
        </Button>
        <DateRangeFilter
          startTime={table.search.startTime}
          endTime={table.search.endTime}
          onChange={table.setDateRange}
        />
        <Button size="small" color="inherit" startIcon={<ViewColumnIcon />} onClick={dialogs.openColumns}>
          Column settings
        </Button>
        {selectedIds.length > 0 && (
          <>
            {canMultiAssign && (
              <MultiAssignButton
                selectedIds={selectedIds}
                onDone={() => {
                  setSelected(new Set());
                  refresh();
                }}
              />
            )}
            {canMultiZip && (
              <Button
                size="small"
                variant="outlined"
                onClick={() => dialogs.downloadZips(rows.filter((r) => selected.has(r.id)))}
              >
                Download {selectedIds.length} zips
              </Button>
            )}
          </>
        )}
      </Box>
      <StudyTable
        ariaLabel={tabs ? `${props.title}: ${tabs.selected.label}` : props.title}
        columns={drawnColumns(columns)}
        // A typist works for the doctor they type for: that doctor's studies are theirs to mark.
        me={props.contextDoctor ?? user.email}
        meLabel={props.contextDoctor ? ASSIGNED_TO_YOUR_DOCTOR : ASSIGNED_TO_YOU}
        onRowDoubleClick={(row) => {
          const action = rowOpenAction(offeredRowActions(actor, row), kind, actor.roles);
          if (action === 'assign') dialogs.openAssign(row);
          else openStudy(action, row);
        }}
        page={table.query.data}
        isFetching={table.query.isFetching}
        isPending={props.noData ? false : table.query.isPending}
        search={table.search}
        filterDraft={table.filterDraft}
        onSort={table.sortBy}
        onFilterChange={table.setFilter}
        onPageChange={table.setPage}
        onSizeChange={table.setSize}
        rowColour={(row) => rowColour(row, colourContext)}
        renderActions={(row: TStudyListRow) => (
          <Box sx={{ display: 'flex', alignItems: 'center', gap: 0.5 }}>
            {openCritical.has(row.id) && <CriticalResultBadge reportStatusId={row.id} />}
            {atRiskById.has(row.id) && <AtRiskMark row={atRiskById.get(row.id)!} />}
            <StudyRowActions row={row} listKind={kind} onChanged={refresh} />
            {chats && <ChatRowButton row={row} unseen={chatUnseen.countOf(row.id)} />}
            <PaymentRowAction row={row} onChanged={refresh} />
            <RowExtraActions
              row={row}
              access={access}
              badge={badges.get(row.id)}
              onZip={(r) => dialogs.downloadZips([r])}
              onForward={dialogs.openForward}
            />
          </Box>
        )}
        renderUploadStudy={(row) =>
          offersUploadStudy(row, access) ? (
            <UploadStudyButton row={row} onUpload={dialogs.openUpload} />
          ) : null
        }
        renderAuditApproval={(row) => <AuditStatusCell row={row} onChanged={refresh} />}
        renderActiveInViewer={(row) => (
          <ActiveInViewerCell users={activeInViewer.usersOf(row.id)} now={colourContext.now.getTime()} />
        )}
        selection={selectable ? { selected, onChange: setSelected } : undefined}
      />
      {dialogs.dialogs}
    </Box>
  );
}
