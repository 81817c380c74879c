import NotificationsIcon from '@mui/icons-material/NotificationsOutlined';
import Badge from '@mui/material/Badge';
import IconButton from '@mui/material/IconButton';
import {
  hasNotifications,
  opensStudies,
  type TNotification,
  type TRole,
  defaultViewerKind,
} from '@radflow/core';
import { Suspense, useCallback, useState } from 'react';
import { useNavigate } from 'react-router';
import { useSession } from '../auth/session';
import { viewerPath } from '../study-actions/row-actions';
import { fetchNotifications, useMarkSeen, useNotifications } from './notifications.api';
import { usePopups } from './usePopups';
import { openWhenLoaded, preloadable } from '../../lib/preloadable';

const NotificationSettingsDialog = preloadable(() => import('./NotificationSettingsDialog'));
// The list and the pop-ups load when first shown: the signed-in shell's first load stays within
// the list's bundle budget (bench/web-bundle.ts).
const NotificationList = preloadable(() =>
  import('./NotificationPanels').then((m) => ({ default: m.NotificationList })),
);
const PopupStack = preloadable(() => import('./NotificationPanels').then((m) => ({ default: m.PopupStack })));

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
          viewerPath(
            { instanceId: n.studyInstanceUid, id: n.reportStatusId, apiVersion: n.apiVersion },
            { kind: defaultViewerKind(roles) },
          ),
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
        onClick={(e) => {
          const button = e.currentTarget;
          openWhenLoaded(NotificationList, () => setAnchor(button));
        }}
      >
        <Badge badgeContent={page?.unseen ?? 0} color="error" max={99} data-testid="notification-count">
          <NotificationsIcon />
        </Badge>
      </IconButton>
      {anchor !== null && (
        <Suspense fallback={null}>
          <NotificationList
            anchor={anchor}
            page={page}
            listed={listed}
            shownMore={shownMore}
            failed={query.isError && !page}
            onClose={() => {
              setAnchor(null);
              setOlder(null);
            }}
            onOpen={open}
            onMarkAll={() => {
              setOlder(null);
              markSeen.mutate(null);
            }}
            onSettings={() => {
              setAnchor(null);
              openWhenLoaded(NotificationSettingsDialog, () => setSettingsOpen(true));
            }}
            onShowOlder={() => void showOlder()}
          />
        </Suspense>
      )}
      {popups.groups.length > 0 && (
        <Suspense fallback={null}>
          <PopupStack groups={popups.groups} onOpen={open} onDismiss={popups.dismiss} />
        </Suspense>
      )}
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
