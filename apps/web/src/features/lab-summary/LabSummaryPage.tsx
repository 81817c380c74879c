import PrintIcon from '@mui/icons-material/PrintOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Chip from '@mui/material/Chip';
import FormControlLabel from '@mui/material/FormControlLabel';
import IconButton from '@mui/material/IconButton';
import LinearProgress from '@mui/material/LinearProgress';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import {
  LAB_DOCUMENT_MESSAGES as M,
  LAB_SUMMARY_SORTS,
  LAB_SUMMARY_SORT_LABELS,
  type TLabSummaryRequest,
  type TLabSummaryRow,
  type TLabSummarySort,
  canSuperviseLab,
  formatDisplayTime,
  summaryRangeProblem,
} from '@radflow/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { PageHeader } from '../../components/PageHeader';
import { PagedTablePagination } from '../../components/table/TableParts';
import { useLoading, useSnackbar } from '../../components/feedback/feedback-context';
import { useSignedInSession } from '../auth/session';
import { DateRangeFilter } from '../worklist/DateRangeFilter';
import { PrintOptionDialog } from './PrintOptionDialog';
import {
  LAB_DOWNLOADS,
  LAB_SUMMARY_QUERY_KEY,
  type TLabDownload,
  downloadLabFile,
  fetchLabUsers,
  searchLabSummary,
} from './lab-summary-api';

/** The accessible names the tests find the controls by. */
export const LAB_SUMMARY_LABELS = {
  receptionist: 'Receptionist',
  sort: 'Sort by',
  scheduled: 'Scheduled',
  csv: 'Download CSV',
  testsExcel: 'Download tests excel',
  pdf: 'Download PDF',
  amuPdf: 'Download AMU PDF',
} as const;

const rupees = (n: number) => `₹${n.toFixed(2)}`;

/**
 * The lab summary (spec-lab §2 /lab/summary, §6): bills of a date range with their payments. A
 * supervisor picks a receptionist ('All Receptionists' first) and downloads the tests Excel, and
 * under amuSpecialCustomization the AMU PDF; the summary PDF only under enableSummaryPdfRIS; every
 * download needs both dates ('Please select date').
 */
