import Box from '@mui/material/Box';
import Toolbar from '@mui/material/Toolbar';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import { FEATURE_TOUR_ID, isTutorialDue } from '@radflow/core';
import { Suspense, useState, type ReactNode } from 'react';
import { useSignedInSession } from '../../features/auth/session';
import { useLiveUpdates } from '../../lib/live';
import { Footer } from './Footer';
import { SideDrawer } from './SideDrawer';
import { SubscriptionBanner } from './SubscriptionBanner';
import { TopBar } from './TopBar';
import { useTutorialStatus } from '../../features/tour/useTutorialStatus';
import { preloadable } from '../../lib/preloadable';

// The tour's offer, card and steps load only for a user it is due for: most users finished or
// skipped it long ago, and it is not the login + study list bundle's to carry.
const FeatureTour = preloadable(() =>
  import('../../features/tour/FeatureTour').then((m) => ({ default: m.FeatureTour })),
);

function FeatureTourWhenDue() {
  const { status } = useTutorialStatus();
  if (!status || !isTutorialDue(status, FEATURE_TOUR_ID)) return null;
  return (
    <Suspense fallback={null}>
      <FeatureTour />
    </Suspense>
  );
}

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
          <FeatureTourWhenDue />
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
