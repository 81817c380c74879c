import {
  MESSAGES,
  correctedViewerSearch,
  isViewerSession,
  viewerQueryOf,
  type TViewerContext,
} from '@radflow/core';
import { useEffect } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { ApiError } from '../../api/client';
import { useFeedback } from '../../components/feedback/feedback-context';
import { useSignedInSession } from '../auth/session';
import { useSharePaymentPolling, useViewerContext, useViewerHeartbeat } from './viewer-api';
import { PAYMENT_REDIRECT_DELAY_MS, paymentRedirectPath, viewerEntryOf } from './viewer-entry';

export interface TViewerGate {
  /** The study's context once it is in and the study may open; null while waiting or refused. */
  context: TViewerContext | null;
  /** Why the study does not open (shown on a plain page), or null. */
  refusal: string | null;
  /** A viewer session's payment check has not answered yet: no image is shown (spec-core §4). */
  waiting: boolean;
  /** `p=1`: the page is a popup window (core `viewerQueryOf`). */
  popup: boolean;
}

/**
 * What both viewers do before an image (spec-core §2 Viewer entry, §4 Viewer payment): the study's
 * context and its entry verdict, a viewer session's payment check and redirect, the partial-upload
 * warning, the activity heartbeat, and `v` put right in the address once the study's api version
 * is known (core `correctedViewerSearch`).
 */
export function useViewerGate(id: number): TViewerGate {
  const session = useSignedInSession();
  const navigate = useNavigate();
  const location = useLocation();
  const { showError } = useFeedback();
  const viewerSession = isViewerSession(session.roles);
  const paymentNotDone = useSharePaymentPolling(viewerSession);
  const context = useViewerContext(id);
  const opening = context.data ? viewerEntryOf(context.data) : null;
  const warning = opening?.kind === 'open' ? opening.warning : null;
  useViewerHeartbeat(id, opening?.kind === 'open' && !paymentNotDone);

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

  const apiVersion = context.data?.apiVersion;
  useEffect(() => {
    if (apiVersion === undefined) return;
    const search = correctedViewerSearch(location.search, apiVersion);
    if (search !== null) void navigate({ search, hash: location.hash }, { replace: true });
  }, [apiVersion, location.search, location.hash, navigate]);

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
  const open = refusal === null && opening?.kind === 'open' && paymentNotDone !== undefined;
  return {
    context: open ? (context.data ?? null) : null,
    refusal,
    waiting: !open,
    popup: viewerQueryOf(location.search).popup,
  };
}
