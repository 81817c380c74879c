import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';

/** What a person types to record a payment; `paidOn` null: the form asks no date (the server's today). */
export interface TPaymentEntry<TMode extends string> {
  amount: string;
  mode: TMode;
  reference: string;
  paidOn: string | null;
}

/**
 * The fields of every "record a payment" form (a tele-radiology invoice's, a doctor's payout, a
 * group's platform payment): the amount in rupees, the mode from that ledger's list, the bank or UPI
 * reference and, where the ledger keeps one, the date it was paid. One layout and one set of labels,
 * so a biller who records all three finds the same fields in the same order.
 */
export function PaymentFields<TMode extends string>({
  value,
  onChange,
  modes,
  modeLabels,
  dateLabel = 'Received on',
  size,
}: {
  value: TPaymentEntry<TMode>;
  onChange: (next: TPaymentEntry<TMode>) => void;
  modes: readonly TMode[];
  modeLabels: Record<TMode, string>;
  dateLabel?: string;
  size?: 'small' | 'medium';
}) {
  return (
    <>
      <TextField
        size={size}
        label="Amount (₹)"
        type="number"
        value={value.amount}
        onChange={(e) => onChange({ ...value, amount: e.target.value })}
        slotProps={{ htmlInput: { min: 0, step: '0.01', inputMode: 'decimal' } }}
      />
      <TextField
        size={size}
        select
        label="Mode"
        value={value.mode}
        onChange={(e) => onChange({ ...value, mode: e.target.value as TMode })}
      >
        {modes.map((m) => (
          <MenuItem key={m} value={m}>
            {modeLabels[m]}
          </MenuItem>
        ))}
      </TextField>
      <TextField
        size={size}
        label="Reference"
        value={value.reference}
        onChange={(e) => onChange({ ...value, reference: e.target.value })}
      />
      {value.paidOn !== null && (
        <TextField
          size={size}
          label={dateLabel}
          type="date"
          value={value.paidOn}
          onChange={(e) => onChange({ ...value, paidOn: e.target.value })}
          slotProps={{ inputLabel: { shrink: true } }}
        />
      )}
    </>
  );
}
