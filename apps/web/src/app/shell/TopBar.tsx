import MenuIcon from '@mui/icons-material/Menu';
import AppBar from '@mui/material/AppBar';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import LinearProgress from '@mui/material/LinearProgress';
import Link from '@mui/material/Link';
import Toolbar from '@mui/material/Toolbar';
import { useIsFetching, useIsMutating } from '@tanstack/react-query';
import { Link as RouterLink } from 'react-router';
import { BrandLogo } from '../../features/brand/BrandLogo';
import { NotificationBell } from '../../features/notifications/NotificationBell';
import { SettingsGear } from '../../features/settings/SettingsGear';
import { OnlineListButton } from '../../features/presence/OnlineListButton';
import { SupportChatButton } from '../../features/support-chat/SupportChatButton';
import { useSession } from '../../features/auth/session';
import { AccountMenu } from './AccountMenu';

/** The top bar of spec-core §2 Shell: product name, notification bell, settings gear, account menu. */
export function TopBar({ onOpenMenu, showMenuButton }: { onOpenMenu: () => void; showMenuButton: boolean }) {
  // A background poll (query meta `background`, e.g. the bell's) is not the user waiting for something.
  const busy = useIsFetching({ predicate: (q) => q.meta?.['background'] !== true }) + useIsMutating() > 0;
  // Signing out (a 401, a 403, the account menu) clears the session and the other queries; the
  // refetches that follow re-render this bar before the route guard has left the shell. Its buttons
  // need a session, so the bar draws nothing in that moment rather than failing the page.
  const { data: session } = useSession();
  if (!session) return null;
  return (
    <AppBar position="fixed" sx={{ zIndex: (t) => t.zIndex.drawer + 1 }}>
      <Toolbar sx={{ gap: 1 }}>
        {showMenuButton && (
          <IconButton edge="start" color="inherit" aria-label="Open main menu" onClick={onOpenMenu}>
            <MenuIcon />
          </IconButton>
        )}
        <Link
          component={RouterLink}
          to="/user/get-route"
          color="inherit"
          underline="none"
          aria-label="Home"
          sx={{ display: 'flex', alignItems: 'center' }}
        >
          <BrandLogo size={24} />
        </Link>
        <Box sx={{ flex: 1 }} />
        <NotificationBell />
        <OnlineListButton />
        <SupportChatButton />
        <SettingsGear />
        <AccountMenu />
      </Toolbar>
      <Box sx={{ height: 2 }}>{busy && <LinearProgress sx={{ height: 2 }} aria-label="Loading" />}</Box>
    </AppBar>
  );
}
