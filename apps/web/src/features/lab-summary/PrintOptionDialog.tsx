import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import { PRINT_OPTIONS, PRINT_OPTION_LABELS, type TPrintOption } from '@radflow/core';
import { useSnackbar } from '../../components/feedback/feedback-context';
import { openPrintOption } from './open-bill-print';

export const PRINT_DIALOG_TITLE = 'Print';

/**
 * The print-option chooser (spec-lab §2 dialogs): invoice only, appointment slip only, both, cancel.
 * A choice closes the dialog and opens the documents in new tabs; a failure says 'Error downloading
 * PDF'. For the bill screen and the billing list; `onChosen` lets them go on (e.g. to registration).
 */
export function PrintOptionDialog({
  billId,
  open,
  onClose,
  onChosen,
  options = PRINT_OPTIONS,
}: {
  billId: number;
  open: boolean;
  onClose(): void;
  onChosen?(option: TPrintOption): void;
  /** The choices offered (all three by default; a bill without an appointment may offer the invoice only). */
  options?: readonly TPrintOption[];
}) {
  const { showError } = useSnackbar();
  const choose = (option: TPrintOption) => {
    onClose();
    onChosen?.(option);
    void openPrintOption(option, billId, showError);
  };
  return (
    <Dialog open={open} onClose={onClose} aria-labelledby="print-option-title">
      <DialogTitle id="print-option-title">{PRINT_DIALOG_TITLE}</DialogTitle>
      <DialogContent>
        <DialogContentText>What would you like to print?</DialogContentText>
      </DialogContent>
      <DialogActions>
        {options.map((option) => (
          <Button key={option} variant="contained" onClick={() => choose(option)}>
            {PRINT_OPTION_LABELS[option]}
          </Button>
        ))}
        <Button onClick={onClose}>Cancel</Button>
      </DialogActions>
    </Dialog>
  );
}
