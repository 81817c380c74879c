import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { inject } from 'vitest';

/** Debian's chromium (never a downloaded one); flags proven on this kind of machine (ARCHITECTURE §6). */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface TBrowserSession {
  context: BrowserContext;
  page: Page;
  baseURL: string;
  close(): Promise<void>;
}

/** A fresh browser profile (its own cookies and localStorage, hence its own device id). */
export async function openBrowser(): Promise<TBrowserSession> {
  const baseURL = inject('baseURL');
  const profile = mkdtempSync(join(tmpdir(), 'radflow-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: ARGS,
    baseURL,
    viewport: { width: 1400, height: 900 },
  });
  context.setDefaultTimeout(15_000);
  const page = context.pages()[0] ?? (await context.newPage());
  return {
    context,
    page,
    baseURL,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
