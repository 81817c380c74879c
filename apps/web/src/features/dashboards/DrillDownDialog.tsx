import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import LinearProgress from '@mui/material/LinearProgress';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { TABLE_PAGE_SIZE_DEFAULT, displayStatus, formatPersonName } from '@radflow/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { EmptyTableRow, PagedTablePagination } from '../../components/table/TableParts';
import { formatTimestamp } from '../../lib/format';
import { formatMinutes } from './dashboard-charts';
import {
  type TDashboardRange,
  type TDrillDownTarget,
  drillDownQueryKey,
  fetchDrillDown,
} from './dashboards.api';

/** The studies behind one number of a dashboard, a page at a time (GET /api/dashboard/studies). */
export function DrillDownDialog({
  range,
  target,
  showPatients,
  onClose,
}: {
  range: TDashboardRange;
  target: TDrillDownTarget;
  showPatients: boolean;
  onClose: () => void;
}) {
  const [page, setPage] = useState(0);
  const [size, setSize] = useState(TABLE_PAGE_SIZE_DEFAULT);
  const query = useQuery({
    queryKey: [...drillDownQueryKey(range, target, page), size],
    queryFn: ({ signal }) => fetchDrillDown(range, target, page, size, signal),
    placeholderData: keepPreviousData,
  });
  const columns = [
    'Study',
    ...(showPatients ? ['Patient'] : []),
    'Modality',
    'Center',
    'Doctor',
    'Status',
    'Uploaded',
    'Signed off',
    'Turnaround',
  ];
  const data = query.data;
  return (
    <Dialog open onClose={onClose} maxWidth="lg" fullWidth aria-labelledby="drill-down-title">
      <DialogTitle id="drill-down-title">{target.title}</DialogTitle>
      <DialogContent>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
          {range.startTime} to {range.endTime}
          {data ? ` · ${data.totalElements} ${data.totalElements === 1 ? 'study' : 'studies'}` : ''}
        </Typography>
        {query.isFetching && <LinearProgress aria-label="Loading studies" />}
        {query.isError && <Alert severity="error">The studies could not be loaded.</Alert>}
        <Table size="small" aria-label={`Studies: ${target.title}`}>
          <TableHead>
            <TableRow>
              {columns.map((c) => (
                <TableCell key={c}>{c}</TableCell>
              ))}
            </TableRow>
          </TableHead>
          <TableBody>
            {data?.content.length === 0 && <EmptyTableRow colSpan={columns.length} />}
            {data?.content.map((r) => (
              <TableRow key={r.id} data-study-row={r.id}>
                <TableCell>{r.studyName || r.studyInstanceUid}</TableCell>
                {showPatients && <TableCell>{formatPersonName(r.patientName ?? '')}</TableCell>}
                <TableCell>{r.modality}</TableCell>
                <TableCell>{r.centerName}</TableCell>
                <TableCell>{r.doctorName ?? '—'}</TableCell>
                <TableCell>{displayStatus({ status: r.status })}</TableCell>
                <TableCell>{formatTimestamp(r.uploadedAt, { label: false })}</TableCell>
                <TableCell>{formatTimestamp(r.signedOffAt, { label: false })}</TableCell>
                <TableCell>{formatMinutes(r.turnaroundMinutes)}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
        {data && (
          <PagedTablePagination
            count={data.totalElements}
            page={page}
            size={size}
            onPageChange={setPage}
            onSizeChange={setSize}
          />
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Close</Button>
      </DialogActions>
    </Dialog>
  );
}
