import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import FormControl from '@mui/material/FormControl';
import InputLabel from '@mui/material/InputLabel';
import LinearProgress from '@mui/material/LinearProgress';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Select from '@mui/material/Select';
import Switch from '@mui/material/Switch';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import {
  FILTER_DEBOUNCE_MS,
  LOGIN_AUDIT_STATUSES,
  TABLE_PAGE_SIZE_DEFAULT,
  type TAuditRow,
} from '@radflow/core';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { searchAuditDevices, updateApprovalStatus, type TLoginAuditStatus } from '../../api/audit';
import { useFeedback } from '../../components/feedback/feedback-context';
import { formatTimestamp } from '../../lib/format';
import { useDebouncedValue } from '../../lib/useDebouncedValue';
import { STATUS_COLORS, nextApprovalStatus, pendingFirst } from './audit-labels';
import { EmptyTableRow, PagedTablePagination } from '../../components/table/TableParts';

export const AUDIT_QUERY_KEY = 'audit-logins';

/** The devices of the Audit Logins screen with the approve/reject switch (spec-core §4 Audit approval). */
export function DevicesTable() {
  const [status, setStatus] = useState<TLoginAuditStatus | ''>('');
  const [email, setEmail] = useState('');
  const [page, setPage] = useState(0);
  const [size, setSize] = useState<number>(TABLE_PAGE_SIZE_DEFAULT);
  const emailFilter = useDebouncedValue(email.trim().toLowerCase(), FILTER_DEBOUNCE_MS);
  const { confirm, showInfo } = useFeedback();
  const queryClient = useQueryClient();

  const search = { page, size, filters: { status: status || undefined, email: emailFilter || undefined } };
  const query = useQuery({
    queryKey: [AUDIT_QUERY_KEY, 'devices', search],
    queryFn: ({ signal }) => searchAuditDevices(search, signal),
    placeholderData: keepPreviousData,
  });

  const mutation = useMutation({
    mutationFn: updateApprovalStatus,
    onSuccess: (row) => {
      showInfo(row.status === 'APPROVED' ? 'Device approved' : 'Device rejected');
      return queryClient.invalidateQueries({ queryKey: [AUDIT_QUERY_KEY] });
    },
  });

  const decide = async (row: TAuditRow, next: 'APPROVED' | 'REJECTED') => {
    const ok = await confirm({
      title: next === 'APPROVED' ? 'Approve device' : 'Reject device',
      message:
        next === 'APPROVED'
          ? `Allow ${row.email} to sign in from “${row.deviceName}”?`
          : `Stop ${row.email} from signing in from “${row.deviceName}”? Sign-ins from this device will be refused.`,
    });
    if (ok) mutation.mutate({ status: next, deviceId: row.deviceId, email: row.email });
  };

  const rows = pendingFirst(query.data?.content ?? []);
  return (
    <Box>
      <Box sx={{ display: 'flex', gap: 1.5, mb: 1.5, flexWrap: 'wrap' }}>
        <FormControl sx={{ minWidth: 160 }}>
          <InputLabel id="audit-status-label" shrink>
            Status
          </InputLabel>
          <Select
            labelId="audit-status-label"
            label="Status"
            notched
            displayEmpty
            value={status}
            onChange={(e) => {
              setStatus(e.target.value as TLoginAuditStatus | '');
              setPage(0);
            }}
          >
            <MenuItem value="">All statuses</MenuItem>
            {LOGIN_AUDIT_STATUSES.map((s) => (
              <MenuItem key={s} value={s}>
                {s}
              </MenuItem>
            ))}
          </Select>
        </FormControl>
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
          <Table aria-label="Devices">
            <TableHead>
              <TableRow>
                <TableCell>E-mail</TableCell>
                <TableCell>Device name</TableCell>
                <TableCell>Device id</TableCell>
                <TableCell>Status</TableCell>
                <TableCell>First approved</TableCell>
                <TableCell>Last seen</TableCell>
                <TableCell align="center">Approved</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {rows.map((row) => (
                <TableRow key={`${row.email}|${row.deviceId}`} hover>
                  <TableCell>{row.email}</TableCell>
                  <TableCell>{row.deviceName}</TableCell>
                  <TableCell sx={{ fontFamily: 'monospace' }}>
                    <Tooltip title={row.deviceId}>
                      <Box
                        component="span"
                        sx={{
                          display: 'block',
                          maxWidth: 120,
                          overflow: 'hidden',
                          textOverflow: 'ellipsis',
                          whiteSpace: 'nowrap',
                        }}
                      >
                        {row.deviceId}
                      </Box>
                    </Tooltip>
                  </TableCell>
                  <TableCell>
                    <Chip
                      size="small"
                      variant="outlined"
                      label={row.status}
                      color={STATUS_COLORS[row.status]}
                    />
                  </TableCell>
                  <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatTimestamp(row.firstApprovedAt)}</TableCell>
                  <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatTimestamp(row.lastSeenAt)}</TableCell>
                  <TableCell align="center" sx={{ whiteSpace: 'nowrap' }}>
                    <Switch
                      size="small"
                      checked={row.status === 'APPROVED'}
                      disabled={mutation.isPending}
                      onChange={(e) => void decide(row, nextApprovalStatus(e.target.checked))}
                      slotProps={{ input: { 'aria-label': `Approve ${row.deviceName} for ${row.email}` } }}
                    />
                    {row.status === 'PENDING' && (
                      <Button
                        size="small"
                        color="error"
                        disabled={mutation.isPending}
                        onClick={() => void decide(row, 'REJECTED')}
                      >
                        Reject
                      </Button>
                    )}
                  </TableCell>
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
