/**
 * A page's first paint as a returning user sees it, in Debian's chromium: navigation to the moment
 * the page's own figures are on screen (the caller says what that is), and the browser's
 * first-contentful-paint, over several loads. One browser context, a new tab a load: the first load
 * fills the context's cache as a returning user's would be, and is not counted.
 */
import { join } from 'node:path';
import { type Browser, type Page, chromium } from 'playwright-core';
import { summary } from './stats.js';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-sync'];

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
}

export interface TFirstPaintRun {
  browser: Browser;
  baseUrl: string;
  /** The session's `Cookie` header value (`name=value; name2=value2`). */
  cookieHeader: string;
  path: string;
  /** Resolves when the page's first figures are on screen. */
  painted: (page: Page) => Promise<void>;
  loads: number;
  /** Where the last load's screenshot goes (a PNG path), if anywhere. */
  screenshot?: string;
  log?: (line: string) => void;
}

export async function timeFirstPaint(run: TFirstPaintRun) {
  const context = await run.browser.newContext({ viewport: { width: 1400, height: 900 } });
  try {
    await context.addCookies(
      run.cookieHeader.split('; ').map((pair) => {
        const [name, ...rest] = pair.split('=');
        return { name: name!, value: rest.join('='), url: run.baseUrl };
      }),
    );
    const loads: Array<{ readyMs: number; fcpMs: number }> = [];
    for (let i = 0; i <= run.loads; i++) {
      const page = await context.newPage();
      const started = Date.now();
      await page.goto(`${run.baseUrl}${run.path}`);
      await run.painted(page);
      const readyMs = Date.now() - started;
      const fcpMs = Math.round(
        await page.evaluate(() => performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? -1),
      );
      if (i === run.loads && run.screenshot) await page.screenshot({ path: run.screenshot, fullPage: true });
      await page.close();
      if (i > 0) loads.push({ readyMs, fcpMs });
      run.log?.(`${run.path} load ${i}: painted ${readyMs} ms, first contentful paint ${fcpMs} ms`);
    }
    return {
      loads: run.loads,
      painted: summary(loads.map((l) => l.readyMs)),
      firstContentfulPaint: summary(loads.map((l) => l.fcpMs)),
    };
  } finally {
    await context.close();
  }
}

/** The Billing Dashboard's first figures: its totals and the revenue chart's month axis drawn. */
export async function billingDashboardPainted(page: Page): Promise<void> {
  await page.locator('[data-total="Invoiced"]').waitFor({ timeout: 30_000 });
  // The revenue chart's axis, or the card's words when nothing was invoiced in the range.
  const revenue = page.locator('section[aria-label="Revenue by month"]');
  await revenue
    .locator('.MuiChartsAxis-tickLabel')
    .or(revenue.getByText('Nothing invoiced or collected in these months'))
    .first()
    .waitFor({ timeout: 30_000 });
}

export const screenshotIn = (dir: string, name: string) => join(dir, `${name}.png`);
