import {
  PREFERENCE_SECTIONS,
  SETTINGS_MESSAGES,
  groupFlags,
  type TPreferenceSection,
  type TUserPreferences,
} from '@radflow/core';
import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import {
  ApiError,
  apiRequest,
  deviceHeaders,
  failedRequest,
  parseBody,
  sendRetryingWhenShed,
} from '../../api/client';
import { useSnackbar } from '../../components/feedback/feedback-context';
import { setDisplayTimeZone } from '../../lib/format';
import { SESSION_QUERY_KEY, useSignedInSession, type TSession } from '../auth/session';

/**
 * The settings calls of the web app (contract "settings-api.ts"): every settings dialog saves through
 * these hooks, so the success toast, the error text and the session cache update are written once.
 */

/** The signed-in user's preferences, every section completed with defaults (the session query). */
export function useUserPreferences(): TUserPreferences {
  return useSignedInSession().preferences;
}

/** What the user reads for a failed call: the server's errorDescription when it sent one. */
export function settingErrorText(error: unknown): string {
  if (error instanceof ApiError) {
    const body = error.body as { errorDescription?: unknown } | null;
    if (body && typeof body.errorDescription === 'string' && body.errorDescription !== '') {
      return body.errorDescription;
    }
    if (error.failure.kind === 'message') return error.failure.text;
  }
  return error instanceof Error ? error.message : String(error);
}

/**
 * Puts a section the server answered into the session, so every screen reading preferences (and the
 * group flags derived from them) redraws at once without reloading the session.
 */
export function storeSection(queryClient: QueryClient, section: TPreferenceSection, answer: unknown): void {
  const parsed = PREFERENCE_SECTIONS[section].safeParse(answer ?? {});
  if (!parsed.success) return;
  queryClient.setQueryData<TSession | null>(SESSION_QUERY_KEY, (session) => {
    if (!session) return session;
    const preferences = { ...session.preferences, [section]: parsed.data } as TUserPreferences;
    const flags = groupFlags(preferences);
    setDisplayTimeZone(flags.displayTimeZone);
    return { ...session, preferences, flags };
  });
}

type TSectionValue<S extends TPreferenceSection> = TUserPreferences[S];

/** The four section calls; each answers the whole section. */
export type TSectionCall = 'update' | 'update-group' | 'reset' | 'reset-group';

/**
 * POST /api/setting/{call}/{section} with the changed fields (updates) or nothing (resets); the
 * answer read as the section. Quiet: the dialog shows the failure and keeps its form, and a 403 here
 * must not send the user to the login page.
 */
export async function postSection<S extends TPreferenceSection>(
  call: TSectionCall,
  section: S,
  changes?: Partial<TSectionValue<S>>,
): Promise<TSectionValue<S>> {
  const answer = await apiRequest(`/api/setting/${call}/${section}`, {
    method: 'POST',
    json: call.startsWith('reset') ? {} : (changes ?? {}),
    quiet: true,
  });
  return PREFERENCE_SECTIONS[section].parse(answer ?? {}) as TSectionValue<S>;
}

function useSectionMutation<S extends TPreferenceSection>(section: S, call: TSectionCall) {
  const queryClient = useQueryClient();
  const { showInfo, showError } = useSnackbar();
  return useMutation<TSectionValue<S>, unknown, Partial<TSectionValue<S>> | void>({
    mutationFn: (changes) => postSection(call, section, changes ?? undefined),
    onSuccess: (value) => {
      storeSection(queryClient, section, value);
      showInfo(SETTINGS_MESSAGES.updated);
    },
    onError: (error) => showError(settingErrorText(error)),
  });
}

/** Saves fields of one of the user's sections (POST /api/setting/update/{section}). */
export function useSaveSection<S extends TPreferenceSection>(section: S) {
  return useSectionMutation(section, 'update');
}

/** Saves fields of one of the group's sections (POST /api/setting/update-group/{section}). */
export function useSaveGroupSection<S extends TPreferenceSection>(section: S) {
  return useSectionMutation(section, 'update-group');
}

/** Deletes the stored section; the answer is its defaults (POST /api/setting/reset/{section}). */
export function useResetSection<S extends TPreferenceSection>(section: S) {
  return useSectionMutation(section, 'reset');
}

/** The group's section back to defaults (POST /api/setting/reset-group/{section}). */
export function useResetGroupSection<S extends TPreferenceSection>(section: S) {
  return useSectionMutation(section, 'reset-group');
}

/**
 * Sends one image as multipart (the fetch client of api/client.ts speaks JSON and forms only).
 * Quiet: the dialog shows its own 'Image upload failed'.
 */
export async function sendMultipart<T>(path: string, body: FormData): Promise<T> {
  let response: Response;
  try {
    response = await sendRetryingWhenShed(() =>
      fetch(path, {
        method: 'POST',
        headers: new Headers(deviceHeaders()),
        body,
        credentials: 'same-origin',
      }),
    );
  } catch {
    throw failedRequest(0, null, true);
  }
  const payload = parseBody(await response.text().catch(() => ''));
  if (!response.ok) throw failedRequest(response.status, payload, true);
  return payload as T;
}
