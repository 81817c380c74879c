import Box from '@mui/material/Box';
import { useMemo } from 'react';
import { HybridStudyListScreen } from './HybridStudyList';
import { createRouterClient } from './router-client';

/**
 * The app as the router serves it with the cloud unreachable (apps/router/HYBRID.md): the hybrid
 * study list against the router at this page's own origin, with the router's own sign-in. The
 * cloud's screens (and its session) are not part of it.
 */
export default function RouterOfflineApp() {
  const client = useMemo(() => createRouterClient(window.location.origin), []);
  return (
    <Box component="main" sx={{ p: 2 }}>
      <HybridStudyListScreen client={client} knownEmail={null} />
    </Box>
  );
}
