import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import MenuItem from '@mui/material/MenuItem';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import {
  SETTLEMENT_STATUSES,
  attributeChoicesFor,
  formatDisplayTime,
  lineValuePaise,
  rupeeText,
  type TTestAttributeDefinition,
  type TSettlementStatus,
} from '@radflow/core';
import { attributesEditable } from './bill-attributes';
import { canBookAppointment, unitPaiseOf, type TFormLine } from './bill-form';

export const SETTLEMENT_LABELS: Readonly<Record<TSettlementStatus, string>> = {
  FULL_PRICE: 'Full Price',
  PARTIAL_REFUND: 'Partial Refund',
  FULL_REFUND: 'Full Refund',
  CANCEL: 'Cancel',
};

/**
 * The bill's tests table (spec-lab §2 Bill screen, §4): quantity (≥ 1), settlement status for the lab
 * admin only, film size and contrast from the lab's definitions (editable on a new line or while the
 * bill is SCHEDULED), the line's value, and the appointment button under appointmentSupportRIS. The
 * screen owns the changes (the confirmations and core's settlement rules).
 */
export function BillTestsTable({
  lines,
  definitions,
  billStatus,
  admin,
  appointments,
  timeZone,
  onQuantity,
  onSettlement,
  onAttribute,
  onAppointment,
  onRemove,
}: {
  lines: TFormLine[];
  definitions: readonly TTestAttributeDefinition[];
  billStatus: string | null;
  admin: boolean;
  appointments: boolean;
  timeZone: string;
  onQuantity(line: TFormLine, quantity: number): void;
  onSettlement(line: TFormLine, status: TSettlementStatus): void;
  onAttribute(line: TFormLine, field: 'filmSize' | 'contrastVolume', value: string | null): void;
  onAppointment(line: TFormLine): void;
  onRemove(line: TFormLine): void;
}) {
  return (
    <TableContainer sx={{ my: 2 }}>
      <Table size="small" aria-label="Bill tests">
        <TableHead>
          <TableRow>
            <TableCell>Code</TableCell>
            <TableCell>Test</TableCell>
            <TableCell>Modality</TableCell>
            <TableCell>Department</TableCell>
            <TableCell>Quantity</TableCell>
            <TableCell align="right">Price</TableCell>
            <TableCell>Film Size</TableCell>
            <TableCell>Contrast</TableCell>
            {admin && <TableCell>Settlement</TableCell>}
            <TableCell align="right">Refund</TableCell>
            <TableCell align="right">Amount</TableCell>
            {appointments && <TableCell>Appointment</TableCell>}
            <TableCell />
          </TableRow>
        </TableHead>
        <TableBody>
          {lines.length === 0 && (
            <TableRow>
              <TableCell colSpan={13} sx={{ textAlign: 'center', color: 'text.secondary' }}>
                Search a test to add it to the bill
              </TableCell>
            </TableRow>
          )}
          {lines.map((line) => {
            const unitPaise = unitPaiseOf(line, definitions);
            const choices = attributeChoicesFor(definitions, line.labModality);
            const editable = attributesEditable({ isNew: line.id === undefined }, billStatus);
            const attribute = (field: 'filmSize' | 'contrastVolume', label: string) => {
              const list =
                field === 'filmSize'
                  ? choices.filmSize?.choices.map((c) => ({ name: c.size, price: c.price }))
                  : choices.contrast?.choices.map((c) => ({ name: c.volume, price: c.price }));
              if (!list) return <Typography variant="body2">{line[field] ?? '—'}</Typography>;
              return (
                <TextField
                  select
                  size="small"
                  label={label}
                  value={line[field] ?? ''}
                  disabled={!editable}
                  onChange={(e) => onAttribute(line, field, e.target.value || null)}
                  slotProps={{ htmlInput: { 'aria-label': `${label} of ${line.testCode}` } }}
                  sx={{ minWidth: 110 }}
                >
                  <MenuItem value="">None</MenuItem>
                  {list.map((c) => (
                    <MenuItem key={c.name} value={c.name}>
                      {c.name} (₹{c.price})
                    </MenuItem>
                  ))}
                </TextField>
              );
            };
            return (
              <TableRow key={line.key} data-testid={`bill-line-${line.testCode}`}>
                <TableCell>{line.testCode}</TableCell>
                <TableCell>{line.testName}</TableCell>
                <TableCell>{line.labModality}</TableCell>
                <TableCell>{line.department}</TableCell>
                <TableCell>
                  <TextField
                    type="number"
                    size="small"
                    value={line.quantity}
                    onChange={(e) => {
                      const value = Math.trunc(Number(e.target.value));
                      // spec-lab §5: quantity cannot go below 1.
                      if (Number.isFinite(value) && value >= 1 && value !== line.quantity)
                        onQuantity(line, value);
                    }}
                    slotProps={{
                      htmlInput: { min: 1, step: 1, 'aria-label': `Quantity of ${line.testCode}` },
                    }}
                    sx={{ width: 80 }}
                  />
                </TableCell>
                <TableCell align="right">₹{rupeeText(unitPaise)}</TableCell>
                <TableCell>{attribute('filmSize', 'Film Size')}</TableCell>
                <TableCell>{attribute('contrastVolume', 'Contrast')}</TableCell>
                {admin && (
                  <TableCell>
                    <TextField
                      select
                      size="small"
                      value={line.settlementStatus}
                      onChange={(e) => onSettlement(line, e.target.value as TSettlementStatus)}
                      slotProps={{ htmlInput: { 'aria-label': `Settlement of ${line.testCode}` } }}
                      sx={{ minWidth: 140 }}
                    >
                      {SETTLEMENT_STATUSES.map((s) => (
                        <MenuItem key={s} value={s}>
                          {SETTLEMENT_LABELS[s]}
                        </MenuItem>
                      ))}
                    </TextField>
                  </TableCell>
                )}
                <TableCell align="right">₹{rupeeText(line.refundPaise)}</TableCell>
                <TableCell align="right" data-testid={`line-amount-${line.testCode}`}>
                  ₹
                  {rupeeText(
                    lineValuePaise({ unitPaise, quantity: line.quantity, refundPaise: line.refundPaise }),
                  )}
                </TableCell>
                {appointments && (
                  <TableCell>
                    <Button
                      size="small"
                      variant={line.appointment ? 'outlined' : 'text'}
                      disabled={!canBookAppointment(lines, line)}
                      onClick={() => onAppointment(line)}
                      aria-label={`Appointment for ${line.testCode}`}
                    >
                      {line.appointment
                        ? `${line.appointment.appointmentName} · ${formatDisplayTime(line.appointment.start, timeZone, { label: false }).slice(0, 16)}`
                        : 'Book Slot'}
                    </Button>
                  </TableCell>
                )}
                <TableCell>
                  {line.id === undefined && (
                    <IconButton
                      size="small"
                      aria-label={`Remove ${line.testCode}`}
                      onClick={() => onRemove(line)}
                    >
                      ×
                    </IconButton>
                  )}
                </TableCell>
              </TableRow>
            );
          })}
        </TableBody>
      </Table>
    </TableContainer>
  );
}
