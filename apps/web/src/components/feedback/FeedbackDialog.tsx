import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import type { TConfirmOptions, TInfoOptions } from './feedback-context';

export type TDialogRequest =
  | { id: number; type: 'confirm'; options: TConfirmOptions; resolve: (ok: boolean) => void }
  | { id: number; type: 'info'; options: TInfoOptions; resolve: (ok: boolean) => void };

/** The confirm dialog (Confirm/Cancel) and the info dialog (Close) of spec-core §8. */
export function FeedbackDialog({
  request,
  onClose,
}: {
  request: TDialogRequest;
  onClose: (ok: boolean) => void;
}) {
  const titleId = `feedback-dialog-${request.id}`;
  const { message } = request.options;
  return (
    <Dialog open onClose={() => onClose(false)} maxWidth="xs" fullWidth aria-labelledby={titleId}>
      <DialogTitle id={titleId}>
        {request.options.title ?? (request.type === 'confirm' ? 'Please confirm' : 'Information')}
      </DialogTitle>
      <DialogContent>
        {typeof message === 'string' ? <DialogContentText>{message}</DialogContentText> : message}
      </DialogContent>
      <DialogActions>
        {request.type === 'confirm' ? (
          <>
            <Button onClick={() => onClose(false)} color="inherit">
              {request.options.cancelLabel ?? 'Cancel'}
            </Button>
            <Button onClick={() => onClose(true)} variant="contained" autoFocus>
              {request.options.confirmLabel ?? 'Confirm'}
            </Button>
          </>
        ) : (
          <Button onClick={() => onClose(true)} variant="contained" autoFocus>
            Close
          </Button>
        )}
      </DialogActions>
    </Dialog>
  );
}
