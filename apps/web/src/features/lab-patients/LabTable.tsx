import Box from '@mui/material/Box';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TablePagination from '@mui/material/TablePagination';
import TableRow from '@mui/material/TableRow';
import TableSortLabel from '@mui/material/TableSortLabel';
import { MESSAGES, TABLE_PAGE_SIZE_OPTIONS } from '@radflow/core';
import type { ReactNode } from 'react';

export interface TLabColumn<TSort extends string> {
  label: string;
  /** The server's orderingCriteria for this column, when it sorts. */
  sort?: TSort;
  align?: 'right';
}

export interface TLabPaging<TSort extends string> {
  page: number;
  size: number;
  orderingCriteria: TSort;
  sortOrder: 'ASC' | 'DESC';
}

/**
 * The lab lists' table (all patients, referring doctors): a progress line while it loads, heads
 * that sort on the server, 'No result found' once loaded empty, the spec's page sizes (20, 50).
 */
export function LabTable<TSort extends string>({
  label,
  columns,
  fetching,
  empty,
  total,
  paging,
  onPaging,
  children,
}: {
  label: string;
  columns: ReadonlyArray<TLabColumn<TSort>>;
  fetching: boolean;
  empty: boolean;
  total: number;
  paging: TLabPaging<TSort>;
  onPaging: (next: TLabPaging<TSort>) => void;
  children: ReactNode;
}) {
  const sortBy = (sort: TSort) =>
    onPaging({
      ...paging,
      page: 0,
      orderingCriteria: sort,
      sortOrder: paging.orderingCriteria === sort && paging.sortOrder === 'ASC' ? 'DESC' : 'ASC',
    });
  return (
    <Paper variant="outlined">
      <Box sx={{ height: 2 }}>{fetching && <LinearProgress sx={{ height: 2 }} />}</Box>
      <TableContainer>
        <Table aria-label={label} size="small">
          <TableHead>
            <TableRow>
              {columns.map((column) => (
                <TableCell
                  key={column.label}
                  align={column.align}
                  sortDirection={
                    column.sort && paging.orderingCriteria === column.sort
                      ? paging.sortOrder === 'ASC'
                        ? 'asc'
                        : 'desc'
                      : false
                  }
                >
                  {column.sort ? (
                    <TableSortLabel
                      active={paging.orderingCriteria === column.sort}
                      direction={
                        paging.orderingCriteria === column.sort && paging.sortOrder === 'DESC'
                          ? 'desc'
                          : 'asc'
                      }
                      onClick={() => sortBy(column.sort as TSort)}
                    >
                      {column.label}
                    </TableSortLabel>
                  ) : (
                    column.label
                  )}
                </TableCell>
              ))}
            </TableRow>
          </TableHead>
          <TableBody>
            {empty && (
              <TableRow>
                <TableCell
                  colSpan={columns.length}
                  sx={{ textAlign: 'center', py: 4, color: 'text.secondary' }}
                >
                  {MESSAGES.noResultFound}
                </TableCell>
              </TableRow>
            )}
            {children}
          </TableBody>
        </Table>
      </TableContainer>
      <TablePagination
        component="div"
        count={total}
        page={paging.page}
        onPageChange={(_e, page) => onPaging({ ...paging, page })}
        rowsPerPage={paging.size}
        rowsPerPageOptions={[...TABLE_PAGE_SIZE_OPTIONS]}
        onRowsPerPageChange={(e) => onPaging({ ...paging, page: 0, size: Number(e.target.value) })}
      />
    </Paper>
  );
}
