import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import MenuItem from '@mui/material/MenuItem';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import { ROLES, type TManagedUser, type TRole, canManageUser } from '@radflow/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { fetchCenters, fetchManagedUsers, sendPasswordLink, setUserActive } from '../../api/people';
import { useFeedback } from '../../components/feedback/feedback-context';
import { PageHeader } from '../../components/PageHeader';
import { useSession } from '../auth/session';
import { CENTERS_QUERY_KEY } from './CenterDialog';
import { PEOPLE_QUERY_ROOT, roleLabel } from './people-form';
import { PeopleAuditTable } from './PeopleAuditTable';
import { PeopleTable } from './PeopleTable';
import { TypistDoctorsDialog } from './TypistDoctorsDialog';
import { USERS_QUERY_KEY, UserDialog } from './UserDialog';

type TOpen =
  { kind: 'invite' } | { kind: 'edit'; user: TManagedUser } | { kind: 'doctors'; user: TManagedUser };

function stateOf(user: TManagedUser): { label: string; color: 'success' | 'warning' | 'default' } {
  if (!user.active) return { label: 'Deactivated', color: 'default' };
  if (user.invitationPending) return { label: 'Invitation pending', color: 'warning' };
  return { label: 'Active', color: 'success' };
}

/**
 * /manage-users (ROLE_GROUP, ROLE_ADMIN; issue 21 §9): the group's people with their roles, invited
 * by e-mail or SMS, edited, deactivated, sent a password link; a typist's doctors; referring doctors
 * are the users with that role (the role filter lists them).
 */
export function ManageUsersPage() {
  const { data: session } = useSession();
  const actorRoles: readonly TRole[] = session?.roles ?? [];
  const users = useQuery({ queryKey: USERS_QUERY_KEY, queryFn: ({ signal }) => fetchManagedUsers(signal) });
  const centers = useQuery({ queryKey: CENTERS_QUERY_KEY, queryFn: ({ signal }) => fetchCenters(signal) });
  const [roleFilter, setRoleFilter] = useState<TRole | ''>('');
  const [open, setOpen] = useState<TOpen | null>(null);
  const [showChanges, setShowChanges] = useState(false);
  const { confirm, showInfo } = useFeedback();
  const queryClient = useQueryClient();

  const activeMutation = useMutation({
    mutationFn: ({ user, active }: { user: TManagedUser; active: boolean }) => setUserActive(user.id, active),
    onSuccess: async (saved) => {
      showInfo(saved.active ? `${saved.identifier} activated` : `${saved.identifier} deactivated`);
      await queryClient.invalidateQueries({ queryKey: PEOPLE_QUERY_ROOT });
    },
  });
  const linkMutation = useMutation({
    mutationFn: ({ user }: { user: TManagedUser }) =>
      sendPasswordLink(user.id, user.invitationPending ? 'INVITE' : 'RESET', 'EMAIL'),
    onSuccess: async (sent) => {
      showInfo(`Link sent to ${sent.recipient}`);
      await queryClient.invalidateQueries({ queryKey: PEOPLE_QUERY_ROOT });
    },
  });

  const toggleActive = async (user: TManagedUser) => {
    const ok = await confirm({
      title: user.active ? 'Deactivate user' : 'Activate user',
      message: user.active
        ? `Deactivate ${user.identifier}? They are signed out everywhere and their API tokens stop working.`
        : `Let ${user.identifier} sign in again?`,
    });
    if (ok) activeMutation.mutate({ user, active: !user.active });
  };

  const all = users.data ?? [];
  const rows = roleFilter ? all.filter((u) => u.roles.includes(roleFilter)) : all;
  const centerName = (id: number | null) => centers.data?.find((c) => c.id === id)?.name ?? '';
  const doctors = all.filter((u) => u.active && u.roles.includes('ROLE_DOCTOR'));

  return (
    <Box component="section">
      <PageHeader
        title="Manage users"
        actions={
          <Button variant="contained" onClick={() => setOpen({ kind: 'invite' })}>
            Invite user
          </Button>
        }
      />
      <TextField
        select
        label="Role"
        value={roleFilter}
        onChange={(e) => setRoleFilter(e.target.value as TRole | '')}
        sx={{ minWidth: 220, mb: 1.5 }}
        slotProps={{ inputLabel: { shrink: true }, select: { displayEmpty: true } }}
      >
        <MenuItem value="">All roles</MenuItem>
        {ROLES.map((r) => (
          <MenuItem key={r} value={r}>
            {roleLabel(r)}
          </MenuItem>
        ))}
      </TextField>
      <PeopleTable
        label="Users"
        columns={['Name', 'E-mail', 'Mobile', 'Roles', 'Center', 'State', 'Actions']}
        fetching={users.isFetching}
        empty={!users.isPending && rows.length === 0}
      >
        {rows.map((user) => {
          const state = stateOf(user);
          const manageable = canManageUser(actorRoles, user.roles);
          const isSelf = user.email === session?.user.email;
          return (
            <TableRow key={user.id} aria-label={user.email}>
              <TableCell>{user.identifier}</TableCell>
              <TableCell>{user.email}</TableCell>
              <TableCell>{user.mobileNumber ?? ''}</TableCell>
              <TableCell>{user.roles.map(roleLabel).join(', ')}</TableCell>
              <TableCell>{centerName(user.centerId)}</TableCell>
              <TableCell>
                <Chip size="small" label={state.label} color={state.color} variant="outlined" />
              </TableCell>
              <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                {manageable && (
                  <>
                    <Button size="small" onClick={() => setOpen({ kind: 'edit', user })}>
                      Edit
                    </Button>
                    {user.roles.includes('ROLE_TYPIST') && (
                      <Button size="small" onClick={() => setOpen({ kind: 'doctors', user })}>
                        Doctors
                      </Button>
                    )}
                    {user.active && (
                      <Button
                        size="small"
                        disabled={linkMutation.isPending}
                        onClick={() => linkMutation.mutate({ user })}
                      >
                        {user.invitationPending ? 'Resend invitation' : 'Reset password'}
                      </Button>
                    )}
                    {!isSelf && (
                      <Button
                        size="small"
                        color={user.active ? 'error' : 'primary'}
                        onClick={() => void toggleActive(user)}
                      >
                        {user.active ? 'Deactivate' : 'Activate'}
                      </Button>
                    )}
                  </>
                )}
              </TableCell>
            </TableRow>
          );
        })}
      </PeopleTable>
      <Button sx={{ mt: 2, mb: 1 }} onClick={() => setShowChanges((v) => !v)} aria-expanded={showChanges}>
        {showChanges ? 'Hide recent changes' : 'Show recent changes'}
      </Button>
      {showChanges && <PeopleAuditTable users={all} centers={centers.data ?? []} />}
      {open?.kind === 'invite' && (
        <UserDialog
          user={null}
          actorRoles={actorRoles}
          centers={centers.data ?? []}
          onClose={() => setOpen(null)}
        />
      )}
      {open?.kind === 'edit' && (
        <UserDialog
          user={open.user}
          actorRoles={actorRoles}
          centers={centers.data ?? []}
          onClose={() => setOpen(null)}
        />
      )}
      {open?.kind === 'doctors' && (
        <TypistDoctorsDialog typist={open.user} doctors={doctors} onClose={() => setOpen(null)} />
      )}
    </Box>
  );
}

export default ManageUsersPage;
