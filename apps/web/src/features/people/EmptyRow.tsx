import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import { MESSAGES } from '@radflow/core';

/**
 * 'No result found' in an empty people table. Not the shared EmptyTableRow: importing TableParts
 * (with its pagination) from this lazy chunk made the bundler split the study list's shared chunks
 * further and the first load grew past its budget (bench/web-bundle.ts).
 */
export function EmptyRow({ colSpan }: { colSpan: number }) {
  return (
    <TableRow>
      <TableCell colSpan={colSpan} sx={{ textAlign: 'center', py: 4, color: 'text.secondary' }}>
        {MESSAGES.noResultFound}
      </TableCell>
    </TableRow>
  );
}
