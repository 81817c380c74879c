import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import { type TCenter, isPathAllowed } from '@radflow/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { fetchCenters } from '../../api/people';
import { PageHeader } from '../../components/PageHeader';
import { useSession } from '../auth/session';
import { CENTERS_QUERY_KEY, CenterDialog } from './CenterDialog';
import { PeopleTable } from './PeopleTable';

/** /manage-centers (ROLE_GROUP, ROLE_ADMIN; issue 21 §9): the group's centers and their AE titles. */
export function ManageCentersPage() {
  const query = useQuery({ queryKey: CENTERS_QUERY_KEY, queryFn: ({ signal }) => fetchCenters(signal) });
  const [editing, setEditing] = useState<TCenter | 'new' | null>(null);
  const centers = query.data ?? [];
  const { data: session } = useSession();
  // The group admin reads the group's dashboards from here, beside the regions it sets (issue 24 §3).
  const dashboards = [
    { path: '/admin-page/dashboard', label: 'Dashboard' },
    { path: '/admin-page/eskag-dashboard', label: 'Region dashboard' },
  ].filter((d) => session && isPathAllowed(session.menuContext, d.path));
  return (
    <Box component="section">
      <PageHeader
        title="Manage centers"
        actions={
          <>
            {dashboards.map((d) => (
              <Button key={d.path} component={RouterLink} to={d.path} variant="outlined">
                {d.label}
              </Button>
            ))}
            <Button variant="contained" onClick={() => setEditing('new')}>
              Add center
            </Button>
          </>
        }
      />
      <PeopleTable
        label="Centers"
        columns={['Name', 'E-mail', 'AE titles', 'Region', 'Contact', 'Actions']}
        fetching={query.isFetching}
        empty={!query.isPending && centers.length === 0}
      >
        {centers.map((center) => (
          <TableRow key={center.id}>
            <TableCell>{center.name}</TableCell>
            <TableCell>{center.email}</TableCell>
            <TableCell>{center.aeTitles.join(', ')}</TableCell>
            <TableCell>{center.region}</TableCell>
            <TableCell>{[center.contactName, center.contactMobile].filter(Boolean).join(' · ')}</TableCell>
            <TableCell align="right">
              <Button size="small" onClick={() => setEditing(center)} aria-label={`Edit ${center.name}`}>
                Edit
              </Button>
            </TableCell>
          </TableRow>
        ))}
      </PeopleTable>
      {editing !== null && (
        <CenterDialog center={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />
      )}
    </Box>
  );
}

export default ManageCentersPage;
