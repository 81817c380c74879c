import { MESSAGES } from '@radflow/core';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { configureApiClient } from '../api/client';
import { signOut } from '../api/identity';
import { useFeedback } from '../components/feedback/feedback-context';
import { clearSession, getSession } from '../features/auth/session';
import { browserLocation } from '../lib/browser-location';

/**
 * Connects the API client's failure decisions (spec-core §8) to the screen: snackbars, the info
 * dialog, and clearing the session (after which the route guard goes to the login page).
 */
export function ApiFailureBridge() {
  const queryClient = useQueryClient();
  const feedback = useFeedback();
  const approvalShown = useRef(false);

  useEffect(
    () =>
      configureApiClient({
        isAuthenticated: () => getSession(queryClient) !== null,
        onFailure: (failure) => {
          switch (failure.kind) {
            case 'device-approval':
              // Several calls may fail at once; one dialog, then log out and reload.
              if (approvalShown.current) return;
              approvalShown.current = true;
              void feedback
                .showInfoDialog({ message: MESSAGES.loginNeedsApproval })
                .then(() => signOut())
                .catch(() => undefined)
                .finally(() => browserLocation.reload());
              return;
            case 'login-again':
            case 'session-expired':
              feedback.showError(MESSAGES.pleaseLoginAgain);
              clearSession(queryClient);
              return;
            case 'message':
              feedback.showError(failure.text);
              return;
          }
        },
      }),
    [queryClient, feedback],
  );
  return null;
}
