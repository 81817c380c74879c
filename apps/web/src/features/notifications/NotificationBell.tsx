import CloseIcon from '@mui/icons-material/Close';
import NotificationsIcon from '@mui/icons-material/NotificationsOutlined';
import SettingsIcon from '@mui/icons-material/SettingsOutlined';
import Badge from '@mui/material/Badge';
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
import { hasNotifications, opensStudies, type TNotification, type TRole } from '@radflow/core';
import { lazy, Suspense, useCallback, useState } from 'react';
import { useNavigate } from 'react-router';
import { useSession } from '../auth/session';
import { viewerPath } from '../study-actions/row-actions';
import { notificationText } from './notification-text';
import { fetchNotifications, useMarkSeen, useNotifications } from './notifications.api';
import { usePopups } from './usePopups';

const NotificationSettingsDialog = lazy(() => import('./NotificationSettingsDialog'));

/**
 * The notification bell of the top bar (issue 23 §2; spec-core §2 'notification bell with unseen
 * count'): the unseen count, the list (a click opens the study and marks it read; 'Mark all as
 * read'), the pop-ups and their settings. Shown to every role that is an audience of something
 * (core `hasNotifications`; server modules/notifications/README.md).
 */
export function NotificationBell() {
  // Not useSignedInSession: signing out clears the session while the shell is still drawn.
  const roles = useSession().data?.roles;
  return roles && hasNotifications(roles) ? <Bell roles={roles} /> : null;
}

function Bell({ roles }: { roles: readonly TRole[] }) {
  const navigate = useNavigate();
  const query = useNotifications(roles);
  const markSeen = useMarkSeen();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [settingsOpen, setSettingsOpen] = useState(false);
  const page = query.data;
  // Older pages asked for with 'Show older' (newest first after the first page); kept while open.
  const [older, setOlder] = useState<{ items: TNotification[]; more: boolean } | null>(null);
  const shownMore = older ? older.more : (page?.more ?? false);
  const listed = [...(page?.notifications ?? []), ...(older?.items ?? [])];
  const showOlder = async () => {
    const last = listed.at(-1);
    if (!last) return;
    const next = await fetchNotifications(undefined, last.id).catch(() => null);
    if (next) setOlder({ items: [...(older?.items ?? []), ...next.notifications], more: next.more });
  };

  const open = useCallback(
    (n: TNotification) => {
      setAnchor(null);
      setOlder(null);
      if (!n.seen) markSeen.mutate([n.id]);
      if (opensStudies(roles)) {
        void navigate(
          viewerPath({ instanceId: n.studyInstanceUid, id: n.reportStatusId, apiVersion: n.apiVersion }),
        );
      }
    },
    [markSeen, navigate, roles],
  );
  const popups = usePopups(page, open);

  return (
    <>
      <IconButton
        aria-label="Notifications"
        // The name stays 'Notifications'; the tooltip says the count in words.
        title={page && page.unseen > 0 ? `Notifications: ${page.unseen} unread` : 'Notifications'}
        color="inherit"
        onClick={(e) => setAnchor(e.currentTarget)}
      >
        <Badge badgeContent={page?.unseen ?? 0} color="error" max={99} data-testid="notification-count">
          <NotificationsIcon />
        </Badge>
      </IconButton>
      <Popover
        open={anchor !== null}
        anchorEl={anchor}
        onClose={() => {
          setAnchor(null);
          setOlder(null);
        }}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
        transformOrigin={{ vertical: 'top', horizontal: 'right' }}
        slotProps={{ paper: { sx: { width: 360, maxHeight: 480 } } }}
      >
        <Box role="region" aria-label="Notification list">
          <Stack direction="row" sx={{ px: 1.5, py: 1, gap: 1, alignItems: 'center' }}>
            <Typography variant="subtitle2" sx={{ flex: 1 }}>
              Notifications
            </Typography>
            <Button
              size="small"
              disabled={!page || page.unseen === 0}
              onClick={() => {
                setOlder(null);
                markSeen.mutate(null);
              }}
            >
              Mark all as read
            </Button>
            <IconButton
              size="small"
              aria-label="Pop-up settings"
              title="Pop-up settings"
              onClick={() => {
                setAnchor(null);
                setSettingsOpen(true);
              }}
            >
              <SettingsIcon fontSize="small" />
            </IconButton>
          </Stack>
          {page && page.notifications.length === 0 && (
            <Typography variant="body2" color="text.secondary" sx={{ px: 1.5, pb: 1.5 }}>
              No notifications
            </Typography>
          )}
          {query.isError && !page && (
            <Typography variant="body2" color="error" sx={{ px: 1.5, pb: 1.5 }}>
              The notifications could not be loaded.
            </Typography>
          )}
          <List dense disablePadding>
            {listed.map((n) => {
              const text = notificationText(n);
              return (
                <ListItemButton key={n.id} onClick={() => open(n)} selected={!n.seen}>
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
            <Button size="small" fullWidth onClick={() => void showOlder()}>
              Show older
            </Button>
          )}
        </Box>
      </Popover>
      <PopupStack groups={popups.groups} onOpen={open} onDismiss={popups.dismiss} />
      {settingsOpen && (
        <Suspense fallback={null}>
          <NotificationSettingsDialog
            current={
              page ? { popupKinds: page.popupKinds, browserNotifications: page.browserNotifications } : null
            }
            onClose={() => setSettingsOpen(false)}
          />
        </Suspense>
      )}
    </>
  );
}

/** At most 3 pop-ups (core stackPopups), newest on top, each one study's latest two notifications. */
function PopupStack({
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
