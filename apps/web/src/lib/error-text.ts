import { ApiError } from '../api/client';

/**
 * The words to show for a failed call: the server's own reason (its errorDescription) when it gave
 * one, else the error's message (the API client's or the router client's text), else the value.
 */
export function errorText(error: unknown): string {
  if (error instanceof ApiError) {
    const description = (error.body as { errorDescription?: unknown } | null)?.errorDescription;
    if (typeof description === 'string' && description !== '') return description;
  }
  return error instanceof Error ? error.message : String(error);
}
