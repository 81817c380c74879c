import { ThemeProvider } from '@mui/material/styles';
import { fireEvent, render, screen, within } from '@testing-library/react';
import {
  PLATFORM_PAYMENT_MODES,
  PLATFORM_PAYMENT_MODE_LABELS,
  type TPlatformPaymentMode,
} from '@radflow/core';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { theme } from '../app/theme';
import { PaymentFields, type TPaymentEntry } from './PaymentFields';

/* The one set of payment fields the three billing ledgers share (issue 26: their forms had drifted). */

function Form({ start, seen }: { start: TPaymentEntry<TPlatformPaymentMode>; seen: unknown[] }) {
  const [entry, setEntry] = useState(start);
  return (
    <ThemeProvider theme={theme}>
      <PaymentFields
        value={entry}
        onChange={(next) => {
          seen.push(next);
          setEntry(next);
        }}
        modes={PLATFORM_PAYMENT_MODES}
        modeLabels={PLATFORM_PAYMENT_MODE_LABELS}
        dateLabel="Paid on"
      />
    </ThemeProvider>
  );
}

describe('PaymentFields', () => {
  it('asks amount, mode (by its label), reference and date, and reports each edit', () => {
    const seen: unknown[] = [];
    render(
      <Form start={{ amount: '', mode: 'BANK_TRANSFER', reference: '', paidOn: '2026-11-28' }} seen={seen} />,
    );
    fireEvent.change(screen.getByLabelText('Amount (₹)'), { target: { value: '420.5' } });
    fireEvent.change(screen.getByLabelText('Reference'), { target: { value: 'UTR-1' } });
    fireEvent.change(screen.getByLabelText('Paid on'), { target: { value: '2026-11-27' } });
    expect(screen.getByRole('combobox', { name: 'Mode' }).textContent).toBe('Bank transfer');
    fireEvent.mouseDown(screen.getByRole('combobox', { name: 'Mode' }));
    const options = within(screen.getByRole('listbox')).getAllByRole('option');
    expect(options.map((o) => o.textContent)).toEqual(
      PLATFORM_PAYMENT_MODES.map((m) => PLATFORM_PAYMENT_MODE_LABELS[m]),
    );
    fireEvent.click(within(screen.getByRole('listbox')).getByRole('option', { name: 'Cheque' }));
    expect(seen.at(-1)).toEqual({
      amount: '420.5',
      mode: 'CHEQUE',
      reference: 'UTR-1',
      paidOn: '2026-11-27',
    });
  });

  it('asks no date where the ledger keeps none', () => {
    render(<Form start={{ amount: '1', mode: 'UPI', reference: '', paidOn: null }} seen={[]} />);
    expect(screen.getByLabelText('Amount (₹)')).toBeTruthy();
    expect(screen.queryByLabelText('Paid on')).toBeNull();
  });
});
