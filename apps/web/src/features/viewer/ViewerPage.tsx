import { MESSAGES, isViewerSession } from '@radflow/core';
import { Suspense, lazy, useEffect, useState } from 'react';
import { useNavigate, useParams, useSearchParams } from 'react-router';
import { ApiError } from '../../api/client';
import { FullPageMessage } from '../../components/FullPageMessage';
import { ShellLayout } from '../../app/shell/ShellLayout';
import { ViewerNotice } from './components/ViewerNotice';
import { useFeedback } from '../../components/feedback/feedback-context';
import { useSignedInSession } from '../auth/session';
import { useSharePaymentPolling, useViewerContext, useViewerHeartbeat } from './viewer-api';
import { PAYMENT_REDIRECT_DELAY_MS, paymentRedirectPath, viewerEntryOf } from './viewer-entry';
import { startFirstImage, workspaceMayLoad } from './first-image/first-image';
import { ViewerSkeleton } from './first-image/ViewerSkeleton';
import { dropEarlyPreview } from '../../lib/early-preview-layer';

/** `showEditor`, `showEditor=1` or `=true` open the editor panel; `=false` / `=0` do not. */
const isOn = (value: string | null) => value !== null && value !== 'false' && value !== '0';

// The viewer's code (Cornerstone) is its own chunk, asked for once the first image is on screen
// (VIEWER.md "Speed": its evaluation would hold the page's thread before the preview is drawn); it
// is only rendered when the study may be opened.
const loadWorkspace = () => import('./ViewerWorkspace');
const ViewerWorkspace = lazy(loadWorkspace);

/**
 * /viewer/:studyInstanceUids/:id?v=&p=&d=&showEditor= (spec-core §2 Viewer entry): the study's
 * context decides whether the images open; viewer-role sessions are checked for payment (§4).
 */
export default function ViewerPage() {
  const { id: idParam = '', studyInstanceUids = '' } = useParams();
  const [search] = useSearchParams();
  const id = Number(idParam);
  const session = useSignedInSession();
  const navigate = useNavigate();
  const { showError } = useFeedback();
  const viewerSession = isViewerSession(session.roles);
  // spec-core §2 Viewer entry: typists get the editor (no group setting enables the bare viewer for them yet).
  const isTypist = session.roles.includes('ROLE_TYPIST') && !session.roles.includes('ROLE_DOCTOR');
  const paymentNotDone = useSharePaymentPolling(viewerSession);
  const context = useViewerContext(id);
  const opening = context.data ? viewerEntryOf(context.data) : null;
  const warning = opening?.kind === 'open' ? opening.warning : null;
  useViewerHeartbeat(id, opening?.kind === 'open' && !paymentNotDone);

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

  useEffect(() => {
    if (!paymentNotDone) return undefined;
    showError(MESSAGES.paymentNeeded);
    const timer = window.setTimeout(
      () => void navigate(paymentRedirectPath(session.user.email)),
      PAYMENT_REDIRECT_DELAY_MS,
    );
    return () => window.clearTimeout(timer);
  }, [paymentNotDone, navigate, session.user.email, showError]);

  useEffect(() => {
    if (warning) showError(warning);
  }, [warning, showError]);

  // The server refuses a viewer account's content with 402 while the payment is due (payments
  // payment-gate): that answer says 'Payment needed' even before the poll does.
  const paymentRefused = context.error instanceof ApiError && context.error.status === 402;
  const refusal =
    paymentNotDone || paymentRefused
      ? MESSAGES.paymentNeeded
      : context.isError
        ? MESSAGES.notFound
        : opening?.kind === 'blocked'
          ? opening.message
          : null;
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
  if (!context.data || opening?.kind !== 'open' || paymentNotDone === undefined) {
    return <FullPageMessage text="Opening the study…" />;
  }
  // The page frame with the first image while the tools load (never for a study that may not open).
  const loading = <ViewerSkeleton context={context.data} />;
  if (!codeMayLoad) return loading;
  return (
    <Suspense fallback={loading}>
      <ViewerWorkspace context={context.data} showEditor={isTypist || isOn(search.get('showEditor'))} />
    </Suspense>
  );
}
