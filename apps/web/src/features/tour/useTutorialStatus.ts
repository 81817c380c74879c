import { type TTutorialStatus } from '@radflow/core';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useSession } from '../auth/session';
import { postSection, storeSection } from '../settings/settings-api';

/**
 * The signed-in user's TUTORIAL_STATUS (spec-core §3) and a save that shows at once and is kept on
 * the server, so the tour and the coach marks follow the user to any browser (issue 29 §7). A save
 * that fails leaves the screen as the user left it: the tour is offered again on the next load.
 */
export function useTutorialStatus(): {
  status: TTutorialStatus | null;
  save: (next: TTutorialStatus) => void;
} {
  const queryClient = useQueryClient();
  const { data: session } = useSession();
  const save = useCallback(
    (next: TTutorialStatus) => {
      storeSection(queryClient, 'TUTORIAL_STATUS', next);
      void postSection('update', 'TUTORIAL_STATUS', next)
        .then((answer) => storeSection(queryClient, 'TUTORIAL_STATUS', answer))
        .catch(() => undefined);
    },
    [queryClient],
  );
  return { status: session?.preferences.TUTORIAL_STATUS ?? null, save };
}
