import Box from '@mui/material/Box';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import type { ReactNode } from 'react';
import { EmptyRow } from './EmptyRow';

/**
 * The table of Manage centers and Manage users: a progress line while it loads, the column heads
 * (the last one, Actions, on the right), 'No result found' once loaded with no row, then the rows.
 */
export function PeopleTable({
  label,
  columns,
  fetching,
  empty,
  children,
}: {
  label: string;
  columns: readonly string[];
  fetching: boolean;
  /** Loaded, and no row to show. */
  empty: boolean;
  children: ReactNode;
}) {
  return (
    <Paper variant="outlined">
      <Box sx={{ height: 2 }}>{fetching && <LinearProgress sx={{ height: 2 }} />}</Box>
      <TableContainer>
        <Table aria-label={label} size="small">
          <TableHead>
            <TableRow>
              {columns.map((column, i) => (
                <TableCell key={column} align={i === columns.length - 1 ? 'right' : undefined}>
                  {column}
                </TableCell>
              ))}
            </TableRow>
          </TableHead>
          <TableBody>
            {empty && <EmptyRow colSpan={columns.length} />}
            {children}
          </TableBody>
        </Table>
      </TableContainer>
    </Paper>
  );
}
