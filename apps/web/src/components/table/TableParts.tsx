import TableCell from '@mui/material/TableCell';
import TablePagination from '@mui/material/TablePagination';
import TableRow from '@mui/material/TableRow';
import { MESSAGES, TABLE_PAGE_SIZE_OPTIONS } from '@radflow/core';

/** The row a table shows when a finished search found nothing (spec-core §8 'No result found'). */
export function EmptyTableRow({ colSpan }: { colSpan: number }) {
  return (
    <TableRow>
      <TableCell colSpan={colSpan} sx={{ textAlign: 'center', py: 4, color: 'text.secondary' }}>
        {MESSAGES.noResultFound}
      </TableCell>
    </TableRow>
  );
}

/** Server-side paging with the spec's page sizes (spec-core §9: 20 or 50); a new size starts at page 0. */
export function PagedTablePagination(props: {
  count: number;
  page: number;
  size: number;
  onPageChange(page: number): void;
  onSizeChange(size: number): void;
}) {
  return (
    <TablePagination
      component="div"
      count={props.count}
      page={props.page}
      onPageChange={(_, p) => props.onPageChange(p)}
      rowsPerPage={props.size}
      rowsPerPageOptions={[...TABLE_PAGE_SIZE_OPTIONS]}
      onRowsPerPageChange={(e) => {
        props.onSizeChange(Number(e.target.value));
        props.onPageChange(0);
      }}
    />
  );
}
