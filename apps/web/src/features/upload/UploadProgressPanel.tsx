import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import LinearProgress from '@mui/material/LinearProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { RETRY_TRIES } from '@radflow/core';
import {
  type TRefusedSummary,
  describeNoted,
  describeRefused,
  formatBytes,
  uploadedText,
} from './upload-batches';
import type { TUploadOutcome } from './upload-files';
import type { TUploadState } from './useUpload';

function FileSummary({
  summary,
  severity,
}: {
  summary: TRefusedSummary | null;
  severity: 'warning' | 'info';
}) {
  if (!summary) return null;
  return (
    <Alert severity={severity}>
      {summary.heading}
      <Box component="ul" sx={{ m: 0, pl: 2, maxHeight: '30vh', overflowY: 'auto' }}>
        {summary.lines.map((line, i) => (
          <li key={i}>{line}</li>
        ))}
      </Box>
    </Alert>
  );
}

const storedText = (outcome: TUploadOutcome) =>
  outcome.stored === 1 ? '1 image stored' : `${outcome.stored} images stored`;

/**
 * The upload's progress (bytes percent, 'file uploaded N out of M') and, once over, what became of
 * the files: the ones refused with their reasons, the ones stored already (first version kept), a
 * failure with the server's message, a cancel.
 */
export function UploadProgressPanel({ state }: { state: Exclude<TUploadState, { phase: 'idle' }> }) {
  const { progress } = state;
  const uploading = state.phase === 'uploading';
  return (
    <Stack spacing={1.5}>
      <Box>
        <LinearProgress
          variant="determinate"
          value={progress.percent}
          color={state.phase === 'failed' ? 'error' : 'primary'}
          aria-label="Upload progress"
        />
        <Stack direction="row" sx={{ justifyContent: 'space-between', mt: 0.75 }}>
          <Typography variant="body2" aria-live="polite">
            {uploadedText(progress.filesDone, progress.filesTotal)}
          </Typography>
          <Typography variant="body2" color="textSecondary">
            {progress.percent}% of {formatBytes(progress.bytesTotal)}
          </Typography>
        </Stack>
        {uploading && progress.awaitingServer && (
          <Typography variant="caption" color="textSecondary">
            Sent; the server is checking and storing the files…
          </Typography>
        )}
        {uploading && progress.retryingTry !== undefined && (
          <Typography variant="caption" color="warning.main">
            The connection failed; trying again ({progress.retryingTry} of {RETRY_TRIES})…
          </Typography>
        )}
      </Box>
      {state.phase === 'done' && (
        <>
          <Typography variant="body2">{storedText(state.outcome)}</Typography>
          <FileSummary summary={describeRefused(state.outcome.refused)} severity="warning" />
          <FileSummary summary={describeNoted(state.outcome.results)} severity="info" />
        </>
      )}
      {state.phase === 'failed' && <Alert severity="error">The upload stopped: {state.message}</Alert>}
      {state.phase === 'cancelled' && <Alert severity="info">The upload was cancelled.</Alert>}
    </Stack>
  );
}
