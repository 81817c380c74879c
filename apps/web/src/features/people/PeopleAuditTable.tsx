import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import type { TCenter, TManagedUser, TPeopleAuditAction, TPeopleAuditRow } from '@radflow/core';
import { useQuery } from '@tanstack/react-query';
import { fetchPeopleAudit } from '../../api/people';
import { formatTimestamp } from '../../lib/format';
import { EmptyRow } from './EmptyRow';
import { PEOPLE_QUERY_ROOT } from './people-form';

const PEOPLE_AUDIT_QUERY_KEY = [...PEOPLE_QUERY_ROOT, 'audit'] as const;

const ACTION_LABELS: Record<TPeopleAuditAction, string> = {
  CENTER_CREATED: 'Center added',
  CENTER_UPDATED: 'Center edited',
  USER_INVITED: 'User invited',
  USER_UPDATED: 'User edited',
  USER_DEACTIVATED: 'User deactivated',
  USER_ACTIVATED: 'User activated',
  PASSWORD_RESET_SENT: 'Password reset sent',
  INVITATION_RESENT: 'Invitation sent again',
  TYPIST_DOCTORS_SET: "Typist's doctors set",
  PASSWORD_SET_BY_LINK: 'Password set through the link',
  GROUP_SIGNED_UP: 'Group signed up',
};

/** Whom or what a change was about, by name where the lists know it. */
function targetOf(row: TPeopleAuditRow, users: readonly TManagedUser[], centers: readonly TCenter[]): string {
  if (row.targetType === 'CENTER')
    return centers.find((c) => c.id === row.targetId)?.name ?? `Center ${row.targetId}`;
  return users.find((u) => u.id === row.targetId)?.email ?? `User ${row.targetId}`;
}

/** The group's newest changes to centers and users (GET /api/admin/audit), newest first. */
export function PeopleAuditTable({
  users,
  centers,
}: {
  users: readonly TManagedUser[];
  centers: readonly TCenter[];
}) {
  const query = useQuery({
    queryKey: PEOPLE_AUDIT_QUERY_KEY,
    queryFn: ({ signal }) => fetchPeopleAudit(signal),
  });
  const rows = query.data ?? [];
  return (
    <Paper variant="outlined">
      <TableContainer>
        <Table aria-label="Recent changes" size="small">
          <TableHead>
            <TableRow>
              <TableCell>When</TableCell>
              <TableCell>Change</TableCell>
              <TableCell>About</TableCell>
              <TableCell>By</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {!query.isPending && rows.length === 0 && <EmptyRow colSpan={4} />}
            {rows.map((row) => (
              <TableRow key={row.id}>
                <TableCell>{formatTimestamp(row.createdAt)}</TableCell>
                <TableCell>{ACTION_LABELS[row.action]}</TableCell>
                <TableCell>{targetOf(row, users, centers)}</TableCell>
                <TableCell>{row.actorEmail}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </TableContainer>
    </Paper>
  );
}
