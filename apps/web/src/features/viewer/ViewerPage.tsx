import { Suspense, useEffect, useState } from 'react';
import { useParams, useSearchParams } from 'react-router';
import { FullPageMessage } from '../../components/FullPageMessage';
import { ShellLayout } from '../../app/shell/ShellLayout';
import { ViewerNotice } from './components/ViewerNotice';
import { useSignedInSession } from '../auth/session';
import { useViewerGate } from './viewer-gate';
import { startFirstImage, workspaceMayLoad } from './first-image/first-image';
import { ViewerSkeleton } from './first-image/ViewerSkeleton';
import { dropEarlyPreview } from '../../lib/early-preview-layer';
import { preloadable } from '../../lib/preloadable';

/** `showEditor`, `showEditor=1` or `=true` open the editor panel; `=false` / `=0` do not. */
const isOn = (value: string | null) => value !== null && value !== 'false' && value !== '0';

// The viewer's code (Cornerstone) is its own chunk, asked for once the first image is on screen
// (VIEWER.md "Speed": its evaluation would hold the page's thread before the preview is drawn); it
// is only rendered when the study may be opened.
const loadWorkspace = () => import('./ViewerWorkspace');
const ViewerWorkspace = preloadable(loadWorkspace);

/**
 * /viewer/:studyInstanceUids/:id?v=&p=&d=1&showEditor= (spec-core §2 Viewer entry): the diagnostic
 * viewer (`d=1`; without it the route shows light/LightViewerPage.tsx). The study's context decides
 * whether the images open; viewer-role sessions are checked for payment (§4) — viewer-gate.ts.
 */
export default function ViewerPage() {
  const { id: idParam = '', studyInstanceUids = '' } = useParams();
  const [search] = useSearchParams();
  const id = Number(idParam);
  const session = useSignedInSession();
  // spec-core §2 Viewer entry: typists get the editor (no group setting enables the bare viewer for them yet).
  const isTypist = session.roles.includes('ROLE_TYPIST') && !session.roles.includes('ROLE_DOCTOR');
  const gate = useViewerGate(id);
  const { refusal } = gate;

  // The first image (series, metadata, the slice on screen) first, then the viewer's code.
  const firstStudyUid = studyInstanceUids.split(',')[0] ?? '';
  const [codeMayLoad, setCodeMayLoad] = useState(false);
  useEffect(() => {
    let live = true;
    startFirstImage(firstStudyUid);
    void workspaceMayLoad().then(() => {
      void loadWorkspace().catch(() => undefined);
      if (live) setCodeMayLoad(true);
    });
    return () => {
      live = false;
    };
  }, [firstStudyUid]);

  // The page's early preview never stays over a refusal (it applies the same rules, but the
  // answers may change between its reads and the app's).
  useEffect(() => {
    if (refusal !== null) dropEarlyPreview();
  }, [refusal]);

  // The viewer route takes the whole window (RouteGuard); a study that does not open is told on a
  // page of the shell, so its bar and menu lead elsewhere.
  if (refusal !== null) {
    return (
      <ShellLayout>
        <ViewerNotice text={refusal} />
      </ShellLayout>
    );
  }
  // A viewer session sees no image before the payment check has answered (spec-core §4).
  if (gate.context === null) return <FullPageMessage text="Opening the study…" />;
  // The page frame with the first image while the tools load (never for a study that may not open).
  const loading = <ViewerSkeleton context={gate.context} popup={gate.popup} />;
  if (!codeMayLoad) return loading;
  return (
    <Suspense fallback={loading}>
      <ViewerWorkspace
        context={gate.context}
        showEditor={isTypist || isOn(search.get('showEditor'))}
        popup={gate.popup}
      />
    </Suspense>
  );
}
