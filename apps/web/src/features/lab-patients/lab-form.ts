import { ApiError } from '../../api/client';

/** The server's words for a refusal (its errorDescription), else the client's message. */
export function refusalText(error: unknown): string {
  if (error instanceof ApiError) {
    const body = error.body as { errorDescription?: unknown } | null;
    if (body && typeof body.errorDescription === 'string') return body.errorDescription;
  }
  return error instanceof Error ? error.message : 'Please try again';
}

/** Zod issues as the first message of each top-level field. */
export function fieldErrors(
  issues: ReadonlyArray<{ path: PropertyKey[]; message: string }>,
): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const issue of issues) {
    const field = String(issue.path[0] ?? '');
    if (field && !(field in errors)) errors[field] = issue.message;
  }
  return errors;
}

export const GENDER_LABELS = { M: 'Male', F: 'Female', O: 'Other' } as const;

/** The search boxes send their text this long after the last keystroke. */
export const SEARCH_DEBOUNCE_MS = 250;
/** Search as you type: shorter, so the list follows the typing (the server answers in milliseconds). */
export const TYPEAHEAD_DEBOUNCE_MS = 120;
