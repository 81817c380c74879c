import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { formatDicomText, formatPersonName } from '@radflow/core';
import { AcknowledgeButton } from './AcknowledgeButton';
import {
  criticalResultRaisedText,
  criticalResultStatusText,
  criticalResultTitle,
} from './critical-result-text';
import { useOpenCriticalResults } from './critical-results-api';

/**
 * The open critical results the signed-in user must acknowledge (the center's staff, the referring
 * doctor, the group admins after escalation), each with 'Acknowledge'; nothing when there are none.
 */
export function OpenCriticalResultsBanner() {
  const mine = useOpenCriticalResults().filter((r) => r.canAcknowledge);
  if (mine.length === 0) return null;
  return (
    <Stack spacing={1} sx={{ mb: 2 }} role="region" aria-label="Open critical results">
      {mine.map((r) => (
        <Alert key={r.id} severity="error" variant="filled" action={<AcknowledgeButton result={r} />}>
          <AlertTitle>
            Critical result · study {r.entityId} · {formatPersonName(r.patientName)}
            {r.studyName ? ` · ${formatDicomText(r.studyName)}` : ''}
          </AlertTitle>
          <Typography variant="body2" sx={{ whiteSpace: 'pre-wrap' }}>
            {criticalResultTitle(r)}
          </Typography>
          <Typography variant="caption">
            {criticalResultRaisedText(r)} · {criticalResultStatusText(r)}
          </Typography>
        </Alert>
      ))}
    </Stack>
  );
}
