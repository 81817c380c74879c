import {
  MESSAGES,
  formatErrorMessage,
  isDeviceApprovalError,
  isPublicPath,
  sendRetryingWhenShed,
} from '@radflow/core';
import { earlyScriptLoaded } from '../app/early/early-script';
import { deviceHeaders } from './device';

/**
 * The one fetch client of the web app. It adds the device headers (spec-core §7), sends the session
 * cookie, reads the error body of spec-core §8 and decides what a failure means for the user:
 *
 * | answer                          | off a public path                         | on a public path   |
 * |---------------------------------|-------------------------------------------|--------------------|
 * | 403 with INVALID_DEVICE_ID 5002 | 'Your login needs to be approved by admin', log out, reload | that text in the snackbar |
 * | any other 403                   | 'Please login again', go to login          | formatted message  |
 * | 401 while signed in             | session cleared, go to login               | formatted message  |
 * | anything else                   | formatted message (plain string → 'Please try again')          ||
 *
 * What happens on screen is done by the failure handler the app registers (see ApiFailureBridge), so
 * the client stays free of React.
 */

export type TApiFailure =
  | { kind: 'device-approval' }
  | { kind: 'login-again' }
  | { kind: 'session-expired' }
  | { kind: 'message'; text: string };

export interface TFailureInput {
  status: number;
  body: unknown;
  onPublicPath: boolean;
  isAuthenticated: boolean;
}

export const NETWORK_ERROR_MESSAGE = 'The server could not be reached. Please try again.';

/** spec-core §8 as a pure decision. */
export function classifyFailure({ status, body, onPublicPath, isAuthenticated }: TFailureInput): TApiFailure {
  if (status === 403) {
    if (isDeviceApprovalError(body)) {
      return onPublicPath
        ? { kind: 'message', text: MESSAGES.loginNeedsApproval }
        : { kind: 'device-approval' };
    }
    if (!onPublicPath) return { kind: 'login-again' };
  }
  if (status === 401 && isAuthenticated && !onPublicPath) return { kind: 'session-expired' };
  if (status === 0) return { kind: 'message', text: NETWORK_ERROR_MESSAGE };
  return { kind: 'message', text: formatErrorMessage(body) };
}

export class ApiError extends Error {
  readonly status: number;
  readonly body: unknown;
  readonly failure: TApiFailure;
  constructor(status: number, body: unknown, failure: TApiFailure) {
    super(failure.kind === 'message' ? failure.text : failure.kind);
    this.name = 'ApiError';
    this.status = status;
    this.body = body;
    this.failure = failure;
  }
}

export interface TApiClientConfig {
  /** Whether a user is signed in right now (401 means "session expired" only then). */
  isAuthenticated: () => boolean;
  /** Shows the failure to the user; not called for quiet requests or aborted ones. */
  onFailure: (failure: TApiFailure) => void;
}

let config: TApiClientConfig = { isAuthenticated: () => false, onFailure: () => undefined };

export function configureApiClient(next: TApiClientConfig): () => void {
  const previous = config;
  config = next;
  return () => {
    if (config === next) config = previous;
  };
}

/** Any zod schema (structurally, so the web app need not depend on zod directly). */
export interface TSchema<T> {
  safeParse(value: unknown): { success: true; data: T } | { success: false; error: unknown };
}

export interface TRequestOptions<T> {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** A JSON body. */
  json?: unknown;
  /** An application/x-www-form-urlencoded body (the sign-in form). */
  form?: Record<string, string>;
  signal?: AbortSignal;
  /** The caller shows the failure itself: no snackbar, no redirect. */
  quiet?: boolean;
  /** Validates the answer; a mismatch is a contract error, not the user's fault. */
  schema?: TSchema<T>;
  /** Extra request headers (e.g. the lab writes' Idempotency-Key). */
  headers?: Record<string, string>;
}

export { deviceHeaders } from './device';

/**
 * Every call to our API goes through core's `sendRetryingWhenShed`, the JSON ones (apiRequest)
 * and the file ones alike: a call a busy server shed is asked again after its Retry-After.
 */
export { sendRetryingWhenShed };

export async function apiRequest<T = unknown>(path: string, options: TRequestOptions<T> = {}): Promise<T> {
  const headers = new Headers(deviceHeaders());
  for (const [name, value] of Object.entries(options.headers ?? {})) headers.set(name, value);
  let body: BodyInit | undefined;
  if (options.form) {
    headers.set('Content-Type', 'application/x-www-form-urlencoded');
    body = new URLSearchParams(options.form).toString();
  } else if (options.json !== undefined) {
    headers.set('Content-Type', 'application/json');
    body = JSON.stringify(options.json);
  }

  const method = options.method ?? (body === undefined ? 'GET' : 'POST');
  let response: Response;
  try {
    // A GET the page's early requests already made (lib/early-responses.ts) is answered from there.
    const early = method === 'GET' ? await earlyAnswer(path) : undefined;
    const send = () =>
      fetch(path, { method, headers, body, credentials: 'same-origin', signal: options.signal });
    response = early ?? (await sendRetryingWhenShed(send));
  } catch (cause) {
    if (options.signal?.aborted) throw cause;
    throw failedRequest(0, null, options.quiet);
  }

  const payload = await readBody(response);
  // Cancelled while the answer was being read (a list the screen no longer needs): the body is cut,
  // which says nothing about the server; the caller gets the cancellation, the user sees nothing.
  options.signal?.throwIfAborted();
  if (!response.ok) throw failedRequest(response.status, payload, options.quiet);
  if (options.schema) {
    const parsed = options.schema.safeParse(payload);
    if (!parsed.success) {
      console.error(`Unexpected answer from ${path}`, parsed.error);
      throw failedRequest(response.status, null, options.quiet);
    }
    return parsed.data;
  }
  return payload as T;
}

/**
 * The page's early answer to a GET (lib/early-responses.ts), on a page whose early script ran (a
 * viewer address); the hand-over code loads only there, so the other pages' bundle stays as it was.
 */
async function earlyAnswer(path: string): Promise<Response | undefined> {
  if (!earlyScriptLoaded()) return undefined;
  const { takeEarlyResponse } = await import('../lib/early-responses');
  return takeEarlyResponse(path);
}

/**
 * The ApiError for a failed answer (status 0: no answer), shown to the user unless `quiet`. Exported
 * for transports other than fetch (the XHR upload, which needs upload progress).
 */
export function failedRequest(status: number, body: unknown, quiet: boolean | undefined): ApiError {
  const failure = classifyFailure({
    status,
    body,
    onPublicPath: isPublicPath(window.location.pathname),
    isAuthenticated: config.isAuthenticated(),
  });
  if (!quiet) config.onFailure(failure);
  return new ApiError(status, body, failure);
}

/** Shows a quiet request's failure after all, when its caller could not handle it in place. */
export function reportFailure(error: ApiError): void {
  config.onFailure(error.failure);
}

/** JSON when it parses, else the text (spec-core §8: a plain string body, binary bodies decoded first). */
async function readBody(response: Response): Promise<unknown> {
  const text = await response.text().catch(() => '');
  return parseBody(text);
}

export function parseBody(text: string): unknown {
  if (!text) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}
