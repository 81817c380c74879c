/**
 * Answers asked for before the app's bundle has even run (app/early/early-requests.ts), handed to
 * the app's own reads. The early script is built on its own (app/early/early-build.ts), so it shares
 * no module instance with the app: the hand-over is a property of the page's window, which this
 * module reads and writes on both sides.
 *
 * Each answer is taken once, by the first read of the same URL (path and query), and dropped if
 * nobody takes it within EARLY_TTL_MS: an answer is only good for the page load it was asked for.
 * An answer is a response whose body the app reads, or JSON the early script already read because
 * it needed the values itself (the app does not parse a megabyte twice).
 */

import { earlyScriptLoaded } from '../app/early/early-script';

/**
 * The early script is loaded beside the app's bundle, not before it: a reader awaits its load
 * before it looks, so it never asks beside an early request that had not started yet.
 */

/** A loader's script that has not come by then (a stalled request) is not waited for any longer. */
const SCRIPT_WAIT_MS = 3_000;

/** Settles when the early script has run, failed to load, or is late (at once on other pages). */
async function scriptSettled(): Promise<void> {
  const loaded = earlyScriptLoaded();
  if (!loaded) return;
  await Promise.race([loaded, new Promise<void>((done) => setTimeout(done, SCRIPT_WAIT_MS))]);
}

/** An answer nobody read by then (a refused study, another page) is dropped. */
export const EARLY_TTL_MS = 30_000;

type TEarlyAnswer =
  { kind: 'response'; answer: Promise<Response> } | { kind: 'json'; answer: Promise<unknown> };

interface TEarlyStore {
  answers: Map<string, TEarlyAnswer>;
  /** Reads whose later URLs come from earlier answers: settled once all of them were asked. */
  chains: Map<string, Promise<void>>;
}

function store(): TEarlyStore | undefined {
  if (typeof window === 'undefined') return undefined;
  const page = window as unknown as { __radflowEarly?: TEarlyStore };
  page.__radflowEarly ??= { answers: new Map(), chains: new Map() };
  return page.__radflowEarly;
}

/** The key of a URL: its path and query, whether it was written absolute or relative. */
function keyOf(url: string): string {
  const parsed = new URL(url, window.location.href);
  return `${parsed.pathname}${parsed.search}`;
}

function keep<T>(map: Map<string, T>, key: string, value: T): void {
  map.set(key, value);
  setTimeout(() => {
    if (map.get(key) === value) map.delete(key);
  }, EARLY_TTL_MS);
}

function remember(url: string, entry: TEarlyAnswer): void {
  const early = store();
  if (!early) return;
  // A failure is the reader's to see, or nobody's: never an unhandled rejection.
  entry.answer.catch(() => undefined);
  keep(early.answers, keyOf(url), entry);
}

function take(url: string): TEarlyAnswer | undefined {
  const early = store();
  if (!early || early.answers.size === 0) return undefined;
  const key = keyOf(url);
  const entry = early.answers.get(key);
  early.answers.delete(key);
  return entry;
}

/** Keeps an early answer whose body the app reads itself. */
export function rememberEarlyResponse(url: string, answer: Promise<Response>): void {
  remember(url, { kind: 'response', answer });
}

/** Keeps the values of an early answer the early script read itself (undefined: it failed). */
export function rememberEarlyJson(url: string, answer: Promise<unknown>): void {
  remember(url, { kind: 'json', answer });
}

/**
 * The early answer to a GET of this URL: the response if it succeeded, its values if the early
 * script read them, else undefined — a failed or refused early answer is not handed on, the caller
 * asks again and sees its failure the usual way.
 */
export async function takeEarly(
  url: string,
): Promise<{ response: Response } | { json: unknown } | undefined> {
  await scriptSettled();
  const entry = take(url);
  if (!entry) return undefined;
  if (entry.kind === 'json') {
    const json = await entry.answer.catch(() => undefined);
    return json === undefined ? undefined : { json };
  }
  const response = await entry.answer.catch(() => undefined);
  return response?.ok ? { response } : undefined;
}

/** The early response to a GET of this URL if it succeeded, else undefined. */
export async function takeEarlyResponse(url: string): Promise<Response | undefined> {
  const early = await takeEarly(url);
  return early && 'response' in early ? early.response : undefined;
}

/** Announces a chain of early reads (a name both sides build alike) and when it has asked all. */
export function rememberEarlyChain(name: string, asked: Promise<void>): void {
  const early = store();
  if (!early) return;
  keep(
    early.chains,
    name,
    asked.catch(() => undefined),
  );
}

/** However an early chain goes, a reader does not wait for it longer than this before asking itself. */
const CHAIN_WAIT_MS = 5_000;

/** Settles once the named early chain has asked for everything it will (at once if there is none). */
export async function earlyChainAsked(name: string): Promise<void> {
  await scriptSettled();
  const chain = store()?.chains.get(name);
  if (!chain) return;
  await Promise.race([chain, new Promise<void>((done) => setTimeout(done, CHAIN_WAIT_MS))]);
}
