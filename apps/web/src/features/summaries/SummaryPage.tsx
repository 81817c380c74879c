import DownloadIcon from '@mui/icons-material/DownloadOutlined';
import EditNoteIcon from '@mui/icons-material/EditNoteOutlined';
import HistoryIcon from '@mui/icons-material/HistoryOutlined';
import OpenInNewIcon from '@mui/icons-material/DescriptionOutlined';
import ViewColumnIcon from '@mui/icons-material/ViewColumnOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import LinearProgress from '@mui/material/LinearProgress';
import Link from '@mui/material/Link';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import {
  SUMMARY_DATE_TYPES,
  SUMMARY_DATE_TYPE_LABELS,
  SUMMARY_MESSAGES,
  type TResolvedColumn,
  type TAdvancedSummaryPage,
  type TSearchTableRequest,
  type TStudyListPage,
  type TStudyListRow,
  type TSummaryDateType,
  type TSummaryRequest,
  advancedSummaryRefusal,
  canDownloadSummaryExcel,
  formatDisplayTime,
  summaryCellText,
  summaryDateTypeOf,
  summaryHistoryActions,
  summaryPageRefusal,
  summaryRangeProblem,
} from '@radflow/core';
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { Suspense, useEffect, useMemo, useState, type ReactNode } from 'react';
import { PageHeader } from '../../components/PageHeader';
import { PagedTablePagination } from '../../components/table/TableParts';
import { useSnackbar } from '../../components/feedback/feedback-context';
import { useSignedInSession } from '../auth/session';
import { EditStudyDetailsDialog, StudyHistoryDialog, useOpenStudy } from '../study-actions';
import { DateRangeFilter } from '../worklist/DateRangeFilter';
import { localStore } from '../worklist/browser-storage';
import { keepSearch, loadSearch } from '../worklist/search-state';
import { StudyEmptyRow } from '../worklist/StudyTable';
import { StudyTableHead } from '../worklist/StudyTableHead';
import { COMPACT_CELLS } from '../worklist/table-layout';
import { useTableColumns } from '../worklist/useTableColumns';
import { SummaryAggregates } from './SummaryAggregates';
import {
  SUMMARY_QUERY_KEY,
  downloadSummaryExcel,
  fetchAdvancedSummary,
  fetchSummaryPage,
  fetchSummaryTotals,
} from './summary-api';
import { openWhenLoaded, preloadable } from '../../lib/preloadable';

const ColumnSettingsDialog = preloadable(() => import('../worklist/ColumnSettingsDialog'));

/** The accessible names the tests and the e2e story find the controls by. */
export const DATE_TYPE_LABEL = 'Date type';
export const DOWNLOAD_EXCEL_LABEL = 'Download Excel';
export const HISTORY_ACTION_LABELS = {
  editHistory: 'Edit history',
  openReport: 'Open report',
  timeline: 'Show timeline',
} as const;

/** The filter text is sent this long after the last keystroke (spec-core §9: 800 ms). */
const FILTER_DEBOUNCE_MS = 800;
const dash = '—';

/** The zone as the times' labels name it ('UTC+05:30'), said once above the table. */
const zoneLabel = (timeZone: string) =>
  formatDisplayTime(new Date(), timeZone).split(' ').slice(2).join(' ') || timeZone;

type TDialog = { kind: 'editHistory' | 'timeline'; row: TStudyListRow } | { kind: 'columns' } | null;

/** The totals of the range (POST /total-summary/), one chip each. */
function SummaryTotals({ body }: { body: TSummaryRequest | null }) {
  const totals = useQuery({
    queryKey: [...SUMMARY_QUERY_KEY, 'totals', body],
    queryFn: ({ signal }) => fetchSummaryTotals(body as TSummaryRequest, signal),
    enabled: body !== null,
    placeholderData: keepPreviousData,
  });
  if (!body || !totals.data) return null;
  const { total, signedOff, pending, deleted } = totals.data;
  const chips: Array<[string, number, string]> = [
    ['Total', total, 'total'],
    ['Signed off', signedOff, 'signedOff'],
    ['Pending', pending, 'pending'],
    ['Deleted', deleted, 'deleted'],
  ];
  return (
    <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }} aria-label="Totals" role="group">
      {chips.map(([label, value, key]) => (
        <Chip
          key={key}
          variant="outlined"
          label={`${label}: ${value}`}
          data-testid={`summary-total-${key}`}
        />
      ))}
    </Box>
  );
}

