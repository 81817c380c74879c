import EditIcon from '@mui/icons-material/EditOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Switch from '@mui/material/Switch';
import Tab from '@mui/material/Tab';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Tabs from '@mui/material/Tabs';
import TextField from '@mui/material/TextField';
import {
  ALL_LAB_MODALITIES,
  LAB_TEST_MESSAGES as M,
  LAB_TEST_TABS,
  isLabAdmin,
  type TLabTest,
  type TLabTestSearch,
  type TLabTestTab,
} from '@radflow/core';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { PageHeader } from '../../components/PageHeader';
import { EmptyTableRow, PagedTablePagination } from '../../components/table/TableParts';
import { useFeedback } from '../../components/feedback/feedback-context';
import { useSignedInSession } from '../auth/session';
import { DateRangeFilter } from '../worklist/DateRangeFilter';
import { localStore } from '../worklist/browser-storage';
import { LAB_TESTS_QUERY_KEY, failureText, searchLabTests, updateLabTest } from './lab-tests.api';
import { TestAttributesDialog } from './TestAttributesDialog';
import { TestDialog } from './TestDialog';
import { UploadCsvDialog } from './UploadCsvDialog';

export const LAB_TEST_PAGE_LABELS = {
  title: 'Lab Test',
  create: 'Create Test',
  upload: 'Upload Test CSV',
  attributes: 'Test Attributes',
  modalityFilter: 'Modality',
  editTest: 'Edit Test',
} as const;

const TAB_KEY = 'labTestTab';
const readTab = (): TLabTestTab => {
  const stored = localStore()?.getItem(TAB_KEY);
  return LAB_TEST_TABS.find((t) => t === stored) ?? 'Active';
};

/** A local yyyy-MM-dd day as the instant it starts (the range's end is the next day's start). */
const dayStart = (day: string, plusDays = 0) => {
  const d = new Date(`${day}T00:00:00`);
  d.setDate(d.getDate() + plusDays);
  return d.toISOString();
};

const rupees = (n: number) => `₹${n.toFixed(2)}`;

type TDialog =
  { kind: 'create' } | { kind: 'edit'; test: TLabTest } | { kind: 'upload' } | { kind: 'attributes' };

/**
 * /lab/test — the test dashboard (spec-lab §2): Active / Scheduled / All (remembered), a range by
 * the test's added date, the columns of the spec with a modality filter, the active toggle and Edit
 * Test; the supervisor also creates, uploads a CSV and edits the film size and contrast lists.
 */
