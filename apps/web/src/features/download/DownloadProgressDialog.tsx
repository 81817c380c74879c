import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import LinearProgress from '@mui/material/LinearProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { TZipDownloadState, TZipFailure } from './download-state';

/** The dialog's texts (spec-core §2 image-preparation and file-download progress dialogs). */
export const DOWNLOAD_TEXTS = {
  title: (total: number) => (total > 1 ? `Downloading ${total} studies` : 'Download study zip'),
  preparing: 'Preparing images to download',
  downloading: 'Downloading zip',
  waiting: 'The next download starts in a moment',
  studyOf: (index: number, total: number, name: string) => `Study ${index + 1} of ${total}: ${name}`,
  savedOf: (saved: number, total: number) => `${saved} of ${total} downloaded`,
  cancelled: 'The download was cancelled.',
} as const;

type TRunning = Extract<TZipDownloadState, { status: 'running' }>;

function stepText(state: TRunning): { label: string; percent: number | null } {
  const { phase } = state;
  switch (phase.step) {
    case 'preparing':
      return { label: DOWNLOAD_TEXTS.preparing, percent: phase.percent };
    case 'downloading':
      return { label: DOWNLOAD_TEXTS.downloading, percent: phase.percent };
    case 'waiting':
      return { label: DOWNLOAD_TEXTS.waiting, percent: null };
  }
}

function Failures({ failures }: { failures: readonly TZipFailure[] }) {
  if (failures.length === 0) return null;
  return (
    <Alert severity="error">
      <Box component="ul" sx={{ m: 0, pl: 2, maxHeight: '30vh', overflowY: 'auto' }}>
        {failures.map((failure, i) => (
          <li key={`${failure.studyId}-${i}`}>
            {failure.message}
            {failure.detail && (
              <Typography variant="caption" component="div" color="textSecondary">
                {failure.detail}
              </Typography>
            )}
          </li>
        ))}
      </Box>
    </Alert>
  );
}

function RunningPanel({ state }: { state: TRunning }) {
  const { label, percent } = stepText(state);
  return (
    <Box>
      <Typography variant="body2" sx={{ mb: 0.75 }}>
        {state.total > 1 ? DOWNLOAD_TEXTS.studyOf(state.index, state.total, state.name) : state.name}
      </Typography>
      <LinearProgress
        variant={percent === null ? 'indeterminate' : 'determinate'}
        value={percent ?? undefined}
        aria-label="Download progress"
      />
      <Stack direction="row" sx={{ justifyContent: 'space-between', mt: 0.75 }}>
        <Typography variant="body2" aria-live="polite">
          {label}
        </Typography>
        {percent !== null && (
          <Typography variant="body2" color="textSecondary">
            {percent}%
          </Typography>
        )}
      </Stack>
    </Box>
  );
}

/**
 * The zip download's progress: the job's phase ('Preparing images to download', with the job's
 * percent when its progress record has one), then the file's percent (never above 100), one study
 * after another for several, and every failure with its message. Cancel stops the download (the
 * dialog cannot be dismissed while it runs); Close once it is over.
 */
export function DownloadProgressDialog({
  state,
  onCancel,
  onClose,
}: {
  state: TZipDownloadState;
  onCancel: () => void;
  onClose: () => void;
}) {
  if (state.status === 'idle') return null;
  const running = state.status === 'running';
  return (
    <Dialog
      open
      onClose={running ? undefined : onClose}
      maxWidth="sm"
      fullWidth
      aria-labelledby="download-progress-title"
    >
      <DialogTitle id="download-progress-title">{DOWNLOAD_TEXTS.title(state.total)}</DialogTitle>
      <DialogContent>
        <Stack spacing={1.5} sx={{ pt: 1 }}>
          {running && <RunningPanel state={state} />}
          {state.status !== 'running' && state.total > 1 && (
            <Typography variant="body2">{DOWNLOAD_TEXTS.savedOf(state.saved, state.total)}</Typography>
          )}
          {state.status === 'cancelled' && <Alert severity="info">{DOWNLOAD_TEXTS.cancelled}</Alert>}
          <Failures failures={state.failures} />
        </Stack>
      </DialogContent>
      <DialogActions>
        {running ? (
          <Button onClick={onCancel} color="inherit">
            Cancel
          </Button>
        ) : (
          <Button onClick={onClose} variant="contained">
            Close
          </Button>
        )}
      </DialogActions>
    </Dialog>
  );
}
