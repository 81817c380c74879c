import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Paper from '@mui/material/Paper';
import Tab from '@mui/material/Tab';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Tabs from '@mui/material/Tabs';
import {
  ALL_LAB_MODALITIES,
  BILL_MESSAGES,
  LAB_REPORT_STATUSES,
  LAB_TABS,
  printOptionsOf,
  type TBill,
  type TBillListRow,
  type TLabReportStatus,
  type TLabTab,
} from '@radflow/core';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { ApiError } from '../../api/client';
import { useFeedback } from '../../components/feedback/feedback-context';
import { AllOrOneSelect } from '../../components/table/AllOrOneSelect';
import { EmptyTableRow, PagedTablePagination } from '../../components/table/TableParts';
import { formatTimestamp } from '../../lib/format';
import { LabReportStatusChip } from '../lab-bill-test/LabReportStatusChip';
import { DateRangeFilter } from '../worklist/DateRangeFilter';
import { BILL_LIST_QUERY_KEY, fetchBill, searchBills, undoCancelBill } from './bill-api';
import { useBillPrintChooser } from './bill-print';
import { CancelBillDialog } from './CancelBillDialog';
import { PaymentDialog, canAddAmount } from './PaymentDialog';

/** Where the chosen tab is remembered (spec-lab §2 "The chosen tab is remembered"). */
export const BILLING_TAB_STORAGE_KEY = 'radflow.lab.billingTab';
export const CREATE_BILL_LABEL = 'Create Bill';
const TAB_NAMES = Object.keys(LAB_TABS) as TLabTab[];
type TLabModality = (typeof ALL_LAB_MODALITIES)[number];

export const BILLING_COLUMNS = [
  'Status',
  'Invoice No.',
  'Patient Id',
  'Patient Name',
  'Mobile',
  'Referring Doctor',
  'Tests',
  'Modality',
  'Categories',
  'Priorities',
  'Report Status',
  'Total',
  'Due (₹)',
  'Bill Date',
  'Created At',
] as const;

function rememberedTab(): TLabTab {
  const stored = localStorage.getItem(BILLING_TAB_STORAGE_KEY);
  return TAB_NAMES.includes(stored as TLabTab) ? (stored as TLabTab) : 'Active';
}

/**
 * The lab billing list (spec-lab §2): tabs Active / Scheduled / All (remembered), a bill-date range,
 * every column, the row actions (edit, pay, cancel or undo cancel, print) and Create Bill; POST
 * /api/lab/bill/search. Exported for /lab/registration, where it sits beside the patient finder.
 * Print reads the bill (its lines say whether it has an appointment) and offers lab-summary's
 * print-option chooser, as the bill screen does after a save.
 */
