import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import Tab from '@mui/material/Tab';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TablePagination from '@mui/material/TablePagination';
import TableRow from '@mui/material/TableRow';
import Tabs from '@mui/material/Tabs';
import TextField from '@mui/material/TextField';
import {
  ALL_LAB_MODALITIES,
  LAB_REPORT_STATUSES,
  type TLabBillTestSearchRequest,
  type TLabReportStatus,
  type TLabTab,
  type TRisRow,
  formatDisplayTime,
} from '@radflow/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { ApiError } from '../../api/client';
import { PageHeader } from '../../components/PageHeader';
import { AllOrOneSelect } from '../../components/table/AllOrOneSelect';
import { useSignedInSession } from '../auth/session';
import { LabReportStatusChip } from './LabReportStatusChip';
import { PrintLabReport } from './PrintLabReport';
import { searchLabBillTests } from './lab-bill-test.api';

type TLabModality = (typeof ALL_LAB_MODALITIES)[number];

const TABS: readonly TLabTab[] = ['Active', 'Scheduled', 'All'];
/** The tab last chosen on this browser (spec-lab §2: the chosen tab is remembered). */
const TAB_KEY = 'radflow.labBillTest.tab';
const PAGE_SIZES = [20, 50, 100];

/** The tab flags of the search (core billStatusesOfFilter reads them). */
const TAB_FLAGS: Record<TLabTab, Pick<TLabBillTestSearchRequest, 'scheduled' | 'cancelled'>> = {
  Active: { scheduled: false, cancelled: false },
  Scheduled: { scheduled: true, cancelled: false },
  All: { scheduled: false, cancelled: true },
};

function rememberedTab(): TLabTab {
  const stored = localStorage.getItem(TAB_KEY);
  return TABS.includes(stored as TLabTab) ? (stored as TLabTab) : 'Active';
}

function messageOf(error: unknown): string {
  if (error instanceof ApiError) {
    const body = error.body as { errorDescription?: unknown } | null;
    if (body && typeof body.errorDescription === 'string') return body.errorDescription;
  }
  return 'The tests could not be loaded. Please try again.';
}

/** spec-lab §2/§4: a signed-off test links to its report, in a new tab. */
function ReportStatusCell({ row }: { row: TRisRow }) {
  return (
    <LabReportStatusChip
      status={row.statusOfReport}
      studyInstanceUid={row.studyInstanceId}
      reportStatusId={row.reportStatusId}
      linkLabel={`Open the report of ${row.testName} (${row.invoiceNumber})`}
    />
  );
}

/**
 * /lab/lab-bill-test (spec-lab §2 test level report list, issue 25 §5): every billed test of the lab
 * with its report status (PENDING until images or a created study link to the line), by tab, bill
 * date, modality and report status.
 */