export function LabTestPage() {
  const { roles, flags, preferences } = useSignedInSession();
  const admin = isLabAdmin(roles);
  const { confirm, startLoading, showInfo, showError } = useFeedback();
  const queryClient = useQueryClient();
  const [tab, setTab] = useState<TLabTestTab>(readTab);
  const [range, setRange] = useState<{ startTime?: string; endTime?: string }>({});
  const [modalities, setModalities] = useState<string[]>([]);
  const [page, setPage] = useState(0);
  const [size, setSize] = useState(20);
  const [dialog, setDialog] = useState<TDialog | null>(null);

  const search: TLabTestSearch = {
    tab,
    ...(range.startTime ? { startTime: dayStart(range.startTime) } : {}),
    ...(range.endTime ? { endTime: dayStart(range.endTime, 1) } : {}),
    labModalities: modalities as TLabTestSearch['labModalities'],
    page,
    size,
  };
  const list = useQuery({
    queryKey: [...LAB_TESTS_QUERY_KEY, 'search', search],
    queryFn: ({ signal }) => searchLabTests(search, signal),
    placeholderData: keepPreviousData,
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: LAB_TESTS_QUERY_KEY });
  const dialogContext = {
    showExtraModalityType: flags.showExtraModalityType,
    labDepartmentList: preferences.LAB_DEPARTMENTS.labDepartmentList,
  };

  async function toggle(test: TLabTest) {
    const ok = await confirm({ message: test.active ? M.deactivateConfirm : M.activateConfirm });
    if (!ok) return;
    const stop = startLoading(M.updating);
    try {
      await updateLabTest({ ...test, active: !test.active });
      showInfo(M.updated);
      await refresh();
    } catch (error) {
      showError(failureText(error));
    } finally {
      stop();
    }
  }

  const rows = list.data?.content ?? [];
  return (
    <Box sx={{ p: 2 }}>
      <PageHeader
        title={LAB_TEST_PAGE_LABELS.title}
        actions={
          admin && (
            <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
              <Button variant="contained" onClick={() => setDialog({ kind: 'create' })}>
                {LAB_TEST_PAGE_LABELS.create}
              </Button>
              <Button variant="outlined" onClick={() => setDialog({ kind: 'upload' })}>
                {LAB_TEST_PAGE_LABELS.upload}
              </Button>
              <Button variant="outlined" onClick={() => setDialog({ kind: 'attributes' })}>
                {LAB_TEST_PAGE_LABELS.attributes}
              </Button>
            </Box>
          )
        }
      />
      <Box sx={{ display: 'flex', gap: 2, alignItems: 'center', flexWrap: 'wrap', mb: 1 }}>
        <Tabs
          value={tab}
          onChange={(_, next: TLabTestTab) => {
            setTab(next);
            setPage(0);
            localStore()?.setItem(TAB_KEY, next);
          }}
        >
          {LAB_TEST_TABS.map((t) => (
            <Tab key={t} value={t} label={t} />
          ))}
        </Tabs>
        <DateRangeFilter
          startTime={range.startTime}
          endTime={range.endTime}
          onChange={(next) => {
            setRange((r) => ({ ...r, ...next }));
            setPage(0);
          }}
        />
      </Box>
      <Paper variant="outlined">
        {list.isFetching && <LinearProgress />}
        <TableContainer>
          <Table size="small" aria-label="Lab tests">
            <TableHead>
              <TableRow>
                <TableCell>ID</TableCell>
                <TableCell>Test Code</TableCell>
                <TableCell>Test Name</TableCell>
                <TableCell>Department</TableCell>
                <TableCell>
                  <TextField
                    select
                    size="small"
                    label={LAB_TEST_PAGE_LABELS.modalityFilter}
                    value={modalities}
                    slotProps={{ select: { multiple: true } }}
                    onChange={(e) => {
                      const v = e.target.value as unknown as string[] | string;
                      setModalities(typeof v === 'string' ? v.split(',') : v);
                      setPage(0);
                    }}
                    sx={{ minWidth: 130 }}
                  >
                    {ALL_LAB_MODALITIES.map((m) => (
                      <MenuItem key={m} value={m}>
                        {m}
                      </MenuItem>
                    ))}
                  </TextField>
                </TableCell>
                <TableCell>Active</TableCell>
                <TableCell align="right">Price</TableCell>
                <TableCell>{LAB_TEST_PAGE_LABELS.editTest}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {rows.map((test) => (
                <TableRow key={test.id} data-testid={`lab-test-${test.id}`}>
                  <TableCell>{test.id}</TableCell>
                  <TableCell>{test.testCode}</TableCell>
                  <TableCell>
                    {test.testName}
                    {test.testType === 'PACKAGE' ? ` (package of ${test.labTestsIds.length})` : ''}
                  </TableCell>
                  <TableCell>{test.department}</TableCell>
                  <TableCell>{test.labModality}</TableCell>
                  <TableCell>
                    <Switch
                      checked={test.active}
                      disabled={!admin}
                      slotProps={{ input: { 'aria-label': `Active ${test.testCode}` } }}
                      onChange={() => void toggle(test)}
                    />
                  </TableCell>
                  <TableCell align="right">{rupees(test.price)}</TableCell>
                  <TableCell>
                    {admin && (
                      <Button
                        size="small"
                        startIcon={<EditIcon />}
                        aria-label={`${LAB_TEST_PAGE_LABELS.editTest} ${test.testCode}`}
                        onClick={() => setDialog({ kind: 'edit', test })}
                      >
                        {LAB_TEST_PAGE_LABELS.editTest}
                      </Button>
                    )}
                  </TableCell>
                </TableRow>
              ))}
              {list.isSuccess && rows.length === 0 && <EmptyTableRow colSpan={8} />}
            </TableBody>
          </Table>
        </TableContainer>
        <PagedTablePagination
          count={list.data?.totalElements ?? 0}
          page={page}
          size={size}
          onPageChange={setPage}
          onSizeChange={setSize}
        />
      </Paper>
      {(dialog?.kind === 'create' || dialog?.kind === 'edit') && (
        <TestDialog
          test={dialog.kind === 'edit' ? dialog.test : null}
          {...dialogContext}
          onClose={() => setDialog(null)}
          onSaved={() => {
            setDialog(null);
            void refresh();
          }}
        />
      )}
      {dialog?.kind === 'upload' && (
        <UploadCsvDialog
          showExtraModalityType={flags.showExtraModalityType}
          onClose={() => setDialog(null)}
          onSaved={() => void refresh()}
        />
      )}
      {dialog?.kind === 'attributes' && (
        <TestAttributesDialog
          showExtraModalityType={flags.showExtraModalityType}
          onClose={() => setDialog(null)}
        />
      )}
    </Box>
  );
}