export function BillingList() {
  const [tab, setTab] = useState<TLabTab>(rememberedTab);
  const [range, setRange] = useState<{ startTime?: string; endTime?: string }>({});
  const [modality, setModality] = useState<TLabModality | ''>('');
  const [reportStatus, setReportStatus] = useState<TLabReportStatus | ''>('');
  const [page, setPage] = useState(0);
  const [size, setSize] = useState(20);
  const [cancelling, setCancelling] = useState<TBillListRow | null>(null);
  const [paying, setPaying] = useState<TBill | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const feedback = useFeedback();
  const queryClient = useQueryClient();
  const printChooser = useBillPrintChooser();
  const body = {
    labBillingStatuses: [...LAB_TABS[tab]],
    startTime: range.startTime || null,
    endTime: range.endTime || null,
    testModality: modality || null,
    labReportStatuses: reportStatus ? [reportStatus] : [],
    page,
    size,
  };
  const query = useQuery({
    queryKey: [...BILL_LIST_QUERY_KEY, body],
    queryFn: ({ signal }) => searchBills(body, signal),
    placeholderData: keepPreviousData,
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: BILL_LIST_QUERY_KEY });
  const rows = query.data?.content ?? [];

  const chooseTab = (next: TLabTab) => {
    localStorage.setItem(BILLING_TAB_STORAGE_KEY, next);
    setTab(next);
    setPage(0);
  };
  const pay = async (row: TBillListRow) => {
    setProblem(null);
    try {
      setPaying(await fetchBill(row.id));
    } catch {
      // The client has shown the failure.
    }
  };
  const print = async (row: TBillListRow) => {
    try {
      const bill = await fetchBill(row.id);
      await printChooser.choose(bill.id, printOptionsOf(bill.labBillTests));
    } catch {
      // The client has shown the failure.
    }
  };
  const undo = async (row: TBillListRow) => {
    if (!(await feedback.confirm({ message: BILL_MESSAGES.undoCancelConfirm }))) return;
    try {
      await undoCancelBill(row.id);
      feedback.showInfo(`Bill ${row.invoiceNumber} restored`);
      void refresh();
    } catch (error) {
      setProblem(error instanceof ApiError ? error.message : String(error));
    }
  };

  return (
    <Box component="section" aria-label="Lab billing list">
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, flexWrap: 'wrap', mb: 1 }}>
        <Tabs value={tab} onChange={(_, next: TLabTab) => chooseTab(next)} aria-label="Bill status tabs">
          {TAB_NAMES.map((name) => (
            <Tab key={name} value={name} label={name} />
          ))}
        </Tabs>
        <Box sx={{ flex: 1 }} />
        <DateRangeFilter
          startTime={range.startTime}
          endTime={range.endTime}
          onChange={(next) => {
            setRange((r) => ({ ...r, ...next }));
            setPage(0);
          }}
        />
        <AllOrOneSelect
          size="small"
          label="Modality"
          value={modality}
          options={ALL_LAB_MODALITIES}
          onChange={(next) => {
            setModality(next);
            setPage(0);
          }}
          minWidth={120}
        />
        <AllOrOneSelect
          size="small"
          label="Report status"
          value={reportStatus}
          options={LAB_REPORT_STATUSES}
          onChange={(next) => {
            setReportStatus(next);
            setPage(0);
          }}
          minWidth={150}
        />
        <Button variant="contained" component={RouterLink} to="/lab/create-bill">
          {CREATE_BILL_LABEL}
        </Button>
      </Box>
      {problem && (
        <Alert severity="error" sx={{ mb: 1 }} onClose={() => setProblem(null)}>
          {problem}
        </Alert>
      )}
      <TableContainer component={Paper}>
        <Table size="small" aria-label="Bills">
          <TableHead>
            <TableRow>
              {BILLING_COLUMNS.map((c) => (
                <TableCell key={c}>{c}</TableCell>
              ))}
            </TableRow>
          </TableHead>
          <TableBody>
            {query.isSuccess && rows.length === 0 && <EmptyTableRow colSpan={BILLING_COLUMNS.length} />}
            {rows.map((row) => (
              <TableRow key={row.id} data-testid={`bill-row-${row.id}`}>
                <TableCell>
                  <Chip
                    size="small"
                    label={row.status}
                    color={row.status === 'CANCELLED' ? 'default' : 'primary'}
                  />
                  <Box sx={{ display: 'flex', gap: 0.5, mt: 0.5, flexWrap: 'wrap' }}>
                    <Button
                      size="small"
                      component={RouterLink}
                      to={`/lab/create-bill/${row.id}`}
                      aria-label={`Edit bill ${row.invoiceNumber}`}
                    >
                      Edit
                    </Button>
                    {canAddAmount(row) && (
                      <Button
                        size="small"
                        onClick={() => void pay(row)}
                        aria-label={`Add amount to ${row.invoiceNumber}`}
                      >
                        Pay
                      </Button>
                    )}
                    {row.status === 'CANCELLED' ? (
                      <Button
                        size="small"
                        onClick={() => void undo(row)}
                        aria-label={`Undo cancel ${row.invoiceNumber}`}
                      >
                        Undo Cancel
                      </Button>
                    ) : (
                      <Button
                        size="small"
                        color="error"
                        onClick={() => setCancelling(row)}
                        aria-label={`Cancel bill ${row.invoiceNumber}`}
                      >
                        Cancel
                      </Button>
                    )}
                    <Button
                      size="small"
                      onClick={() => void print(row)}
                      aria-label={`Print bill ${row.invoiceNumber}`}
                    >
                      Print
                    </Button>
                  </Box>
                </TableCell>
                <TableCell>{row.invoiceNumber}</TableCell>
                <TableCell>{row.uhidNumber}</TableCell>
                <TableCell>{row.patientName}</TableCell>
                <TableCell>{row.mobileNumber ?? '—'}</TableCell>
                <TableCell>{row.referringDoctorName ?? '—'}</TableCell>
                <TableCell>
                  {row.tests.map((t) => (
                    <div key={t}>{t}</div>
                  ))}
                </TableCell>
                <TableCell>{row.modalities.join(', ')}</TableCell>
                <TableCell>{row.categories.join(', ') || '—'}</TableCell>
                <TableCell>{row.priorities.join(', ') || '—'}</TableCell>
                <TableCell>
                  <Box sx={{ display: 'flex', flexDirection: 'column', gap: 0.5, alignItems: 'flex-start' }}>
                    {row.reportStatuses.map((r, i) => (
                      <LabReportStatusChip
                        key={`${r.testCode}-${i}`}
                        status={r.status}
                        studyInstanceUid={r.studyInstanceUid}
                        reportStatusId={r.reportStatusId}
                        label={`${r.testCode}: ${r.status}`}
                        linkLabel={`Open the report of ${r.testCode} (${row.invoiceNumber})`}
                      />
                    ))}
                  </Box>
                </TableCell>
                <TableCell>₹{row.finalAmount}</TableCell>
                <TableCell data-testid={`bill-due-${row.id}`}>{row.dueAmount}</TableCell>
                <TableCell>{formatTimestamp(row.billDate, { label: false })}</TableCell>
                <TableCell>{formatTimestamp(row.createdAt, { label: false })}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </TableContainer>
      <PagedTablePagination
        count={query.data?.totalElements ?? 0}
        page={page}
        size={size}
        onPageChange={setPage}
        onSizeChange={setSize}
      />
      {cancelling && (
        <CancelBillDialog
          bill={cancelling}
          onClose={() => setCancelling(null)}
          onCancelled={(bill) => {
            setCancelling(null);
            feedback.showInfo(`Bill ${bill.invoiceNumber} cancelled`);
            void refresh();
          }}
        />
      )}
      {paying && (
        <PaymentDialog
          bill={paying}
          onClose={() => setPaying(null)}
          onPaid={(bill) => {
            setPaying(bill);
            void refresh();
          }}
        />
      )}
      {printChooser.dialog}
    </Box>
  );
}
