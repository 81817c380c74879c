import { vi } from 'vitest';

/** One recorded request to the stubbed network. */
export interface TRecordedRequest {
  method: string;
  path: string;
  /** The query string's parameters. */
  query: URLSearchParams;
  headers: Headers;
  body: string | null;
  /** A multipart body as sent (FormData), else undefined. */
  formData?: FormData;
  credentials: RequestCredentials | undefined;
  json<T = unknown>(): T;
  form(): Record<string, string>;
}

export type TFakeReply = { status?: number; body?: unknown; text?: string; headers?: Record<string, string> };
type THandler = (request: TRecordedRequest) => TFakeReply | Promise<TFakeReply>;

/**
 * Stubs `fetch` (the network boundary) with handlers keyed by 'METHOD /path'. Unknown calls answer
 * 404 with the error body, so a test notices a call it did not expect.
 */
export function fakeApi(handlers: Record<string, THandler | TFakeReply>) {
  const requests: TRecordedRequest[] = [];
  const fetchStub = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://localhost');
    const body = typeof init?.body === 'string' ? init.body : null;
    const request: TRecordedRequest = {
      method: init?.method ?? 'GET',
      path: url.pathname,
      query: url.searchParams,
      headers: new Headers(init?.headers),
      body,
      ...(init?.body instanceof FormData ? { formData: init.body } : {}),
      credentials: init?.credentials,
      json: <T>() => JSON.parse(body ?? 'null') as T,
      form: () => Object.fromEntries(new URLSearchParams(body ?? '')),
    };
    requests.push(request);
    const handler = handlers[`${request.method} ${request.path}`];
    const reply: TFakeReply =
      typeof handler === 'function'
        ? await handler(request)
        : (handler ?? {
            status: 404,
            body: {
              errorStatusCode: 404,
              errorDescription: 'Not Found',
              additionalInfo: null,
              txnId: 't-404',
            },
          });
    const text = reply.text ?? (reply.body === undefined ? '' : JSON.stringify(reply.body));
    return new Response(text, {
      status: reply.status ?? 200,
      headers: {
        'Content-Type': reply.text !== undefined ? 'text/plain' : 'application/json',
        ...reply.headers,
      },
    });
  });
  vi.stubGlobal('fetch', fetchStub);
  return {
    requests,
    calls: (method: string, path: string) => requests.filter((r) => r.method === method && r.path === path),
  };
}

export const errorBody = (errorStatusCode: number, errorDescription: string, txnId = 'txn-1') => ({
  errorStatusCode,
  errorDescription,
  additionalInfo: null,
  txnId,
});
