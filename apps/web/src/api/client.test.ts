import { MESSAGES } from '@radflow/core';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { errorBody, fakeApi } from '../test/fake-api';
import {
  ApiError,
  NETWORK_ERROR_MESSAGE,
  apiRequest,
  classifyFailure,
  configureApiClient,
  type TApiFailure,
} from './client';
import { DEVICE_ID_STORAGE_KEY } from './device';

describe('classifyFailure (spec-core §8)', () => {
  const approval = errorBody(5002, 'Your login needs to be approved by admin');
  it.each([
    ['403 5002 off a public path', 403, approval, false, true, { kind: 'device-approval' }],
    [
      '403 5002 on the login page',
      403,
      approval,
      true,
      false,
      { kind: 'message', text: MESSAGES.loginNeedsApproval },
    ],
    ['other 403 off a public path', 403, errorBody(403, 'Forbidden'), false, true, { kind: 'login-again' }],
    ['401 while signed in', 401, errorBody(401, 'Unauthorized'), false, true, { kind: 'session-expired' }],
    [
      '401 on the login page',
      401,
      errorBody(401, 'Invalid credentials', 'abc'),
      true,
      false,
      { kind: 'message', text: 'Invalid credentials (code 401, ref abc)' },
    ],
    [
      'a plain string body',
      500,
      'Internal Server Error',
      false,
      true,
      { kind: 'message', text: MESSAGES.pleaseTryAgain },
    ],
    ['no answer at all', 0, null, false, true, { kind: 'message', text: NETWORK_ERROR_MESSAGE }],
  ])('%s', (_name, status, body, onPublicPath, isAuthenticated, expected) => {
    expect(classifyFailure({ status, body, onPublicPath, isAuthenticated })).toEqual(expected);
  });

  it('cuts long error texts to 150 characters', () => {
    const failure = classifyFailure({
      status: 400,
      body: errorBody(400, 'x'.repeat(400)),
      onPublicPath: false,
      isAuthenticated: true,
    });
    expect(failure.kind === 'message' && failure.text.length).toBe(150);
  });
});