export function LabBillTestPage() {
  const { flags } = useSignedInSession();
  const [tab, setTab] = useState<TLabTab>(rememberedTab);
  const [startTime, setStartTime] = useState('');
  const [endTime, setEndTime] = useState('');
  const [modality, setModality] = useState<TLabModality | ''>('');
  const [status, setStatus] = useState<TLabReportStatus | ''>('');
  const [page, setPage] = useState(0);
  const [size, setSize] = useState(PAGE_SIZES[0]!);
  const request: TLabBillTestSearchRequest = {
    ...TAB_FLAGS[tab],
    startTime: startTime || null,
    endTime: endTime || null,
    modality: modality || null,
    statuses: status ? [status] : [],
    page,
    size,
  };
  const query = useQuery({
    queryKey: ['lab-bill-test', request],
    queryFn: ({ signal }) => searchLabBillTests(request, signal),
    placeholderData: keepPreviousData,
  });
  const filter =
    <T,>(set: (value: T) => void) =>
    (value: T) => {
      set(value);
      setPage(0);
    };
  const rows = query.data?.content ?? [];

  return (
    <Box component="section">
      <PageHeader title="Test level Dashboard" />
      <Tabs
        value={tab}
        onChange={(_, value: TLabTab) => {
          localStorage.setItem(TAB_KEY, value);
          filter(setTab)(value);
        }}
        aria-label="Bill status tabs"
        sx={{ mb: 1 }}
      >
        {TABS.map((name) => (
          <Tab key={name} value={name} label={name} />
        ))}
      </Tabs>
      <Paper variant="outlined" sx={{ p: 1.5, mb: 2 }}>
        <Box
          role="search"
          aria-label="Test filters"
          sx={{ display: 'flex', gap: 1.5, flexWrap: 'wrap', alignItems: 'center' }}
        >
          <TextField
            label="Start date"
            type="date"
            value={startTime}
            onChange={(e) => filter(setStartTime)(e.target.value)}
            slotProps={{ inputLabel: { shrink: true } }}
          />
          <TextField
            label="End date"
            type="date"
            value={endTime}
            onChange={(e) => filter(setEndTime)(e.target.value)}
            slotProps={{ inputLabel: { shrink: true } }}
          />
          <AllOrOneSelect
            label="Modality"
            value={modality}
            options={ALL_LAB_MODALITIES}
            onChange={filter(setModality)}
            minWidth={130}
          />
          <AllOrOneSelect
            label="Report status"
            value={status}
            options={LAB_REPORT_STATUSES}
            onChange={filter(setStatus)}
            minWidth={160}
          />
        </Box>
      </Paper>
      <Box sx={{ height: 2 }}>{query.isFetching && <LinearProgress sx={{ height: 2 }} />}</Box>
      {query.isError && <Alert severity="error">{messageOf(query.error)}</Alert>}
      <TableContainer component={Paper} variant="outlined">
        <Table size="small" aria-label="Billed tests">
          <TableHead>
            <TableRow>
              <TableCell>Invoice No.</TableCell>
              <TableCell>Bill date</TableCell>
              <TableCell>UHID</TableCell>
              <TableCell>Patient</TableCell>
              <TableCell>Test</TableCell>
              <TableCell>Modality</TableCell>
              <TableCell>Referring doctor</TableCell>
              <TableCell>Bill status</TableCell>
              <TableCell>Report status</TableCell>
              <TableCell align="right">Due (₹)</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {query.isSuccess && rows.length === 0 && (
              <TableRow>
                <TableCell colSpan={10} align="center" data-testid="lab-bill-test-empty">
                  No tests found for these filters.
                </TableCell>
              </TableRow>
            )}
            {rows.map((row) => (
              <TableRow key={row.id} data-testid={`lab-bill-test-row-${row.id}`}>
                <TableCell>{row.invoiceNumber}</TableCell>
                <TableCell>
                  {formatDisplayTime(row.billDate, flags.displayTimeZone, { label: false })}
                </TableCell>
                <TableCell>{row.patient.uhidNumber}</TableCell>
                <TableCell>{row.patient.name}</TableCell>
                <TableCell>
                  {row.testCode}: {row.testName}
                </TableCell>
                <TableCell>{row.labModality}</TableCell>
                <TableCell>{row.referringDoctor?.name ?? ''}</TableCell>
                <TableCell>{row.labBillingStatus}</TableCell>
                <TableCell>
                  <ReportStatusCell row={row} />
                  <PrintLabReport row={row} />
                </TableCell>
                <TableCell align="right">{row.dueAmount.toFixed(2)}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </TableContainer>
      {query.data && query.data.totalElements > 0 && (
        <TablePagination
          component="div"
          count={query.data.totalElements}
          page={page}
          onPageChange={(_, p) => setPage(p)}
          rowsPerPage={size}
          rowsPerPageOptions={PAGE_SIZES}
          labelRowsPerPage="Tests per page"
          onRowsPerPageChange={(e) => filter(setSize)(Number(e.target.value))}
        />
      )}
    </Box>
  );
}

export default LabBillTestPage;
