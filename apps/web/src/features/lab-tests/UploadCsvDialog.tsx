import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import {
  LAB_TEST_CSV_INTERVAL_MS,
  LAB_TEST_CSV_MESSAGES,
  LAB_TEST_CSV_SAMPLE,
  csvDataRows,
  labTestFromCsvRow,
} from '@radflow/core';
import { useEffect, useRef, useState } from 'react';
import { useSnackbar } from '../../components/feedback/feedback-context';
import { createLabTest, failureText } from './lab-tests.api';

export const UPLOAD_CSV_LABELS = {
  title: 'Upload Test CSV',
  file: 'CSV file',
  upload: 'Upload',
  close: 'Close',
  sample: 'Download sample CSV',
} as const;

type TRowStatus = 'Pending' | 'Saved' | 'Failed';
interface TRow {
  line: number;
  cells: string[];
  status: TRowStatus;
  reason: string | null;
}

const SAMPLE_HREF = `data:text/csv;charset=utf-8,${encodeURIComponent(LAB_TEST_CSV_SAMPLE)}`;
const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Upload Test CSV (spec-lab §5 CSV, §9): the file's rows (header skipped) are listed Pending, then
 * sent one at a time 300 ms apart, each ending Saved or Failed with its reason (a row that is no test
 * fails without being sent).
 */
export function UploadCsvDialog(props: { showExtraModalityType: boolean; onClose(): void; onSaved(): void }) {
  const { showError } = useSnackbar();
  const [file, setFile] = useState<File | null>(null);
  const [rows, setRows] = useState<TRow[]>([]);
  const [problem, setProblem] = useState<string | null>(null);
  const [running, setRunning] = useState(false);
  const closed = useRef(false);
  useEffect(
    () => () => {
      closed.current = true;
    },
    [],
  );

  const mark = (index: number, status: TRowStatus, reason: string | null) =>
    setRows((all) => all.map((r, i) => (i === index ? { ...r, status, reason } : r)));

  async function upload() {
    if (!file) {
      setProblem(LAB_TEST_CSV_MESSAGES.noFile);
      return;
    }
    let data: string[][];
    try {
      data = csvDataRows(await file.text());
    } catch {
      showError(LAB_TEST_CSV_MESSAGES.parseError);
      return;
    }
    const listed = data.map((cells, i) => ({ line: i + 2, cells, status: 'Pending' as const, reason: null }));
    setRows(listed);
    setRunning(true);
    let saved = 0;
    for (const [index, row] of listed.entries()) {
      if (closed.current) return;
      if (index > 0) await wait(LAB_TEST_CSV_INTERVAL_MS);
      const parsed = labTestFromCsvRow(row.cells, { showExtraModalityType: props.showExtraModalityType });
      if (!parsed.ok) {
        mark(index, 'Failed', parsed.reason);
        continue;
      }
      try {
        await createLabTest(parsed.test);
        saved += 1;
        mark(index, 'Saved', null);
      } catch (error) {
        mark(index, 'Failed', failureText(error));
      }
    }
    setRunning(false);
    if (saved > 0) props.onSaved();
  }

  return (
    <Dialog open onClose={running ? undefined : props.onClose} fullWidth maxWidth="md">
      <DialogTitle>{UPLOAD_CSV_LABELS.title}</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ mt: 1 }}>
          <Typography variant="body2">
            Columns: test code, name, price, type (NORMAL, else PACKAGE), modality. The first row is a header
            and is skipped; the department is Radiology.{' '}
            <Link href={SAMPLE_HREF} download="lab-tests-sample.csv">
              {UPLOAD_CSV_LABELS.sample}
            </Link>
          </Typography>
          <input
            type="file"
            accept=".csv,text/csv"
            aria-label={UPLOAD_CSV_LABELS.file}
            disabled={running}
            onChange={(e) => {
              setFile(e.target.files?.[0] ?? null);
              setProblem(null);
              setRows([]);
            }}
          />
          {problem && <Typography color="error">{problem}</Typography>}
          {rows.length > 0 && (
            <Table size="small" aria-label="CSV rows">
              <TableHead>
                <TableRow>
                  <TableCell>Line</TableCell>
                  <TableCell>Test code</TableCell>
                  <TableCell>Test name</TableCell>
                  <TableCell>Status</TableCell>
                  <TableCell>Reason</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {rows.map((r) => (
                  <TableRow key={r.line} data-testid={`csv-row-${r.line}`}>
                    <TableCell>{r.line}</TableCell>
                    <TableCell>{r.cells[0]}</TableCell>
                    <TableCell>{r.cells[1]}</TableCell>
                    <TableCell>
                      <Chip
                        size="small"
                        label={r.status}
                        color={r.status === 'Saved' ? 'success' : r.status === 'Failed' ? 'error' : 'default'}
                      />
                    </TableCell>
                    <TableCell>{r.reason}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          )}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={props.onClose} disabled={running}>
          {UPLOAD_CSV_LABELS.close}
        </Button>
        <Button variant="contained" onClick={() => void upload()} disabled={running}>
          {UPLOAD_CSV_LABELS.upload}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
