import { WORKLIST_MESSAGES } from '@radflow/core';

/** What the viewer route does with the study's context (spec-core §2 Viewer entry, §5). */
export type TViewerOpening = { kind: 'blocked'; message: string } | { kind: 'open'; warning: string | null };

/**
 * The server decides who may open the study and why not (its `entry`); the viewer shows a refusal on
 * a plain page and opens a partly uploaded study with its warning (the images so far are readable).
 */
export function viewerEntryOf(context: {
  entry: { allowed: boolean; message?: string | undefined };
  upload: 'NONE' | 'PARTIAL' | 'COMPLETE';
}): TViewerOpening {
  if (!context.entry.allowed) {
    return { kind: 'blocked', message: context.entry.message ?? 'You are not allowed to view this page' };
  }
  return {
    kind: 'open',
    warning:
      context.upload === 'PARTIAL'
        ? (context.entry.message ?? WORKLIST_MESSAGES.studyNotFullyUploaded)
        : null,
  };
}

/** spec-core §4 Viewer payment: where a viewer session goes when the payment is not done. */
export function paymentRedirectPath(email: string): string {
  return `/share?link=${encodeURIComponent(email)}`;
}

/** spec-core §9: the redirect waits 2 s after 'Payment needed'. */
export const PAYMENT_REDIRECT_DELAY_MS = 2000;