export function LabSummaryPage() {
  const { roles, flags } = useSignedInSession();
  const supervisor = canSuperviseLab(roles);
  const timeZone = flags.displayTimeZone;
  const { showError } = useSnackbar();
  const startLoading = useLoading();
  const [startTime, setStartTime] = useState('');
  const [endTime, setEndTime] = useState('');
  const [receptionistName, setReceptionistName] = useState('');
  const [sortType, setSortType] = useState<TLabSummarySort>('DATE_CREATED_AT');
  const [scheduled, setScheduled] = useState(false);
  const [paging, setPaging] = useState({ page: 0, size: 20 });
  const [printing, setPrinting] = useState<number | null>(null);

  const users = useQuery({
    queryKey: [...LAB_SUMMARY_QUERY_KEY, 'users'],
    queryFn: ({ signal }) => fetchLabUsers(signal),
    enabled: supervisor,
  });

  const problem = summaryRangeProblem(startTime, endTime);
  const filters = useMemo(
    () => ({ startTime, endTime, sortType, receptionistName: supervisor ? receptionistName : '', scheduled }),
    [startTime, endTime, sortType, receptionistName, supervisor, scheduled],
  );
  const body: TLabSummaryRequest | null = problem ? null : { ...filters, ...paging };
  const page = useQuery({
    queryKey: [...LAB_SUMMARY_QUERY_KEY, 'page', body],
    queryFn: ({ signal }) => searchLabSummary(body as TLabSummaryRequest, signal),
    enabled: body !== null,
    placeholderData: keepPreviousData,
  });
  const rows = body ? (page.data?.content ?? []) : [];
  const totals = body ? page.data?.totals : undefined;

  const download = async (kind: TLabDownload) => {
    // spec-lab §5: downloads need both start and end dates.
    if (!startTime || !endTime) {
      showError(M.selectDate);
      return;
    }
    const stop = startLoading(LAB_DOWNLOADS[kind].loading);
    try {
      await downloadLabFile(kind, kind === 'amuPdf' ? { startTime, endTime } : filters);
    } catch {
      // The API client has shown the server's message.
    } finally {
      stop();
    }
  };
  const changeFilter = (apply: () => void) => {
    apply();
    setPaging((p) => ({ ...p, page: 0 }));
  };

  return (
    <Box component="section">
      <PageHeader
        title="Lab summary"
        actions={
          <>
            <Button variant="outlined" onClick={() => void download('csv')}>
              {LAB_SUMMARY_LABELS.csv}
            </Button>
            {supervisor && (
              <Button variant="outlined" onClick={() => void download('testsExcel')}>
                {LAB_SUMMARY_LABELS.testsExcel}
              </Button>
            )}
            {flags.enableSummaryPdfRIS && (
              <Button variant="outlined" onClick={() => void download('pdf')}>
                {LAB_SUMMARY_LABELS.pdf}
              </Button>
            )}
            {supervisor && flags.amuSpecialCustomization && (
              <Button variant="outlined" onClick={() => void download('amuPdf')}>
                {LAB_SUMMARY_LABELS.amuPdf}
              </Button>
            )}
          </>
        }
      />
      <Box sx={{ display: 'flex', gap: 2, alignItems: 'center', flexWrap: 'wrap', mb: 2 }}>
        <DateRangeFilter
          startTime={startTime}
          endTime={endTime}
          onChange={(range) =>
            changeFilter(() => {
              if (range.startTime !== undefined) setStartTime(range.startTime);
              if (range.endTime !== undefined) setEndTime(range.endTime);
            })
          }
        />
        {supervisor && (
          <TextField
            select
            size="small"
            label={LAB_SUMMARY_LABELS.receptionist}
            value={receptionistName}
            onChange={(e) => changeFilter(() => setReceptionistName(e.target.value))}
            sx={{ width: 220 }}
            slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
          >
            <MenuItem value="">{M.allReceptionists}</MenuItem>
            {(users.data ?? []).map((u) => (
              <MenuItem key={u.id} value={u.email}>
                {u.name}
              </MenuItem>
            ))}
          </TextField>
        )}
        <TextField
          select
          size="small"
          label={LAB_SUMMARY_LABELS.sort}
          value={sortType}
          onChange={(e) => changeFilter(() => setSortType(e.target.value as TLabSummarySort))}
          sx={{ width: 200 }}
        >
          {LAB_SUMMARY_SORTS.map((sort) => (
            <MenuItem key={sort} value={sort}>
              {LAB_SUMMARY_SORT_LABELS[sort]}
            </MenuItem>
          ))}
        </TextField>
        <FormControlLabel
          control={
            <Checkbox
              checked={scheduled}
              onChange={(e) => changeFilter(() => setScheduled(e.target.checked))}
            />
          }
          label={LAB_SUMMARY_LABELS.scheduled}
        />
      </Box>
      {problem && (
        <Alert severity={!startTime || !endTime ? 'info' : 'warning'} sx={{ mb: 2 }}>
          {problem.message}
        </Alert>
      )}
      {totals && (
        <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', mb: 1 }} role="group" aria-label="Totals">
          <Chip variant="outlined" label={`Bills: ${totals.bills}`} />
          <Chip variant="outlined" label={`Total: ${rupees(totals.totalAmount)}`} />
          <Chip variant="outlined" label={`Discount: ${rupees(totals.discountAmount)}`} />
          <Chip variant="outlined" label={`Net Payable: ${rupees(totals.finalAmount)}`} />
          <Chip variant="outlined" label={`Paid: ${rupees(totals.advancePaid)}`} />
          <Chip variant="outlined" label={`Due: ${rupees(totals.dueAmount)}`} />
        </Box>
      )}
      <Paper variant="outlined">
        <Box sx={{ height: 2 }}>{page.isFetching && <LinearProgress sx={{ height: 2 }} />}</Box>
        <TableContainer>
          <Table size="small" aria-label="Lab summary">
            <TableHead>
              <TableRow>
                {[
                  'Invoice No.',
                  'Bill Date',
                  'Status',
                  'Patient',
                  'UHID',
                  'Receptionist',
                  'Tests',
                  'Total',
                  'Discount',
                  'Net Payable',
                  'Paid',
                  'Due',
                  'Payments',
                  '',
                ].map((h, i) => (
                  <TableCell key={i}>{h}</TableCell>
                ))}
              </TableRow>
            </TableHead>
            <TableBody>
              {rows.map((row) => (
                <SummaryRow key={row.id} row={row} timeZone={timeZone} onPrint={() => setPrinting(row.id)} />
              ))}
              {body && !page.isPending && rows.length === 0 && (
                <TableRow>
                  <TableCell colSpan={14}>No bills in this range.</TableCell>
                </TableRow>
              )}
            </TableBody>
          </Table>
        </TableContainer>
        <PagedTablePagination
          count={body ? (page.data?.totalElements ?? 0) : 0}
          page={paging.page}
          size={paging.size}
          onPageChange={(p) => setPaging((s) => ({ ...s, page: p }))}
          onSizeChange={(size) => setPaging({ page: 0, size: Math.min(size, 100) })}
        />
      </Paper>
      {printing !== null && <PrintOptionDialog billId={printing} open onClose={() => setPrinting(null)} />}
    </Box>
  );
}

function SummaryRow({ row, timeZone, onPrint }: { row: TLabSummaryRow; timeZone: string; onPrint(): void }) {
  return (
    <TableRow hover data-testid={`lab-summary-row-${row.id}`}>
      <TableCell>{row.invoiceNumber}</TableCell>
      <TableCell>{formatDisplayTime(row.billDate, timeZone, { label: false })}</TableCell>
      <TableCell>{row.status}</TableCell>
      <TableCell>{row.patientName}</TableCell>
      <TableCell>{row.uhidNumber}</TableCell>
      <TableCell>{row.receptionistName}</TableCell>
      <TableCell>{row.tests.join(', ')}</TableCell>
      <TableCell align="right">{rupees(row.totalAmount)}</TableCell>
      <TableCell align="right">{rupees(row.discountAmount)}</TableCell>
      <TableCell align="right">{rupees(row.finalAmount)}</TableCell>
      <TableCell align="right">{rupees(row.advancePaid)}</TableCell>
      <TableCell align="right">{rupees(row.dueAmount)}</TableCell>
      <TableCell>
        {row.labTransactions.length === 0
          ? M.noTransactions
          : row.labTransactions.map((t, i) => (
              <div key={i}>
                {t.paymentMethod} {rupees(t.amount)}
                {t.transactionId ? ` (${t.transactionId})` : ''} · {t.recordedByName}
              </div>
            ))}
      </TableCell>
      <TableCell>
        <Tooltip title={`Print ${row.invoiceNumber}`}>
          <IconButton size="small" aria-label={`Print ${row.invoiceNumber}`} onClick={onPrint}>
            <PrintIcon fontSize="small" />
          </IconButton>
        </Tooltip>
      </TableCell>
    </TableRow>
  );
}

export default LabSummaryPage;
