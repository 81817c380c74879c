import CloseIcon from '@mui/icons-material/Close';
import SettingsIcon from '@mui/icons-material/SettingsOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import Paper from '@mui/material/Paper';
import Popover from '@mui/material/Popover';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { TNotification, TNotificationsPage } from '@radflow/core';
import { notificationText } from './notification-text';
import type { usePopups } from './usePopups';

/** The bell's list (NotificationBell): 'Mark all as read', the pop-up settings, 'Show older'. */
export function NotificationList({
  anchor,
  page,
  listed,
  shownMore,
  failed,
  onClose,
  onOpen,
  onMarkAll,
  onSettings,
  onShowOlder,
}: {
  anchor: HTMLElement;
  page: TNotificationsPage | undefined;
  listed: readonly TNotification[];
  shownMore: boolean;
  failed: boolean;
  onClose: () => void;
  onOpen: (n: TNotification) => void;
  onMarkAll: () => void;
  onSettings: () => void;
  onShowOlder: () => void;
}) {
  return (
    <Popover
      open
      anchorEl={anchor}
      onClose={onClose}
      anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
      transformOrigin={{ vertical: 'top', horizontal: 'right' }}
      slotProps={{ paper: { sx: { width: 360, maxHeight: 480 } } }}
    >
      <Box role="region" aria-label="Notification list">
        <Stack direction="row" sx={{ px: 1.5, py: 1, gap: 1, alignItems: 'center' }}>
          <Typography variant="subtitle2" sx={{ flex: 1 }}>
            Notifications
          </Typography>
          <Button size="small" disabled={!page || page.unseen === 0} onClick={onMarkAll}>
            Mark all as read
          </Button>
          <IconButton size="small" aria-label="Pop-up settings" title="Pop-up settings" onClick={onSettings}>
            <SettingsIcon fontSize="small" />
          </IconButton>
        </Stack>
        {page && page.notifications.length === 0 && (
          <Typography variant="body2" color="text.secondary" sx={{ px: 1.5, pb: 1.5 }}>
            No notifications
          </Typography>
        )}
        {failed && (
          <Typography variant="body2" color="error" sx={{ px: 1.5, pb: 1.5 }}>
            The notifications could not be loaded.
          </Typography>
        )}
        <List dense disablePadding>
          {listed.map((n) => {
            const text = notificationText(n);
            return (
              <ListItemButton key={n.id} onClick={() => onOpen(n)} selected={!n.seen}>
                <ListItemText
                  primary={text.title}
                  secondary={
                    <>
                      {text.study}
                      <br />
                      {text.byWhen}
                    </>
                  }
                  slotProps={{ primary: { sx: { fontWeight: n.seen ? 400 : 700 } } }}
                />
              </ListItemButton>
            );
          })}
        </List>
        {shownMore && (
          <Button size="small" fullWidth onClick={onShowOlder}>
            Show older
          </Button>
        )}
      </Box>
    </Popover>
  );
}

/** At most 3 pop-ups (core stackPopups), newest on top, each one study's latest two notifications. */
export function PopupStack({
  groups,
  onOpen,
  onDismiss,
}: {
  groups: ReturnType<typeof usePopups>['groups'];
  onOpen: (n: TNotification) => void;
  onDismiss: (ids: readonly number[]) => void;
}) {
  if (groups.length === 0) return null;
  return (
    <Stack
      role="log"
      aria-label="New notifications"
      spacing={1}
      sx={{ position: 'fixed', right: 16, bottom: 16, zIndex: (t) => t.zIndex.snackbar, width: 320 }}
    >
      {groups.map((group) => (
        <Paper key={group.reportStatusId} elevation={6} sx={{ p: 1, display: 'flex', gap: 1 }}>
          <Box sx={{ flex: 1, minWidth: 0 }}>
            {group.items.map((n) => {
              const text = notificationText(n);
              return (
                <Box
                  key={n.id}
                  component="button"
                  type="button"
                  onClick={() => {
                    onDismiss([n.id]);
                    onOpen(n);
                  }}
                  sx={{
                    display: 'block',
                    width: '100%',
                    textAlign: 'left',
                    border: 0,
                    background: 'none',
                    color: 'inherit',
                    cursor: 'pointer',
                    p: 0.5,
                  }}
                >
                  <Typography variant="subtitle2" component="span" sx={{ display: 'block' }}>
                    {text.title}
                  </Typography>
                  <Typography variant="body2" component="span" sx={{ display: 'block' }} noWrap>
                    {text.study}
                  </Typography>
                  <Typography
                    variant="caption"
                    component="span"
                    color="text.secondary"
                    sx={{ display: 'block' }}
                  >
                    {text.byWhen}
                  </Typography>
                </Box>
              );
            })}
          </Box>
          <IconButton
            size="small"
            aria-label="Close"
            onClick={() => onDismiss(group.items.map((n) => n.id))}
            sx={{ alignSelf: 'flex-start' }}
          >
            <CloseIcon fontSize="small" />
          </IconButton>
        </Paper>
      ))}
    </Stack>
  );
}
