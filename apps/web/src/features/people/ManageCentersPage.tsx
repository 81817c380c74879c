import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import type { TCenter } from '@radflow/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { fetchCenters } from '../../api/people';
import { PageHeader } from '../../components/PageHeader';
import { EmptyRow } from './EmptyRow';
import { CENTERS_QUERY_KEY, CenterDialog } from './CenterDialog';

/** /manage-centers (ROLE_GROUP, ROLE_ADMIN; issue 21 §9): the group's centers and their AE titles. */
export function ManageCentersPage() {
  const query = useQuery({ queryKey: CENTERS_QUERY_KEY, queryFn: ({ signal }) => fetchCenters(signal) });
  const [editing, setEditing] = useState<TCenter | 'new' | null>(null);
  const centers = query.data ?? [];
  return (
    <Box component="section">
      <PageHeader
        title="Manage centers"
        actions={
          <Button variant="contained" onClick={() => setEditing('new')}>
            Add center
          </Button>
        }
      />
      <Paper variant="outlined">
        <Box sx={{ height: 2 }}>{query.isFetching && <LinearProgress sx={{ height: 2 }} />}</Box>
        <TableContainer>
          <Table aria-label="Centers" size="small">
            <TableHead>
              <TableRow>
                <TableCell>Name</TableCell>
                <TableCell>E-mail</TableCell>
                <TableCell>AE titles</TableCell>
                <TableCell>Contact</TableCell>
                <TableCell align="right">Actions</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {!query.isPending && centers.length === 0 && <EmptyRow colSpan={5} />}
              {centers.map((center) => (
                <TableRow key={center.id}>
                  <TableCell>{center.name}</TableCell>
                  <TableCell>{center.email}</TableCell>
                  <TableCell>{center.aeTitles.join(', ')}</TableCell>
                  <TableCell>
                    {[center.contactName, center.contactMobile].filter(Boolean).join(' · ')}
                  </TableCell>
                  <TableCell align="right">
                    <Button
                      size="small"
                      onClick={() => setEditing(center)}
                      aria-label={`Edit ${center.name}`}
                    >
                      Edit
                    </Button>
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      </Paper>
      {editing !== null && (
        <CenterDialog center={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />
      )}
    </Box>
  );
}

export default ManageCentersPage;
