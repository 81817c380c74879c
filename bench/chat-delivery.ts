/**
 * Chat delivery from one browser to another (issue 23 §6: p95 ≤ 250 ms, send → shown): the built
 * server (PGlite, or PostgreSQL with --database-url, a fresh database made on it) and two headless
 * Chromium contexts (Debian's, through playwright-core), the demo center and the demo doctor, each
 * with the study list open and the same study's chat panel open. They take turns sending; for each
 * message the time from just before the sender presses Enter (Date.now() in the sender's page) to
 * the moment the message's text is in the other's panel (a MutationObserver in the receiver's page,
 * Date.now() again: one machine, one clock). The path is the product's: send-message → the study
 * event → the live stream → the panel's query refetched → drawn. Also the same with the live
 * stream blocked (--no-live), where only the 25 s refresh would bring it, to show what the stream
 * buys.
 *
 * Usage: npm run build && npx tsx bench/chat-delivery.ts [--messages 40]
 *        [--database-url postgres://…/postgres] [--json]
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { type BrowserContext, type Page, chromium } from 'playwright-core';
import { BENCH_DEVICE_HEADERS, signIn, startBuiltServer } from './lib/radflow-server.js';
import { summary } from './lib/stats.js';

const args = process.argv.slice(2);
const value = (name: string) => {
  const at = args.indexOf(name);
  return at >= 0 ? args[at + 1] : undefined;
};
// Two senders take turns: 40 messages stay under the chat's 30 a minute per sender.
const MESSAGES = Number(value('--messages') ?? 40);
const adminUrl = value('--database-url');
const asJson = args.includes('--json');
const log = (line: string) => process.stderr.write(`${line}\n`);
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run'];
const DELIVERY_TIMEOUT_MS = 15_000;

/** In the receiver's page: the first time each 'bench-<n>' text is in the chat panel. */
const WATCH_PANEL = `(() => {
  const seen = (window.__benchSeen = {});
  const scan = () => {
    const panel = document.querySelector('[data-testid="chat-panel"]');
    if (!panel) return;
    for (const m of panel.textContent.matchAll(/bench-(\\d+)-end/g)) seen[m[1]] ??= Date.now();
  };
  new MutationObserver(scan).observe(document.body, { subtree: true, childList: true, characterData: true });
  scan();
})()`;

async function openChat(context: BrowserContext, origin: string, patient: string): Promise<Page> {
  const page = context.pages()[0] ?? (await context.newPage());
  await page.goto(`${origin}/`);
  const row = page.getByRole('row').filter({ hasText: patient });
  await row.getByRole('button', { name: /^Chat/ }).click({ timeout: 60_000 });
  await page.getByTestId('chat-panel').getByRole('textbox', { name: 'Message' }).waitFor();
  await page.evaluate(WATCH_PANEL);
  return page;
}

