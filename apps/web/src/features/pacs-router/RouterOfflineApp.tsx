import Box from '@mui/material/Box';
import { useMemo } from 'react';
import { BrowserRouter, useLocation, useNavigate } from 'react-router';
import { HybridStudyListScreen } from './HybridStudyList';
import { offlineViewerStudyOf } from './offline-viewer';
import { HYBRID_LIST_PATH, OfflineViewerPage } from './OfflineViewerPage';
import { createRouterClient, type RouterClient } from './router-client';

/**
 * The app as the router serves it with the cloud unreachable (apps/router/HYBRID.md): the hybrid
 * study list against the router at this page's own origin, with the router's own sign-in, and a
 * study of it in the diagnostic viewer (/offline-viewer/:studyInstanceUid). The cloud's screens (and
 * its session) are not part of it.
 */
export default function RouterOfflineApp() {
  const client = useMemo(() => createRouterClient(window.location.origin), []);
  return (
    <BrowserRouter>
      <OfflineScreens client={client} />
    </BrowserRouter>
  );
}

function OfflineScreens({ client }: { client: RouterClient }) {
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const viewing = offlineViewerStudyOf(pathname);
  if (viewing !== null) {
    return (
      <OfflineViewerPage
        client={client}
        studyInstanceUid={viewing}
        onClose={() => void navigate(HYBRID_LIST_PATH)}
      />
    );
  }
  return (
    <Box component="main" sx={{ p: 2 }}>
      <HybridStudyListScreen client={client} knownEmail={null} />
    </Box>
  );
}
