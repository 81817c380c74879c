import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { STUDIES_QUERY_KEY } from '../../api/archive';
import { useSnackbar } from '../../components/feedback/feedback-context';
import { UploadPicker } from './UploadPicker';
import { UploadProgressPanel } from './UploadProgressPanel';
import { useUpload } from './useUpload';

/** spec-core §8 info toast after images were added to a study. */
export const IMAGE_ATTACHED = 'Image attached';

/**
 * The upload-study row action (spec-core §2 Study table columns): more images for an existing study.
 * Owns its upload, its snackbar and the study lists' refresh. It cannot be closed while uploading;
 * Cancel stops the upload first.
 */
export function UploadStudyDialog({
  open,
  reportStatusId,
  onClose,
}: {
  open: boolean;
  reportStatusId: number;
  onClose: () => void;
}) {
  const [files, setFiles] = useState<File[]>([]);
  const upload = useUpload();
  const { showInfo } = useSnackbar();
  const queryClient = useQueryClient();
  const { state } = upload;
  const uploading = state.phase === 'uploading';

  const close = () => {
    if (uploading) return;
    upload.reset();
    setFiles([]);
    onClose();
  };

  const send = async () => {
    const outcome = await upload.start(files, { reportStatusId });
    if (outcome && outcome.stored > 0) {
      void queryClient.invalidateQueries({ queryKey: STUDIES_QUERY_KEY });
      showInfo(IMAGE_ATTACHED);
    }
    if (outcome && outcome.refused.length === 0) close();
  };

  return (
    <Dialog open={open} onClose={close} maxWidth="sm" fullWidth aria-labelledby="upload-study-title">
      <DialogTitle id="upload-study-title">Upload images</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          <Typography variant="body2" color="textSecondary">
            Study {reportStatusId}: the images are added to this study.
          </Typography>
          {state.phase === 'idle' ? (
            <UploadPicker files={files} onChange={setFiles} />
          ) : (
            <UploadProgressPanel state={state} />
          )}
        </Stack>
      </DialogContent>
      <DialogActions>
        {uploading ? (
          <Button onClick={upload.cancel} color="inherit">
            Cancel upload
          </Button>
        ) : (
          <Button onClick={close} color="inherit">
            {state.phase === 'idle' ? 'Cancel' : 'Close'}
          </Button>
        )}
        {(state.phase === 'failed' || state.phase === 'cancelled') && (
          <Button variant="contained" onClick={() => void send()}>
            Try again
          </Button>
        )}
        {state.phase === 'idle' && (
          <Button variant="contained" disabled={files.length === 0} onClick={() => void send()}>
            Upload
          </Button>
        )}
      </DialogActions>
    </Dialog>
  );
}
