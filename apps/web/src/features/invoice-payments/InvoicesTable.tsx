import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Link from '@mui/material/Link';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import { formatRupees, toPaise } from '@radflow/core';

/** One invoice row as both payer pages show it. */
export interface TPayerInvoiceRow {
  id: number;
  number: string;
  period: string;
  total: number;
  due: number;
  status: string;
  dueDate: string | null;
  overdue: boolean;
  payable: boolean;
  pdfUrl: string;
}

const rupees = (value: number) => formatRupees(toPaise(value));

/** The invoices with their PDF and, where something is due, the Pay button. */
export function InvoicesTable({
  label,
  rows,
  paying,
  onPay,
}: {
  label: string;
  rows: TPayerInvoiceRow[];
  paying: boolean;
  onPay: (id: number) => void;
}) {
  return (
    <Table size="small" aria-label={label}>
      <TableHead>
        <TableRow>
          <TableCell>Number</TableCell>
          <TableCell>Period</TableCell>
          <TableCell align="right">Total</TableCell>
          <TableCell align="right">Due</TableCell>
          <TableCell>Status</TableCell>
          <TableCell>Due date</TableCell>
          <TableCell />
        </TableRow>
      </TableHead>
      <TableBody>
        {rows.length === 0 && (
          <TableRow>
            <TableCell colSpan={7}>No invoices yet.</TableCell>
          </TableRow>
        )}
        {rows.map((r) => (
          <TableRow key={r.id} data-invoice={r.number}>
            <TableCell>{r.number}</TableCell>
            <TableCell>{r.period}</TableCell>
            <TableCell align="right">{rupees(r.total)}</TableCell>
            <TableCell align="right">{rupees(r.due)}</TableCell>
            <TableCell>
              {r.status}
              {r.overdue && <Chip size="small" color="error" label="Overdue" sx={{ ml: 1 }} />}
            </TableCell>
            <TableCell>{r.dueDate ?? '—'}</TableCell>
            <TableCell>
              <Link href={r.pdfUrl} target="_blank" rel="noopener">
                PDF
              </Link>
              {r.payable && (
                <Button
                  size="small"
                  variant="contained"
                  sx={{ ml: 1 }}
                  disabled={paying}
                  onClick={() => onPay(r.id)}
                >
                  Pay {rupees(r.due)}
                </Button>
              )}
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
