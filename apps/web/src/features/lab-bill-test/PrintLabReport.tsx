import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import { REPORT_DOWNLOAD_OPTIONS, type TReportDownloadOption, type TRisRow } from '@radflow/core';
import { useId, useState } from 'react';
import { ApiError } from '../../api/client';
import { useSnackbar } from '../../components/feedback/feedback-context';
import { useSignedInSession } from '../auth/session';
import { fetchReportDocument } from '../report-documents/report-documents.api';
import { printPdf } from '../report-documents/print-report';

export const SELECT_REPORT_TITLE = 'Select report to print';
export const WITH_HEADER_LABEL = 'With header';
export const WITHOUT_HEADER_LABEL = 'Without header';

const PRINT = REPORT_DOWNLOAD_OPTIONS.find((o) => o.key === 'PRINT')!;
/** spec-core §9 Print, with the center's header and footer images or without them. */
const printOption = (withHeader: boolean): TReportDownloadOption => ({ ...PRINT, showTemplate: withHeader });

/**
 * Print a billed test's signed-off report from the lab (spec-lab §2 dialogs 'select report to
 * print', §6 enableDirectHeaderReportPrint): the dialog asks with or without the header; under the
 * group switch the report prints with the header at once. Prints record the print as the study
 * list's Print does (printed_at, Reprint Needed cleared).
 */
export function PrintLabReport({ row }: { row: TRisRow }) {
  const { flags } = useSignedInSession();
  const { showError } = useSnackbar();
  const [choosing, setChoosing] = useState(false);
  const [busy, setBusy] = useState(false);
  const titleId = useId();
  const { studyInstanceId, reportStatusId } = row;
  if (row.statusOfReport !== 'SIGNED_OFF' || !studyInstanceId || reportStatusId === null) return null;

  const print = async (withHeader: boolean) => {
    setChoosing(false);
    setBusy(true);
    try {
      const { blob } = await fetchReportDocument(printOption(withHeader), {
        id: reportStatusId,
        instanceId: studyInstanceId,
        patientName: row.patient.name,
        studyName: row.testName,
      });
      printPdf(blob);
    } catch (error) {
      showError(error instanceof ApiError ? error.message : 'The report could not be printed.');
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <Button
        size="small"
        disabled={busy}
        onClick={() => (flags.enableDirectHeaderReportPrint ? void print(true) : setChoosing(true))}
        aria-label={`Print the report of ${row.testName} (${row.invoiceNumber})`}
      >
        Print report
      </Button>
      <Dialog open={choosing} onClose={() => setChoosing(false)} aria-labelledby={titleId}>
        <DialogTitle id={titleId}>{SELECT_REPORT_TITLE}</DialogTitle>
        <DialogContent>
          <Stack direction="row" spacing={1.5} sx={{ pt: 1 }}>
            <Button variant="contained" onClick={() => void print(true)}>
              {WITH_HEADER_LABEL}
            </Button>
            <Button variant="outlined" onClick={() => void print(false)}>
              {WITHOUT_HEADER_LABEL}
            </Button>
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button color="inherit" onClick={() => setChoosing(false)}>
            Cancel
          </Button>
        </DialogActions>
      </Dialog>
    </>
  );
}
