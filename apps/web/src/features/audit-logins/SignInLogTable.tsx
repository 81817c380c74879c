import Box from '@mui/material/Box';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import { FILTER_DEBOUNCE_MS, TABLE_PAGE_SIZE_DEFAULT } from '@radflow/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { searchSignInLog } from '../../api/audit';
import { formatTimestamp } from '../../lib/format';
import { useDebouncedValue } from '../../lib/useDebouncedValue';
import { EVENT_LABELS } from './audit-labels';
import { AUDIT_QUERY_KEY } from './DevicesTable';
import { EmptyTableRow, PagedTablePagination } from '../../components/table/TableParts';

/** Every sign-in, sign-out, failed attempt, one-time code and approval of the group, newest first. */
export function SignInLogTable() {
  const [email, setEmail] = useState('');
  const [page, setPage] = useState(0);
  const [size, setSize] = useState<number>(TABLE_PAGE_SIZE_DEFAULT);
  const emailFilter = useDebouncedValue(email.trim().toLowerCase(), FILTER_DEBOUNCE_MS);
  const search = { page, size, filters: { email: emailFilter || undefined } };
  const query = useQuery({
    queryKey: [AUDIT_QUERY_KEY, 'log', search],
    queryFn: ({ signal }) => searchSignInLog(search, signal),
    placeholderData: keepPreviousData,
  });
  const rows = query.data?.content ?? [];

  return (
    <Box>
      <Box sx={{ display: 'flex', gap: 1.5, mb: 1.5 }}>
        <TextField
          label="E-mail"
          value={email}
          onChange={(e) => {
            setEmail(e.target.value);
            setPage(0);
          }}
          sx={{ maxWidth: 280 }}
        />
      </Box>
      <Paper variant="outlined">
        <Box sx={{ height: 2 }}>{query.isFetching && <LinearProgress sx={{ height: 2 }} />}</Box>
        <TableContainer>
          <Table aria-label="Sign-in log">
            <TableHead>
              <TableRow>
                <TableCell>Time</TableCell>
                <TableCell>Event</TableCell>
                <TableCell>E-mail</TableCell>
                <TableCell>Device</TableCell>
                <TableCell>Address</TableCell>
                <TableCell>By</TableCell>
                <TableCell>Detail</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {rows.map((row) => (
                <TableRow key={row.id} hover>
                  <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatTimestamp(row.createdAt)}</TableCell>
                  <TableCell>{EVENT_LABELS[row.eventType]}</TableCell>
                  <TableCell>{row.email ?? '—'}</TableCell>
                  <TableCell>{row.deviceName ?? row.deviceId ?? '—'}</TableCell>
                  <TableCell sx={{ fontFamily: 'monospace' }}>{row.clientAddress ?? '—'}</TableCell>
                  <TableCell>{row.actorEmail ?? '—'}</TableCell>
                  <TableCell>{row.detail ?? ''}</TableCell>
                </TableRow>
              ))}
              {!query.isPending && rows.length === 0 && <EmptyTableRow colSpan={7} />}
            </TableBody>
          </Table>
        </TableContainer>
        <PagedTablePagination
          count={query.data?.totalElements ?? 0}
          page={page}
          size={size}
          onPageChange={setPage}
          onSizeChange={setSize}
        />
      </Paper>
    </Box>
  );
}
