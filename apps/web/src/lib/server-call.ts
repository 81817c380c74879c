import { useMutation, type UseMutationOptions, type UseMutationResult } from '@tanstack/react-query';
import { ApiError } from '../api/client';
import { useSnackbar } from '../components/feedback/feedback-context';

/**
 * The app's one way to run a server call from a screen: a TanStack mutation (`isPending` is the busy
 * state, its own callbacks the outcome; they are awaited, so the call stays pending until they are
 * done, as the screens' buttons expect). What this adds is the app's default failure display: the
 * API client has already shown a refusal (an ApiError, unless the request was quiet), so only other
 * failures (a thrown bug, a failed parse) go to the snackbar. A screen that shows failures in place
 * passes its own `onError`.
 */
export function useServerCall<TData = unknown, TVariables = void>(
  options: UseMutationOptions<TData, unknown, TVariables>,
): UseMutationResult<TData, unknown, TVariables> {
  const showUnshown = useShowUnshownFailure();
  return useMutation({ onError: showUnshown, ...options });
}

/** Shows a failure the API client has not shown already (see useServerCall). */
export function useShowUnshownFailure(): (error: unknown) => void {
  const { showError } = useSnackbar();
  return (error) => {
    if (!(error instanceof ApiError)) showError(String(error));
  };
}

/**
 * A screen whose several buttons share one busy state runs each as a task: the variables are the
 * call itself and what its success says.
 */
export interface TServerTask {
  call: () => Promise<unknown>;
  doneText: string;
}

export function useServerTask(
  options: Omit<UseMutationOptions<unknown, unknown, TServerTask>, 'mutationFn'>,
): UseMutationResult<unknown, unknown, TServerTask> {
  return useServerCall<unknown, TServerTask>({ mutationFn: ({ call }) => call(), ...options });
}
