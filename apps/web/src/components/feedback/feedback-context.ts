import { createContext, useContext, type ReactNode } from 'react';

export type TSnackbarKind = 'error' | 'info';

export interface TConfirmOptions {
  title?: string;
  message: ReactNode;
  confirmLabel?: string;
  cancelLabel?: string;
}

export interface TInfoOptions {
  title?: string;
  message: ReactNode;
}

/**
 * The global feedback of spec-core §2 Shell and §8: error and info snackbars, the confirm dialog
 * (Confirm/Cancel), the info dialog (Close) and the loading indicator, usable from any screen.
 */
export interface TFeedback {
  showError: (text: string) => void;
  showInfo: (text: string) => void;
  /** Resolves true on Confirm, false on Cancel or dismissal. */
  confirm: (options: TConfirmOptions) => Promise<boolean>;
  /** Resolves when the user closes the dialog. */
  showInfoDialog: (options: TInfoOptions) => Promise<void>;
  /** Shows the loading indicator (it hides itself after 60 s); returns a function that hides it. */
  startLoading: (message?: string) => () => void;
}

export const FeedbackContext = createContext<TFeedback | null>(null);

export function useFeedback(): TFeedback {
  const feedback = useContext(FeedbackContext);
  if (!feedback) throw new Error('useFeedback needs a FeedbackProvider');
  return feedback;
}

export function useConfirm(): TFeedback['confirm'] {
  return useFeedback().confirm;
}

export function useInfoDialog(): TFeedback['showInfoDialog'] {
  return useFeedback().showInfoDialog;
}

export function useSnackbar(): Pick<TFeedback, 'showError' | 'showInfo'> {
  const { showError, showInfo } = useFeedback();
  return { showError, showInfo };
}

export function useLoading(): TFeedback['startLoading'] {
  return useFeedback().startLoading;
}