/** The history cell: the text, then the actions core summaryHistoryActions offers the user. */
function HistoryCell({
  row,
  text,
  onOpen,
}: {
  row: TStudyListRow;
  text: string;
  onOpen(kind: 'editHistory' | 'openReport' | 'timeline'): void;
}) {
  const { roles } = useSignedInSession();
  const actions = summaryHistoryActions(roles, row);
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 0.5 }}>
      <Box
        component="span"
        title={text}
        sx={{ maxWidth: 160, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}
      >
        {text || dash}
      </Box>
      {actions.editHistory && (
        <Tooltip title={HISTORY_ACTION_LABELS.editHistory}>
          <IconButton
            size="small"
            aria-label={`${HISTORY_ACTION_LABELS.editHistory} of study ${row.id}`}
            onClick={() => onOpen('editHistory')}
          >
            <EditNoteIcon fontSize="small" />
          </IconButton>
        </Tooltip>
      )}
      {/* Drawn on every row, disabled on a deleted study (spec-core §2). */}
      <Tooltip title={HISTORY_ACTION_LABELS.openReport}>
        <span>
          <IconButton
            size="small"
            aria-label={`${HISTORY_ACTION_LABELS.openReport} of study ${row.id}`}
            disabled={!actions.openReport}
            onClick={() => onOpen('openReport')}
          >
            <OpenInNewIcon fontSize="small" />
          </IconButton>
        </span>
      </Tooltip>
      {actions.timeline && (
        <Tooltip title={HISTORY_ACTION_LABELS.timeline}>
          <IconButton
            size="small"
            aria-label={`${HISTORY_ACTION_LABELS.timeline} of study ${row.id}`}
            onClick={() => onOpen('timeline')}
          >
            <HistoryIcon fontSize="small" />
          </IconButton>
        </Tooltip>
      )}
    </Box>
  );
}

/** A cell of the summary: core summaryCellText, the text the Excel file holds, a dash when empty. */
function SummaryCell({
  column,
  row,
  timeZone,
  onOpen,
}: {
  column: TResolvedColumn;
  row: TStudyListRow;
  timeZone: string;
  onOpen(kind: 'editHistory' | 'openReport' | 'timeline'): void;
}): ReactNode {
  const text = summaryCellText(column.colName, row, timeZone);
  if (column.colName === 'history') return <HistoryCell row={row} text={text} onOpen={onOpen} />;
  if (column.colName === 'share' && text)
    return (
      <Link href={text} target="_blank" rel="noopener">
        Open
      </Link>
    );
  return text || dash;
}

/**
 * The summary's last search, kept like every table's (spec-core §2 "The last search request is kept
 * per table key locally"): under the table key doctorSummary, with its dates and date type.
 */
const SUMMARY_TABLE_KEY = 'doctorSummary';

function keptSummarySearch() {
  const kept = loadSearch(localStore(), SUMMARY_TABLE_KEY, null);
  const dateType = summaryDateTypeOf(kept.summaryType) ?? 'UPLOAD_TIME';
  const { startTime, endTime, summaryType: _type, ...search } = kept;
  return { search: { ...search, page: 0 }, startTime: startTime ?? '', endTime: endTime ?? '', dateType };
}

/**
 * The report summary (spec-core §2 Summary screen; issue 24 §1): a doctor's, a center's or the
 * group's (the server scopes the rows), over a range of days by upload, sign-off or study time. The
 * search runs once both dates are set; the columns are the `doctorSummary` table's, with the user's
 * column choice; the totals of the range; 'Download Excel' for whoever the switch lets.
 */