describe('apiRequest', () => {
  let failures: TApiFailure[];
  let signedIn: boolean;
  let restore: () => void;

  beforeEach(() => {
    failures = [];
    signedIn = true;
    restore = configureApiClient({ isAuthenticated: () => signedIn, onFailure: (f) => failures.push(f) });
    window.history.replaceState(null, '', '/status');
  });
  afterEach(() => restore());

  it('sends the device headers and the session cookie', async () => {
    const api = fakeApi({ 'GET /api/user/tele-info': { body: { teleUser: false } } });
    await apiRequest('/api/user/tele-info');
    const [request] = api.requests;
    expect(request?.headers.get('X-Device-Id')).toBe(window.localStorage.getItem(DEVICE_ID_STORAGE_KEY));
    expect(request?.headers.get('X-Device-Id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(request?.headers.get('X-Device-Name')).toMatch(/ on /);
    expect(request?.credentials).toBe('same-origin');
  });

  it('asks again, after its Retry-After, a call the busy server shed (503), then shows the answer', async () => {
    let calls = 0;
    const api = fakeApi({
      'POST /api/report/save/7': () =>
        ++calls < 3
          ? { status: 503, body: errorBody(503, 'The server is busy.'), headers: { 'Retry-After': '0' } }
          : { body: { saved: true } },
    });
    await expect(apiRequest('/api/report/save/7', { json: { content: 'x' } })).resolves.toEqual({
      saved: true,
    });
    expect(api.calls('POST', '/api/report/save/7')).toHaveLength(3);
    expect(failures).toEqual([]);
  });

  it('shows a 503 without Retry-After at once, and one that stays busy after the retries', async () => {
    const plain = fakeApi({ 'GET /api/user/mapping': { status: 503, body: errorBody(503, 'Down') } });
    await expect(apiRequest('/api/user/mapping')).rejects.toBeInstanceOf(ApiError);
    expect(plain.calls('GET', '/api/user/mapping')).toHaveLength(1);
    const busy = fakeApi({
      'GET /api/user/mapping': {
        status: 503,
        body: errorBody(503, 'The server is busy.'),
        headers: { 'Retry-After': '0' },
      },
    });
    await expect(apiRequest('/api/user/mapping')).rejects.toBeInstanceOf(ApiError);
    expect(busy.calls('GET', '/api/user/mapping')).toHaveLength(4);
  });

  it('posts a form url-encoded', async () => {
    const api = fakeApi({ 'POST /api/do-login': { body: {} } });
    await apiRequest('/api/do-login', { method: 'POST', form: { email: 'a@b.c', password: 'p&q' } });
    expect(api.requests[0]?.headers.get('Content-Type')).toBe('application/x-www-form-urlencoded');
    expect(api.requests[0]?.body).toBe('email=a%40b.c&password=p%26q');
  });

  it('turns a 403 with INVALID_DEVICE_ID into the device-approval flow', async () => {
    fakeApi({ 'GET /api/user/mapping': { status: 403, body: errorBody(5002, 'Device not approved') } });
    const error = await apiRequest('/api/user/mapping').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(403);
    expect(failures).toEqual([{ kind: 'device-approval' }]);
  });

  it('asks to log in again on any other 403', async () => {
    fakeApi({ 'POST /api/user/audit/search': { status: 403, body: errorBody(403, 'Forbidden') } });
    await expect(apiRequest('/api/user/audit/search', { json: {} })).rejects.toBeInstanceOf(ApiError);
    expect(failures).toEqual([{ kind: 'login-again' }]);
  });

  it('expires the session on a 401 while signed in', async () => {
    fakeApi({ 'GET /api/user/mapping': { status: 401, body: errorBody(401, 'Unauthorized') } });
    await expect(apiRequest('/api/user/mapping')).rejects.toThrow();
    expect(failures).toEqual([{ kind: 'session-expired' }]);
  });

  it('shows the approval text, not a redirect, for a 403 5002 on the login page', async () => {
    window.history.replaceState(null, '', '/login-page');
    signedIn = false;
    fakeApi({ 'POST /api/do-login': { status: 403, body: errorBody(5002, 'Device pending') } });
    await expect(apiRequest('/api/do-login', { form: { email: 'a', password: 'b' } })).rejects.toThrow(
      MESSAGES.loginNeedsApproval,
    );
    expect(failures).toEqual([{ kind: 'message', text: MESSAGES.loginNeedsApproval }]);
  });

  it("answers 'Please try again' to a plain string body", async () => {
    fakeApi({ 'GET /api/user/mapping': { status: 502, text: 'Bad Gateway' } });
    await expect(apiRequest('/api/user/mapping')).rejects.toThrow(MESSAGES.pleaseTryAgain);
    expect(failures).toEqual([{ kind: 'message', text: MESSAGES.pleaseTryAgain }]);
  });

  it('leaves a quiet request to its caller', async () => {
    fakeApi({ 'GET /api/user/': { status: 401, body: errorBody(401, 'Unauthorized') } });
    await expect(apiRequest('/api/user/', { quiet: true })).rejects.toBeInstanceOf(ApiError);
    expect(failures).toEqual([]);
  });

  it('reports an unreachable server', async () => {
    vi.stubGlobal('fetch', vi.fn().mockRejectedValue(new TypeError('Failed to fetch')));
    await expect(apiRequest('/api/user/mapping')).rejects.toThrow(NETWORK_ERROR_MESSAGE);
    expect(failures).toEqual([{ kind: 'message', text: NETWORK_ERROR_MESSAGE }]);
  });

  it('treats a call cancelled while its answer is read as cancelled, not as a broken answer', async () => {
    // React Query cancels a list call when its screen moves on; the answer's headers may have come.
    const controller = new AbortController();
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const body = new ReadableStream<Uint8Array>({
      start(stream) {
        stream.enqueue(new TextEncoder().encode('{"rows":['));
        controller.signal.addEventListener('abort', () => stream.error(controller.signal.reason));
      },
    });
    vi.stubGlobal('fetch', vi.fn().mockResolvedValue(new Response(body, { status: 200 })));
    const { ZTeleInfo } = await import('@radflow/core');
    const answer = apiRequest('/api/user/tele-info', { schema: ZTeleInfo, signal: controller.signal });
    controller.abort();
    const error = await answer.catch((e: unknown) => e);
    expect(error).not.toBeInstanceOf(ApiError);
    expect((error as Error).name).toBe('AbortError');
    expect(failures).toEqual([]);
    expect(errors).not.toHaveBeenCalled();
  });

  it('rejects an answer that breaks the contract', async () => {
    fakeApi({ 'GET /api/user/tele-info': { body: { teleUser: 'yes' } } });
    const { ZTeleInfo } = await import('@radflow/core');
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    await expect(apiRequest('/api/user/tele-info', { schema: ZTeleInfo })).rejects.toBeInstanceOf(ApiError);
  });
});
