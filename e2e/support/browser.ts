import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import {
  chromium,
  type APIRequestContext,
  type Browser,
  type BrowserContext,
  type Page,
} from 'playwright-core';
import { STORY_CHROMIUM_ARGS } from './chromium-flags.js';
import { storyServer } from './server.js';

/**
 * Debian's browsers, never a downloaded one: its headless shell (package chromium-headless-shell,
 * Chromium without the desktop browser's layers, what Playwright itself runs headless) when
 * installed, else its chromium; CHROMIUM_PATH names another. A fresh context and page cost ~140
 * instead of ~330 ms of CPU; a whole run of the stories 910 instead of 1,080 CPU seconds
 * (bench/browser-context.ts, bench/results/2026-11-30-browser-stories.json).
 * A file whose stories need the desktop browser (its PDF viewer, which shows a printed PDF in a
 * tab) calls useFullChromium().
 */
const FULL_CHROMIUM = '/usr/bin/chromium';
const HEADLESS_SHELL = '/usr/bin/chromium-headless-shell';

/** Cookies and localStorage to start a context with (Playwright's storage state). */
export type TStorageState = Exclude<
  NonNullable<Parameters<Browser['newContext']>[0]>['storageState'],
  string | undefined
>;

export interface TBrowserSession {
  context: BrowserContext;
  page: Page;
  baseURL: string;
  /** What the pages' Content-Security-Policy refused so far (Chromium reports each on the console). */
  cspViolations: string[];
  /** Closes the context; fails when the CSP refused anything (the app must run under its own policy). */
  close(): Promise<void>;
}

/**
 * One Chromium per test file (launching it costs about a second of the 2 cores; a story never needs
 * a browser of its own, only a context), closed after the file by support/per-file.ts.
 */
let shared: Promise<Browser> | undefined;
/** This file's stories need the desktop browser (useFullChromium); reset after each file. */
let fullChromium = false;

function chromiumPath(): string {
  if (process.env.CHROMIUM_PATH) return process.env.CHROMIUM_PATH;
  return !fullChromium && existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : FULL_CHROMIUM;
}

function sharedBrowser(): Promise<Browser> {
  shared ??= chromium.launch({
    executablePath: chromiumPath(),
    headless: true,
    args: [...STORY_CHROMIUM_ARGS],
  });
  return shared;
}

/** This file's browser is the desktop one (call at the file's top, before its first story). */
export function useFullChromium(): void {
  if (shared) throw new Error('useFullChromium() comes before the first browser of the file');
  fullChromium = true;
}

export async function closeSharedBrowser(): Promise<void> {
  const browser = shared;
  shared = undefined;
  fullChromium = false;
  if (browser) await (await browser).close();
}

/**
 * A fresh browser context: its own cookies and localStorage (hence its own device id), as a new
 * profile had; `storageState` starts it with a session already (signedInState in worklist.ts).
 */
export async function openBrowser(options: { storageState?: TStorageState } = {}): Promise<TBrowserSession> {
  const baseURL = storyServer().baseURL;
  const context = await (
    await sharedBrowser()
  ).newContext({
    baseURL,
    viewport: { width: 1400, height: 900 },
    // The system's 'reduce motion' (app/theme.ts): dialogs and menus appear without animating, so a
    // story waits for the app, not for fades (a quarter of a settings story's time). The training
    // videos, filmed for people, keep the motion.
    reducedMotion: 'reduce',
    ...(options.storageState ? { storageState: options.storageState } : {}),
  });
  context.setDefaultTimeout(15_000);
  withDeviceHeaders(context.request);
  const cspViolations: string[] = [];
  context.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) cspViolations.push(message.text());
  });
  const page = await context.newPage();
  const recorder = recordTrouble(context, page);
  return {
    context,
    page,
    baseURL,
    cspViolations,
    async close() {
      recorder.stop();
      await context.close();
      if (cspViolations.length > 0) {
        throw new Error(`The Content-Security-Policy refused:\n${cspViolations.join('\n')}`);
      }
    },
  };
}

/**
 * The stories' direct API calls (`page.request`, which shares the profile's cookies) stand for the
 * web app's own calls, so they carry its device headers (spec-core §7): the server refuses a non-GET
 * cookie call without them (plugins/request-origin.ts). Added to this request client only, never to
 * the browser's requests (a context's extraHTTPHeaders would give them to other sites' pages too).
 */
function withDeviceHeaders(api: APIRequestContext): void {
  const device = { 'X-Device-Id': `e2e-api-${randomUUID()}`, 'X-Device-Name': 'Browser story API calls' };
  for (const method of ['post', 'put', 'patch', 'delete', 'fetch'] as const) {
    const send = api[method].bind(api) as (
      url: unknown,
      options?: { headers?: Record<string, string> },
    ) => unknown;
    (api as unknown as Record<string, unknown>)[method] = (
      url: unknown,
      options: { headers?: Record<string, string> } = {},
    ) => send(url, { ...options, headers: { ...device, ...options.headers } });
  }
}

/** Lines of what went wrong in one context's pages, newest last (recordTrouble). */
interface TTroubleLog {
  page: Page;
  lines: string[];
}

const KEPT_LINES = 40;
const openLogs = new Set<TTroubleLog>();

/**
 * Keeps what went wrong in a context's pages — script errors, console errors, failed requests, error
 * answers — so that a story failing on a wait ("the dialog never showed") says what the page met
 * (browserTroubleOfOpenContexts, printed by support/per-file.ts when a story fails).
 */
function recordTrouble(context: BrowserContext, page: Page): { stop(): void } {
  const started = Date.now();
  const log: TTroubleLog = { page, lines: [] };
  const note = (line: string) => {
    log.lines.push(`+${((Date.now() - started) / 1000).toFixed(1)}s ${line}`);
    if (log.lines.length > KEPT_LINES) log.lines.shift();
  };
  context.on('weberror', (error) => note(`page error: ${error.error().message}`));
  context.on('console', (message) => {
    if (message.type() === 'error') note(`console error: ${message.text()}`);
  });
  context.on('requestfailed', (request) =>
    note(`request failed: ${request.method()} ${request.url()} (${request.failure()?.errorText ?? '?'})`),
  );
  context.on('response', (response) => {
    if (response.status() >= 500)
      note(`answer ${response.status()}: ${response.request().method()} ${response.url()}`);
  });
  openLogs.add(log);
  return { stop: () => openLogs.delete(log) };
}

/** What the open contexts' pages met, with the address each shows now; empty when nothing. */
export function browserTroubleOfOpenContexts(): string {
  const told: string[] = [];
  for (const { page, lines } of openLogs) {
    if (page.isClosed()) continue;
    told.push(`page at ${page.url()}:${lines.length === 0 ? ' no errors recorded' : ''}`);
    told.push(...lines.map((line) => `  ${line}`));
  }
  return told.join('\n');
}