export function SummaryPage({ title, advanced = false }: { title: string; advanced?: boolean }) {
  const session = useSignedInSession();
  const { roles, flags } = session;
  const refusal = advanced ? advancedSummaryRefusal(roles, flags) : summaryPageRefusal(roles, flags);
  if (refusal) {
    return (
      <Box component="section">
        <PageHeader title={title} />
        <Alert severity="warning">{refusal}</Alert>
      </Box>
    );
  }
  return <SummaryScreen title={title} advanced={advanced} />;
}

function SummaryScreen({ title, advanced }: { title: string; advanced: boolean }) {
  const { roles, flags } = useSignedInSession();
  const timeZone = flags.displayTimeZone;
  const { showError } = useSnackbar();
  const openStudy = useOpenStudy();
  const columns = useTableColumns('doctorSummary');
  const visible = columns.filter((c) => c.visible);
  const [kept] = useState(keptSummarySearch);
  const [startTime, setStartTime] = useState(kept.startTime);
  const [endTime, setEndTime] = useState(kept.endTime);
  const [dateType, setDateType] = useState<TSummaryDateType>(kept.dateType);
  const [search, setSearch] = useState<TSearchTableRequest>(kept.search);
  const [filterDraft, setFilterDraft] = useState<Record<string, string>>(kept.search.filters);
  useEffect(() => {
    keepSearch(localStore(), SUMMARY_TABLE_KEY, { ...search, startTime, endTime, summaryType: dateType });
  }, [search, startTime, endTime, dateType]);
  const [dialog, setDialog] = useState<TDialog>(null);

  // Typed filter text reaches the search 800 ms after the last keystroke.
  useEffect(() => {
    const timer = setTimeout(() => {
      const filters = Object.fromEntries(Object.entries(filterDraft).filter(([, v]) => v.trim() !== ''));
      setSearch((s) =>
        JSON.stringify(s.filters) === JSON.stringify(filters) ? s : { ...s, filters, page: 0 },
      );
    }, FILTER_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [filterDraft]);

  const problem = summaryRangeProblem(startTime, endTime);
  const missingDate = !startTime || !endTime;
  // spec-core §2: the search re-runs only when both dates are set (and make a range).
  const body: TSummaryRequest | null = useMemo(
    () => (problem ? null : { ...search, startTime, endTime, summaryType: dateType }),
    [problem, search, startTime, endTime, dateType],
  );
  // The advanced variant's one call answers the page and the aggregates (POST /query/report-summary).
  const page = useQuery<TStudyListPage | TAdvancedSummaryPage>({
    queryKey: [...SUMMARY_QUERY_KEY, advanced ? 'advanced' : 'page', body],
    queryFn: ({ signal }) =>
      advanced
        ? fetchAdvancedSummary(body as TSummaryRequest, signal)
        : fetchSummaryPage(body as TSummaryRequest, signal),
    enabled: body !== null,
    placeholderData: keepPreviousData,
  });
  const aggregations = body && page.data && 'aggregations' in page.data ? page.data.aggregations : null;
  const download = useMutation({ mutationFn: (b: TSummaryRequest) => downloadSummaryExcel(b) });

  const onDownload = () => {
    // spec-core §5: the download needs both dates.
    if (problem || !body) {
      showError(problem?.message ?? SUMMARY_MESSAGES.selectDate);
      return;
    }
    download.mutate({ ...body, page: 0 });
  };

  const rows = body ? (page.data?.content ?? []) : [];
  const onRowAction = (row: TStudyListRow) => (kind: 'editHistory' | 'openReport' | 'timeline') => {
    if (kind === 'openReport') openStudy('report', row);
    else setDialog({ kind, row });
  };

  return (
    <Box component="section">
      <PageHeader
        title={title}
        actions={
          <>
            <Button
              variant="outlined"
              startIcon={<ViewColumnIcon />}
              onClick={() => openWhenLoaded(ColumnSettingsDialog, () => setDialog({ kind: 'columns' }))}
            >
              Column settings
            </Button>
            {canDownloadSummaryExcel(roles, flags) && (
              <Button
                variant="contained"
                startIcon={<DownloadIcon />}
                onClick={onDownload}
                disabled={download.isPending}
              >
                {DOWNLOAD_EXCEL_LABEL}
              </Button>
            )}
          </>
        }
      />
      <Box sx={{ display: 'flex', gap: 2, alignItems: 'center', flexWrap: 'wrap', mb: 2 }}>
        <DateRangeFilter
          startTime={startTime}
          endTime={endTime}
          onChange={(range) => {
            if (range.startTime !== undefined) setStartTime(range.startTime);
            if (range.endTime !== undefined) setEndTime(range.endTime);
            setSearch((s) => ({ ...s, page: 0 }));
          }}
        />
        <TextField
          select
          size="small"
          label={DATE_TYPE_LABEL}
          value={dateType}
          onChange={(e) => {
            setDateType(e.target.value as TSummaryDateType);
            setSearch((s) => ({ ...s, page: 0 }));
          }}
          sx={{ width: 180 }}
        >
          {SUMMARY_DATE_TYPES.map((type) => (
            <MenuItem key={type} value={type}>
              {SUMMARY_DATE_TYPE_LABELS[type]}
            </MenuItem>
          ))}
        </TextField>
        {!advanced && <SummaryTotals body={body} />}
      </Box>
      {problem && (
        <Alert severity={missingDate ? 'info' : 'warning'} sx={{ mb: 2 }} data-testid="summary-range-problem">
          {problem.message}
        </Alert>
      )}
      {aggregations && <SummaryAggregates windows={aggregations} />}
      <Typography variant="caption" color="textSecondary" component="p" sx={{ mb: 1 }}>
        Days and times are those of {zoneLabel(timeZone)}.
      </Typography>
      <Paper variant="outlined">
        <Box sx={{ height: 2 }}>
          {page.isFetching && <LinearProgress sx={{ height: 2 }} aria-label="Loading summary" />}
        </Box>
        <TableContainer>
          <Table size="small" aria-label={title} aria-busy={page.isFetching} sx={COMPACT_CELLS}>
            <StudyTableHead
              columns={visible}
              search={search}
              filterDraft={filterDraft}
              onSort={(sortKey) =>
                setSearch((s) => ({
                  ...s,
                  page: 0,
                  orderingCriteria: sortKey,
                  sortOrder: s.orderingCriteria === sortKey && s.sortOrder === 'DESC' ? 'ASC' : 'DESC',
                }))
              }
              onFilterChange={(key, value) => setFilterDraft((d) => ({ ...d, [key]: value }))}
              selectAll={null}
              onSelectAll={() => undefined}
            />
            <TableBody>
              {rows.map((row) => (
                <TableRow key={row.id} hover data-testid={`summary-row-${row.id}`}>
                  {visible.map((column) => (
                    <TableCell key={column.colName} data-column={column.colName}>
                      <SummaryCell column={column} row={row} timeZone={timeZone} onOpen={onRowAction(row)} />
                    </TableCell>
                  ))}
                </TableRow>
              ))}
              {body && !page.isPending && rows.length === 0 && <StudyEmptyRow colSpan={visible.length} />}
            </TableBody>
          </Table>
        </TableContainer>
        <PagedTablePagination
          count={body ? (page.data?.totalElements ?? 0) : 0}
          page={search.page}
          size={search.size}
          onPageChange={(p) => setSearch((s) => ({ ...s, page: p }))}
          onSizeChange={(size) => setSearch((s) => ({ ...s, size, page: 0 }))}
        />
      </Paper>
      <Suspense fallback={null}>
        {dialog?.kind === 'columns' && (
          <ColumnSettingsDialog tableKey="doctorSummary" columns={columns} onClose={() => setDialog(null)} />
        )}
        {dialog?.kind === 'editHistory' && (
          <EditStudyDetailsDialog
            row={dialog.row}
            onClose={() => setDialog(null)}
            onChanged={() => void page.refetch()}
          />
        )}
        {dialog?.kind === 'timeline' && (
          <StudyHistoryDialog row={dialog.row} onClose={() => setDialog(null)} onChanged={() => undefined} />
        )}
      </Suspense>
    </Box>
  );
}

export default SummaryPage;
