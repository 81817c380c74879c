import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import TextField from '@mui/material/TextField';
import { LAB_LIMITS, type TBill } from '@radflow/core';
import { useState } from 'react';
import { ApiError } from '../../api/client';
import { cancelBill } from './bill-api';

export const CANCELLATION_REASON_LABEL = 'Cancellation Reason';

/** spec-lab §2 cancellation-reason dialog: a reason of at most 255 characters, PUT /api/lab/cancel-status. */
export function CancelBillDialog({
  bill,
  onClose,
  onCancelled,
}: {
  bill: { id: number; invoiceNumber: string };
  onClose(): void;
  onCancelled(bill: TBill): void;
}) {
  const [reason, setReason] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const tooLong = reason.length > LAB_LIMITS.remarkLength;
  const submit = async () => {
    if (busy) return;
    if (!reason.trim()) {
      setProblem('Give a reason for the cancellation');
      return;
    }
    setBusy(true);
    try {
      onCancelled(await cancelBill({ id: bill.id, cancellationRemark: reason.trim() }));
    } catch (error) {
      setProblem(error instanceof ApiError ? error.message : String(error));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog open onClose={onClose} aria-labelledby="cancel-bill-title" fullWidth maxWidth="sm">
      <DialogTitle id="cancel-bill-title">Cancel bill {bill.invoiceNumber}</DialogTitle>
      <DialogContent>
        <TextField
          label={CANCELLATION_REASON_LABEL}
          value={reason}
          onChange={(e) => {
            setReason(e.target.value);
            setProblem(null);
          }}
          multiline
          minRows={2}
          fullWidth
          error={tooLong}
          helperText={`${reason.length} / ${LAB_LIMITS.remarkLength}`}
          slotProps={{ htmlInput: { maxLength: LAB_LIMITS.remarkLength } }}
          sx={{ mt: 1 }}
          autoFocus
        />
        {problem && (
          <Alert severity="error" sx={{ mt: 2 }}>
            {problem}
          </Alert>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Close</Button>
        <Button variant="contained" color="error" onClick={() => void submit()} disabled={busy || tooLong}>
          Cancel Bill
        </Button>
      </DialogActions>
    </Dialog>
  );
}
