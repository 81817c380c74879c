import PeopleIcon from '@mui/icons-material/PeopleAltOutlined';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Popover from '@mui/material/Popover';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { seesOnlineStatuses, sortOnlineFirst, type TBeatResponse } from '@radflow/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useSignedInSession } from '../auth/session';
import { PRESENCE_BEAT_KEY } from './presence-api';

/**
 * The doctor online-status list (spec-core §2; spec-lab §6): for doctors and centers (core
 * `seesOnlineStatuses`), the group's doctors with a green or grey dot, ONLINE first. It shows the
 * tab's last beat and asks for a new one when opened.
 */
export function OnlineListButton() {
  const { roles } = useSignedInSession();
  if (!seesOnlineStatuses(roles)) return null;
  return <OnlineList />;
}

function OnlineList() {
  const queryClient = useQueryClient();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  // The host's beat fills this query; this button only reads it.
  const beat = useQuery<TBeatResponse>({ queryKey: PRESENCE_BEAT_KEY, enabled: false });
  const doctors = sortOnlineFirst(beat.data?.onlineStatuses ?? []);
  const online = doctors.filter((d) => d.status === 'ONLINE').length;
  const label = `Doctors online: ${online}`;
  return (
    <>
      <Tooltip title={label}>
        <IconButton
          color="inherit"
          aria-label={label}
          onClick={(e) => {
            setAnchor(e.currentTarget);
            void queryClient.refetchQueries({ queryKey: PRESENCE_BEAT_KEY, exact: true });
          }}
        >
          <PeopleIcon />
        </IconButton>
      </Tooltip>
      <Popover
        open={anchor !== null}
        anchorEl={anchor}
        onClose={() => setAnchor(null)}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
        transformOrigin={{ vertical: 'top', horizontal: 'right' }}
      >
        <Box sx={{ minWidth: 260, maxHeight: 420, overflowY: 'auto' }}>
          <Typography variant="subtitle2" sx={{ px: 2, pt: 1.5 }}>
            Doctors
          </Typography>
          {doctors.length === 0 ? (
            <Typography variant="body2" color="text.secondary" sx={{ px: 2, py: 1.5 }}>
              {beat.data ? 'No doctors to show.' : 'Loading…'}
            </Typography>
          ) : (
            <List dense aria-label="Doctors online">
              {doctors.map((d) => (
                <ListItem key={d.email} data-testid="online-doctor" data-status={d.status}>
                  <Box
                    component="span"
                    role="img"
                    aria-label={d.status === 'ONLINE' ? 'Online' : 'Offline'}
                    sx={{
                      width: 10,
                      height: 10,
                      borderRadius: '50%',
                      mr: 1.5,
                      flexShrink: 0,
                      bgcolor: d.status === 'ONLINE' ? 'success.main' : 'grey.500',
                    }}
                  />
                  <ListItemText primary={d.email} />
                </ListItem>
              ))}
            </List>
          )}
        </Box>
      </Popover>
    </>
  );
}
