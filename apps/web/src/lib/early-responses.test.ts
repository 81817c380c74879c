import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  EARLY_TTL_MS,
  earlyChainAsked,
  rememberEarlyChain,
  rememberEarlyJson,
  rememberEarlyResponse,
  takeEarly,
  takeEarlyResponse,
} from './early-responses';

describe('early responses', () => {
  beforeEach(() => {
    const page = window as unknown as { __radflowEarly?: unknown; __radflowEarlyScript?: unknown };
    delete page.__radflowEarly;
    delete page.__radflowEarlyScript;
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('hands a successful answer to the first read of the same URL, absolute or relative, once', async () => {
    rememberEarlyResponse('/api/user/', Promise.resolve(new Response('{"id":1}', { status: 200 })));
    const taken = await takeEarlyResponse(`${window.location.origin}/api/user/`);
    expect(await taken?.json()).toEqual({ id: 1 });
    expect(await takeEarlyResponse('/api/user/')).toBeUndefined();
  });

  it('tells URLs apart by path and query', async () => {
    rememberEarlyResponse('/api/viewer/1/context', Promise.resolve(new Response('1')));
    expect(await takeEarlyResponse('/api/viewer/2/context')).toBeUndefined();
    expect(await takeEarlyResponse('/api/viewer/1/context?x=1')).toBeUndefined();
    expect(await takeEarlyResponse('/api/viewer/1/context')).toBeDefined();
  });

  it('does not hand on a refused or failed answer: the caller asks again and sees it itself', async () => {
    rememberEarlyResponse('/a', Promise.resolve(new Response('no', { status: 401 })));
    rememberEarlyResponse('/b', Promise.reject(new TypeError('network')));
    rememberEarlyJson('/c', Promise.reject(new Error('403')));
    expect(await takeEarlyResponse('/a')).toBeUndefined();
    expect(await takeEarlyResponse('/b')).toBeUndefined();
    expect(await takeEarly('/c')).toBeUndefined();
  });

  it('hands on values the early script already read', async () => {
    rememberEarlyJson('/series', Promise.resolve([{ a: 1 }]));
    expect(await takeEarly('/series')).toEqual({ json: [{ a: 1 }] });
  });

  it('drops an answer nobody took in time', async () => {
    vi.useFakeTimers();
    rememberEarlyResponse('/late', Promise.resolve(new Response('x')));
    vi.advanceTimersByTime(EARLY_TTL_MS + 1);
    expect(await takeEarlyResponse('/late')).toBeUndefined();
  });

  it('lets a reader wait until a chain has asked for everything, and not at all without one', async () => {
    let finish: () => void = () => undefined;
    rememberEarlyChain('first-series:1', new Promise<void>((done) => (finish = done)));
    let waited = false;
    const waiting = earlyChainAsked('first-series:1').then(() => (waited = true));
    await Promise.resolve();
    expect(waited).toBe(false);
    finish();
    await waiting;
    expect(waited).toBe(true);
    await expect(earlyChainAsked('first-series:2')).resolves.toBeUndefined();
  });

  it('does not hold a reader on a failed chain', async () => {
    rememberEarlyChain('first-series:3', Promise.reject(new Error('refused')));
    await expect(earlyChainAsked('first-series:3')).resolves.toBeUndefined();
  });

  it('waits for the early script index.html is loading before it looks, so nothing is asked twice', async () => {
    let loaded: () => void = () => undefined;
    (window as unknown as { __radflowEarlyScript?: Promise<void> }).__radflowEarlyScript = new Promise<void>(
      (done) => (loaded = done),
    );
    const taking = takeEarlyResponse('/api/user/');
    // The early script runs only now, after the app asked.
    rememberEarlyResponse('/api/user/', Promise.resolve(new Response('{"id":2}')));
    loaded();
    expect(await (await taking)?.json()).toEqual({ id: 2 });
  });

  it('does not wait for an early script that never comes', async () => {
    vi.useFakeTimers();
    (window as unknown as { __radflowEarlyScript?: Promise<void> }).__radflowEarlyScript = new Promise<void>(
      () => undefined,
    );
    const taking = takeEarlyResponse('/api/user/');
    await vi.advanceTimersByTimeAsync(3_001);
    expect(await taking).toBeUndefined();
  });
});
