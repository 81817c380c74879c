import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Typography from '@mui/material/Typography';
import type { TBill, TBillLine } from '@radflow/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Suspense, useState } from 'react';
import { STUDIES_QUERY_KEY, createStudy } from '../../api/archive';
import { ApiError } from '../../api/client';
import { useSnackbar } from '../../components/feedback/feedback-context';
import { openWhenLoaded, preloadable } from '../../lib/preloadable';
import { useSignedInSession } from '../auth/session';
import { STUDY_CREATED, modalityOptions, validateCreateStudy } from '../create-study/create-study-form';
import { BILL_QUERY_KEY } from './bill-api';
import { canCreateStudyForLine, createStudyFormOfLine } from './bill-line-study';

const CreateStudyDialog = preloadable(() => import('../create-study/CreateStudyDialog'));

const errorText = (error: unknown) =>
  error instanceof ApiError ? error.message : 'The study could not be created. Please try again.';

/**
 * The studies of a saved bill's tests (issue 25 §6): a line linked to its study says so (made here,
 * or by images that came with its accession number); a line without one offers Create Study, the
 * dialog filled from the bill, the study made for that line. Under the group switch
 * createPatientInRisWithoutShowingDialog the study is made at once from the bill, without the
 * dialog — unless the bill lacks something the study needs (an age, a modality Create Study does
 * not offer), which the dialog then asks for.
 */
export function BillLineStudies({
  bill,
  centerId,
  withoutDialog,
}: {
  bill: TBill;
  /** The lab's center: the studies' center. */
  centerId: number;
  withoutDialog: boolean;
}) {
  const queryClient = useQueryClient();
  const { showInfo, showError } = useSnackbar();
  const modalities = modalityOptions(useSignedInSession().flags.showExtraModalityType);
  const [dialogFor, setDialogFor] = useState<TBillLine | null>(null);
  const create = useMutation({ mutationFn: createStudy });
  const lines = bill.labBillTests.filter((l) => l.studyId !== null || canCreateStudyForLine(bill, l));
  if (lines.length === 0) return null;

  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: BILL_QUERY_KEY(bill.id) });
    void queryClient.invalidateQueries({ queryKey: STUDIES_QUERY_KEY });
  };
  const link = (line: TBillLine) => ({ labBillTestId: line.id, invoiceNumber: bill.invoiceNumber });

  const start = (line: TBillLine) => {
    const form = createStudyFormOfLine(bill, line, centerId, modalities);
    const checked = withoutDialog ? validateCreateStudy(form) : null;
    if (!checked?.ok) {
      openWhenLoaded(CreateStudyDialog, () => setDialogFor(line));
      return;
    }
    create.mutate(
      { ...checked.request, ...link(line) },
      {
        onSuccess: () => {
          refresh();
          showInfo(STUDY_CREATED);
        },
        onError: (error) => showError(errorText(error)),
      },
    );
  };

  return (
    <Box component="section" aria-label="Studies of the tests" sx={{ mb: 2 }}>
      <Typography variant="subtitle2" sx={{ mb: 1 }}>
        Studies
      </Typography>
      <Box component="ul" sx={{ listStyle: 'none', p: 0, m: 0, display: 'grid', gap: 1 }}>
        {lines.map((line) => (
          <Box
            component="li"
            key={line.id}
            data-testid={`bill-line-study-${line.testCode}`}
            sx={{ display: 'flex', gap: 1.5, alignItems: 'center', flexWrap: 'wrap' }}
          >
            <Typography variant="body2" sx={{ minWidth: 220 }}>
              {line.testCode}: {line.testName} ({line.labModality})
            </Typography>
            {line.studyId !== null ? (
              <Chip
                size="small"
                color="success"
                label={line.uploadedThroughWorkList ? 'Images received (worklist)' : 'Study created'}
              />
            ) : (
              <Button
                size="small"
                variant="outlined"
                disabled={create.isPending}
                onClick={() => start(line)}
                aria-label={`Create Study for ${line.testCode}`}
              >
                Create Study
              </Button>
            )}
            <Typography variant="caption" color="text.secondary">
              Accession {line.accessionNumber}
            </Typography>
          </Box>
        ))}
      </Box>
      {dialogFor && (
        <Suspense fallback={null}>
          <CreateStudyDialog
            open
            onClose={() => setDialogFor(null)}
            fromBill={{
              form: createStudyFormOfLine(bill, dialogFor, centerId, modalities),
              link: link(dialogFor),
              onCreated: refresh,
            }}
          />
        </Suspense>
      )}
    </Box>
  );
}
