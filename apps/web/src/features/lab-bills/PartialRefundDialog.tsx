import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import TextField from '@mui/material/TextField';
import { rupeeText, settleLine, toPaise } from '@radflow/core';
import { useState } from 'react';

export const REFUND_AMOUNT_LABEL = 'Refund Amount';

/**
 * spec-lab §4–§5 partial refund: an amount of 1 … originalPrice × quantity (core settleLine decides
 * and words the refusal); the line's price becomes its value minus the refund.
 */
export function PartialRefundDialog({
  line,
  onClose,
  onRefund,
}: {
  line: { testName: string; unitPaise: number; quantity: number; refundPaise: number };
  onClose(): void;
  onRefund(refundPaise: number): void;
}) {
  const [value, setValue] = useState(line.refundPaise ? String(line.refundPaise / 100) : '');
  const [problem, setProblem] = useState<string | null>(null);
  const gross = line.unitPaise * line.quantity;
  const submit = () => {
    const amount = Number(value);
    const settled = settleLine(line, 'PARTIAL_REFUND', Number.isFinite(amount) ? toPaise(amount) : -1);
    if (!settled.ok) {
      setProblem(settled.message);
      return;
    }
    onRefund(settled.line.refundPaise);
  };
  return (
    <Dialog open onClose={onClose} aria-labelledby="partial-refund-title">
      <DialogTitle id="partial-refund-title">Partial refund: {line.testName}</DialogTitle>
      <DialogContent>
        <TextField
          label={REFUND_AMOUNT_LABEL}
          type="number"
          value={value}
          onChange={(e) => {
            setValue(e.target.value);
            setProblem(null);
          }}
          slotProps={{ htmlInput: { min: 1, max: gross / 100, step: 0.01 } }}
          helperText={`1 to ${rupeeText(gross)} (price × quantity)`}
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
        <Button onClick={onClose}>Cancel</Button>
        <Button variant="contained" onClick={submit}>
          Apply Refund
        </Button>
      </DialogActions>
    </Dialog>
  );
}
