import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import { useQuery } from '@tanstack/react-query';
import { Suspense, lazy, useMemo } from 'react';
import { FullPageMessage } from '../../components/FullPageMessage';
import { errorText } from '../../lib/error-text';
import { offlineViewerContext, routerAnnotationStore } from './offline-viewer';
import { hybridStudiesQueryKey, routerInfoQueryKey, type RouterClient } from './router-client';

// The viewer's code (Cornerstone) loads only when a study is opened, as in the cloud.
const OfflineViewerWorkspace = lazy(() =>
  import('../viewer/ViewerWorkspace').then((m) => ({ default: m.OfflineViewerWorkspace })),
);

/** Where the viewer's Close goes back to: the router's list. */
export const HYBRID_LIST_PATH = '/hybrid-study-list';

/**
 * /offline-viewer/:studyInstanceUid on the page the router serves (apps/router/HYBRID.md "The
 * diagnostic viewer offline"): the study the router holds, in the cloud's diagnostic viewer, its
 * images read from the router. The router session (the list's sign-in) is traded first for the
 * cookie the viewer's image reads carry.
 */
export function OfflineViewerPage({
  client,
  studyInstanceUid,
  onClose,
}: {
  client: RouterClient;
  studyInstanceUid: string;
  onClose: () => void;
}) {
  const signedIn = client.hasSession();
  const studies = useQuery({
    queryKey: hybridStudiesQueryKey(client.baseUrl),
    queryFn: () => client.hybridStudies(),
    enabled: signedIn,
  });
  const info = useQuery({
    queryKey: routerInfoQueryKey(client.baseUrl),
    queryFn: () => client.info(),
    enabled: signedIn,
  });
  const cookie = useQuery({
    queryKey: ['router-viewer-session', client.baseUrl],
    queryFn: async () => {
      await client.openViewerSession();
      return true;
    },
    enabled: signedIn,
    staleTime: Infinity,
    retry: false,
  });
  const study = useMemo(
    () => studies.data?.find((s) => s.studyInstanceUid === studyInstanceUid) ?? null,
    [studies.data, studyInstanceUid],
  );
  const context = useMemo(() => (study ? offlineViewerContext(study) : null), [study]);
  const annotations = useMemo(
    () => routerAnnotationStore(client, studyInstanceUid),
    [client, studyInstanceUid],
  );

  const refusal = !signedIn
    ? 'Please sign in to the router first.'
    : (studies.error ?? cookie.error ?? info.error)
      ? errorText(studies.error ?? cookie.error ?? info.error)
      : studies.isSuccess && !study
        ? 'The router does not hold this study.'
        : null;
  if (refusal) {
    return (
      <Box component="main" sx={{ p: 2 }}>
        <Alert severity="warning" sx={{ mb: 2 }}>
          {refusal}
        </Alert>
        <Button variant="contained" onClick={onClose}>
          Back to the list
        </Button>
      </Box>
    );
  }
  if (!context || !cookie.isSuccess || !info.isSuccess) return <FullPageMessage text="Opening the study…" />;
  return (
    <Suspense fallback={<FullPageMessage text="Opening the study…" />}>
      <OfflineViewerWorkspace
        context={context}
        userEmail={info.data.user?.email ?? ''}
        annotations={annotations}
        onClose={onClose}
      />
    </Suspense>
  );
}
