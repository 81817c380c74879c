import Box from '@mui/material/Box';
import Toolbar from '@mui/material/Toolbar';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import { Suspense, useState, type ReactNode } from 'react';
import { useSignedInSession } from '../../features/auth/session';
import { useLiveUpdates } from '../../lib/live';
import { Footer } from './Footer';
import { SideDrawer } from './SideDrawer';
import { SubscriptionBanner } from './SubscriptionBanner';
import { TopBar } from './TopBar';
import { FeatureTour } from '../../features/tour/FeatureTour';

/** The signed-in frame: top bar, side drawer, subscription banner, the screen, footer. */
export function ShellLayout({ children }: { children: ReactNode }) {
  const theme = useTheme();
  const wide = useMediaQuery(theme.breakpoints.up('md'), { noSsr: true });
  const [drawerOpen, setDrawerOpen] = useState(false);
  const { flags } = useSignedInSession();
  // The tab's one live stream: lists and open studies refetch when a study changes elsewhere.
  useLiveUpdates();

  return (
    <Box sx={{ display: 'flex', minHeight: '100vh' }}>
      <TopBar showMenuButton={!wide} onOpenMenu={() => setDrawerOpen(true)} />
      <SideDrawer permanent={wide} open={drawerOpen} onClose={() => setDrawerOpen(false)} />
      <Box sx={{ flex: 1, minWidth: 0, display: 'flex', flexDirection: 'column' }}>
        <Toolbar />
        <Box sx={{ height: 2 }} />
        {flags.showSubscriptionWarning && <SubscriptionBanner />}
        <Box component="main" sx={{ flex: 1, p: { xs: 1.5, md: 2.5 }, minWidth: 0 }}>
          {/* The offer draws with the screen (drawn later, it pushed the screen down under the
              pointer); the Suspense is for its card, which loads once the offer is shown. */}
          <Suspense fallback={null}>
            <FeatureTour />
          </Suspense>
          {children}
        </Box>
        <Footer signedIn />
      </Box>
    </Box>
  );
}

/** The frame of the login page and of public pages seen signed out. */
export function PublicLayout({ children }: { children: ReactNode }) {
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', minHeight: '100vh' }}>
      <Box sx={{ flex: 1, display: 'flex', flexDirection: 'column' }}>{children}</Box>
      <Footer />
    </Box>
  );
}
