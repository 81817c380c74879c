import Box from '@mui/material/Box';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { AUTO_REFRESH_MS, type TActiveInViewer, type TViewerActivity, ZActiveInViewer } from '@radflow/core';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../api/client';
import { formatTimestamp } from '../../lib/format';

const NO_ONE: readonly TViewerActivity[] = [];

/**
 * spec-core §6: an assignor of a group with showActiveInViewer sees, per row of the page on screen,
 * the three users most recently active on it in the viewer (one call for the page, refreshed with
 * the list); `usersOf` gives a row's users. The session's group switches decide `enabled`.
 */
export function useActiveInViewer(
  ids: readonly number[],
  { enabled, autoRefresh }: { enabled: boolean; autoRefresh: boolean },
): { usersOf: (id: number) => readonly TViewerActivity[] } {
  const query = useQuery({
    queryKey: ['active-in-viewer', ids],
    queryFn: ({ signal }): Promise<TActiveInViewer> =>
      apiRequest('/api/viewer/active-users', {
        json: { ids },
        schema: ZActiveInViewer,
        signal,
        quiet: true,
      }),
    enabled: enabled && ids.length > 0,
    refetchInterval: autoRefresh ? AUTO_REFRESH_MS : false,
  });
  const byId = query.data?.activeUsers;
  return { usersOf: (id) => byId?.[String(id)] ?? NO_ONE };
}

/** "2 min ago" style age of an activity, for the cell; the tooltip has the exact time. */
export function activityAge(lastActive: string, now: number): string {
  const minutes = Math.max(0, Math.floor((now - Date.parse(lastActive)) / 60_000));
  if (minutes < 1) return 'now';
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `${hours} h ago`;
  return `${Math.floor(hours / 24)} d ago`;
}

/** The row's recent viewer users, newest first: e-mail and how long ago. */
export function ActiveInViewerCell({ users, now }: { users: readonly TViewerActivity[]; now: number }) {
  if (users.length === 0) return <>—</>;
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column' }} data-testid="active-in-viewer">
      {users.map((u) => (
        <Tooltip key={u.userEmail} title={`Last active ${formatTimestamp(u.lastActive)}`}>
          <Typography variant="caption" noWrap>
            {u.userEmail} · {activityAge(u.lastActive, now)}
          </Typography>
        </Tooltip>
      ))}
    </Box>
  );
}