async function run(origin: string, live: boolean) {
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
  try {
    const centerCookie = await signIn(origin, 'center@demo.local');
    const doctorCookie = await signIn(origin, 'doctor@demo.local');
    // The study both talk about: made by the center, in the doctor pool.
    const centers = (await (
      await fetch(`${origin}/api/centers`, { headers: { cookie: centerCookie, ...BENCH_DEVICE_HEADERS } })
    ).json()) as { id: number }[];
    const patient = `Bench Chat ${Date.now()}`;
    const made = await fetch(`${origin}/api/dicom-web/study/create-from-website`, {
      method: 'POST',
      headers: { cookie: centerCookie, 'content-type': 'application/json', ...BENCH_DEVICE_HEADERS },
      body: JSON.stringify({
        patientName: patient,
        labModality: 'CT',
        patientAge: '40Y',
        patientSex: 'M',
        center: centers[0]?.id,
        studyName: 'CT Brain Plain',
        history: 'Bench',
      }),
    });
    if (!made.ok) throw new Error(`create study: ${made.status} ${await made.text()}`);
    const contextOf = async (cookie: string) => {
      const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
      const [name, ...rest] = cookie.split('; ')[0]?.split('=') ?? [];
      await context.addCookies([{ name: name ?? '', value: rest.join('='), url: origin }]);
      if (!live) await context.route('**/api/live**', (route) => route.abort());
      return context;
    };
    const center = await openChat(await contextOf(centerCookie), origin, patient);
    const doctor = await openChat(await contextOf(doctorCookie), origin, patient);
    const delivery: number[] = [];
    // Where the time goes: the send call answered, the other's thread asked for and answered.
    const sendAnswered: number[] = [];
    const threadAsked: number[] = [];
    const threadAnswered: number[] = [];
    let lost = 0;
    const firstAfter = (page: Page, path: string, event: 'request' | 'requestfinished', after: number) =>
      new Promise<number>((resolve) => {
        const listener = (request: { url(): string }) => {
          if (!request.url().includes(path) || Date.now() < after) return;
          if (event === 'request') page.off('request', listener);
          else page.off('requestfinished', listener);
          resolve(Date.now());
        };
        if (event === 'request') page.on('request', listener);
        else page.on('requestfinished', listener);
      });
    const messages = live ? MESSAGES : Math.min(MESSAGES, 4);
    for (let n = 0; n < messages; n++) {
      const [from, to] = n % 2 === 0 ? [center, doctor] : [doctor, center];
      const box = from.getByTestId('chat-panel').getByRole('textbox', { name: 'Message' });
      await box.fill(`Message bench-${n}-end`);
      const sentAt = await from.evaluate(() => Date.now());
      const answered = firstAfter(from, '/api/chat-thread/send-message', 'requestfinished', sentAt);
      const asked = firstAfter(to, '/api/chat-thread/get-messages', 'request', sentAt);
      const got = firstAfter(to, '/api/chat-thread/get-messages', 'requestfinished', sentAt);
      await box.press('Enter');
      try {
        await to.waitForFunction(
          (k) => (window as unknown as { __benchSeen: Record<string, number> }).__benchSeen[k] !== undefined,
          String(n),
          { timeout: DELIVERY_TIMEOUT_MS, polling: 50 },
        );
        const shownAt = await to.evaluate(
          (k) => (window as unknown as { __benchSeen: Record<string, number> }).__benchSeen[k]!,
          String(n),
        );
        delivery.push(shownAt - sentAt);
        sendAnswered.push((await answered) - sentAt);
        threadAsked.push((await asked) - sentAt);
        threadAnswered.push((await got) - sentAt);
      } catch {
        lost += 1;
      }
    }
    return {
      live,
      ...summary(delivery),
      notShownWithinMs: DELIVERY_TIMEOUT_MS,
      notShown: lost,
      ...(live
        ? {
            sendAnsweredMs: summary(sendAnswered),
            otherAskedForThreadMs: summary(threadAsked),
            otherHadThreadMs: summary(threadAnswered),
          }
        : {}),
    };
  } finally {
    await browser.close();
  }
}

async function main() {
  const work = await mkdtemp(join(tmpdir(), 'radflow-bench-chat-'));
  let databaseUrl: string | undefined;
  let dropDatabase: (() => Promise<void>) | undefined;
  if (adminUrl) {
    const name = `radflow_bench_chat_${process.pid}`;
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`create database ${name}`);
    await admin.end();
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    databaseUrl = url.toString();
    dropDatabase = async () => {
      const again = new pg.Client({ connectionString: adminUrl });
      await again.connect();
      await again.query(`drop database if exists ${name} with (force)`);
      await again.end();
    };
  }
  const server = await startBuiltServer({ work, ...(databaseUrl ? { databaseUrl } : {}) });
  try {
    log(`server ${server.baseUrl} on ${databaseUrl ? 'PostgreSQL' : 'PGlite'}`);
    const withStream = await run(server.baseUrl, true);
    log(`with the live stream: ${JSON.stringify(withStream)}`);
    const withoutStream = args.includes('--no-live') ? await run(server.baseUrl, false) : undefined;
    if (withoutStream) log(`without it: ${JSON.stringify(withoutStream)}`);
    const result = {
      database: databaseUrl ? 'PostgreSQL' : 'PGlite',
      messages: MESSAGES,
      loadAverage1m: Math.round(loadavg()[0]! * 100) / 100,
      withStream,
      ...(withoutStream ? { withoutStream } : {}),
    };
    process.stdout.write(asJson ? `${JSON.stringify(result)}\n` : `${JSON.stringify(result, null, 2)}\n`);
  } finally {
    await server.stop();
    await dropDatabase?.();
    await rm(work, { recursive: true, force: true });
  }
}

await main();
