/**
 * Records the FAQ's 12 training videos (issue 29 §7; spec-core §2) by driving the real app in Debian's
 * Chromium with playwright-core, so the videos show the product as it is. Chromium's own screencast
 * (the DevTools protocol's Page.startScreencast) gives the frames and Debian's ffmpeg (apt `ffmpeg`)
 * encodes them as VP8 webm: playwright's `recordVideo` needs an ffmpeg build it downloads
 * (`playwright install ffmpeg`), which this machine cannot fetch. Each
 * scene signs in as a demo user and does what its FAQ answer says; a scene that cannot find what it
 * looks for fails (no video is faked) and the others still record.
 *
 *   npm run videos                        # a throwaway demo server from the build, into ./data/training-videos
 *   npm run videos -- --url http://127.0.0.1:8080 --out /srv/radflow/data/training-videos --only viewer,report
 *
 * Without --url it starts the built server (apps/server/dist/main.js, `npm run build` first) on a
 * temporary data dir with the demo seed on 127.0.0.1, so no real patient appears in a video.
 * The server serves what is in TRAINING_VIDEOS_DIR (default DATA_DIR/training-videos).
 */
import { spawn } from 'node:child_process';
import { mkdirSync, renameSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { once } from 'node:events';
import { chromium, type Browser, type Page } from 'playwright-core';
import { TRAINING_VIDEOS, type TTrainingVideoId, demoEmailForRole } from '@radflow/core';
import { startStoryServer } from '../support/global-setup.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run'];
const SIZE = { width: 1280, height: 720 };
const FPS = 15;
const FFMPEG = process.env.FFMPEG_PATH ?? 'ffmpeg';
const DEMO_PASSWORD = 'demo12345';
const repoRoot = resolve(import.meta.dirname, '../..');

/** A pause a viewer of the video needs to follow (this is a recording, not a test). */
const beat = (page: Page, ms = 900) => page.waitForTimeout(ms);

async function signIn(page: Page, email: string): Promise<void> {
  await page.goto('/login-page');
  await page.getByLabel('Mobile number or e-mail').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(DEMO_PASSWORD);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.getByRole('button', { name: 'Account' }).waitFor({ timeout: 60_000 });
  // The tour's offer is the tour's own business, not every video's.
  const skip = page.getByRole('button', { name: 'Skip the tour' });
  if (await skip.isVisible()) await skip.click();
}

const DOCTOR = demoEmailForRole('ROLE_DOCTOR');
const CENTER = demoEmailForRole('ROLE_CENTER');

async function firstRow(page: Page) {
  const row = page.locator('[data-testid^="study-row-"]').first();
  await row.waitFor({ timeout: 60_000 });
  return row;
}

async function openViewer(page: Page): Promise<void> {
  await page.goto('/');
  await (await firstRow(page)).getByRole('button', { name: 'View images' }).click();
  await page.waitForURL((url) => url.pathname.startsWith('/viewer/'), { timeout: 60_000 });
  await page.locator('canvas').first().waitFor({ timeout: 60_000 });
  await beat(page, 2000);
}

/** What each video shows, step by step, as the FAQ's answer says. */
const SCENES: Record<TTrainingVideoId, (page: Page) => Promise<void>> = {
  'sign-in': async (page) => {
    await page.goto('/login-page');
    await beat(page);
    await page.getByLabel('Mobile number or e-mail').pressSequentially(DOCTOR, { delay: 40 });
    await page.getByLabel('Password', { exact: true }).pressSequentially(DEMO_PASSWORD, { delay: 40 });
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByRole('button', { name: 'Account' }).waitFor({ timeout: 60_000 });
    await beat(page, 1500);
    await page.getByRole('button', { name: 'Account' }).click();
    await beat(page, 1500);
    await page.keyboard.press('Escape');
  },
  'study-list': async (page) => {
    await signIn(page, DOCTOR);
    await firstRow(page);
    await beat(page, 2500);
  },
  filters: async (page) => {
    await signIn(page, DOCTOR);
    await firstRow(page);
    const filter = page.getByLabel(/^Filter /).first();
    await filter.pressSequentially('a', { delay: 120 });
    await beat(page, 2000);
    await filter.fill('');
    await beat(page);
  },
  viewer: async (page) => {
    await signIn(page, DOCTOR);
    await openViewer(page);
  },
  'viewer-tools': async (page) => {
    await signIn(page, DOCTOR);
    await openViewer(page);
    const canvas = page.locator('canvas').first();
    const box = await canvas.boundingBox();
    if (!box) throw new Error('the viewer drew no image');
    await canvas.click();
    for (const key of ['2', 'z']) {
      await page.keyboard.press(key);
      await beat(page);
    }
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 3, { steps: 12 });
    await page.mouse.up();
    await beat(page, 1500);
  },
  report: async (page) => {
    await signIn(page, DOCTOR);
    await page.goto('/');
    await (await firstRow(page)).getByRole('button', { name: 'Open report' }).click();
    await page.waitForURL((url) => url.pathname.startsWith('/report-edit/'), { timeout: 60_000 });
    const editor = page.locator('[contenteditable="true"]').first();
    await editor.waitFor({ timeout: 60_000 });
    await editor.click();
    await editor.pressSequentially('No acute abnormality.', { delay: 50 });
    await beat(page, 1500);
  },
  'sign-off': async (page) => {
    await signIn(page, DOCTOR);
    await page.goto('/');
    await (await firstRow(page)).getByRole('button', { name: 'Open report' }).click();
    await page.waitForURL((url) => url.pathname.startsWith('/report-edit/'), { timeout: 60_000 });
    const signOff = page.getByRole('button', { name: /sign off/i }).first();
    await signOff.waitFor({ timeout: 60_000 });
    await signOff.hover();
    await beat(page, 2000);
  },
  templates: async (page) => {
    await signIn(page, DOCTOR);
    await page.goto('/template-page');
    await page
      .getByRole('heading', { name: /template/i })
      .first()
      .waitFor({ timeout: 60_000 });
    await beat(page, 2500);
  },
  share: async (page) => {
    await signIn(page, CENTER);
    await page.goto('/status');
    const row = await firstRow(page);
    await row.getByRole('button', { name: 'More actions' }).click();
    await page.getByRole('menu').waitFor();
    await beat(page, 2500);
    await page.keyboard.press('Escape');
  },
  'external-viewers': async (page) => {
    await signIn(page, DOCTOR);
    await openViewer(page);
    await page.getByRole('button', { name: 'Keyboard Shortcut' }).hover();
    await beat(page, 1500);
  },
  router: async (page) => {
    await signIn(page, CENTER);
    await page
      .getByRole('navigation', { name: 'Main menu' })
      .getByRole('button', { name: 'Download router' })
      .click();
    await page.getByRole('dialog').waitFor();
    await beat(page, 2500);
  },
  settings: async (page) => {
    await signIn(page, DOCTOR);
    await page.goto('/setting-page');
    await page.getByRole('heading').first().waitFor({ timeout: 60_000 });
    await beat(page, 2500);
  },
};

/**
 * Films a page into a webm until the returned stop is called: each screencast frame is held until
 * the next one arrives and written as many times as its time on screen needs at FPS, so the video
 * runs at the speed the user saw.
 */
async function startFilming(page: Page, file: string): Promise<() => Promise<void>> {
  const ffmpeg = spawn(
    FFMPEG,
    ['-loglevel', 'error', '-f', 'image2pipe', '-c:v', 'mjpeg', '-framerate', String(FPS), '-i', '-'].concat([
      '-vf',
      `scale=${SIZE.width}:${SIZE.height}`,
      '-c:v',
      'libvpx',
      '-b:v',
      '1M',
      '-deadline',
      'realtime',
      '-cpu-used',
      '8',
      '-pix_fmt',
      'yuv420p',
      '-an',
      '-f',
      'webm',
      '-y',
      file,
    ]),
    { stdio: ['pipe', 'ignore', 'pipe'] },
  );
  let ffmpegErrors = '';
  ffmpeg.stderr.on('data', (chunk: Buffer) => (ffmpegErrors += chunk.toString()));
  const exited = once(ffmpeg, 'close');
  const cdp = await page.context().newCDPSession(page);
  let held: { jpeg: Buffer; at: number } | null = null;
  let writing = Promise.resolve();
  // Frames still arrive after stopScreencast is sent; once stopping, they are dropped (written
  // after ffmpeg's input ended, one threw and ended the whole run).
  let stopping = false;
  const write = (jpeg: Buffer, times: number) => {
    writing = writing.then(async () => {
      for (let i = 0; i < times && ffmpeg.stdin.writable; i += 1) {
        if (!ffmpeg.stdin.write(jpeg)) await once(ffmpeg.stdin, 'drain');
      }
    });
  };
  cdp.on('Page.screencastFrame', (frame) => {
    void cdp.send('Page.screencastFrameAck', { sessionId: frame.sessionId }).catch(() => undefined);
    if (stopping) return;
    const at = frame.metadata.timestamp ?? Date.now() / 1000;
    if (held) write(held.jpeg, Math.max(1, Math.round((at - held.at) * FPS)));
    held = { jpeg: Buffer.from(frame.data, 'base64'), at };
  });
  await cdp.send('Page.startScreencast', {
    format: 'jpeg',
    quality: 80,
    maxWidth: SIZE.width,
    maxHeight: SIZE.height,
  });
  return async () => {
    stopping = true;
    await cdp.send('Page.stopScreencast').catch(() => undefined);
    const last = held as { jpeg: Buffer; at: number } | null;
    if (last) write(last.jpeg, Math.max(1, Math.round((Date.now() / 1000 - last.at) * FPS)));
    await writing;
    ffmpeg.stdin.end();
    const [code] = (await exited) as [number | null];
    if (code !== 0) throw new Error(`ffmpeg failed (${String(code)}): ${ffmpegErrors.trim()}`);
    if (!last) throw new Error('the screencast gave no frame');
  };
}

/** Records one video into `outDir/<id>.webm`. */
async function recordOne(browser: Browser, baseURL: string, outDir: string, id: TTrainingVideoId) {
  const partial = join(outDir, `.${id}.webm.part`);
  const context = await browser.newContext({ baseURL, viewport: SIZE });
  context.setDefaultTimeout(30_000);
  try {
    const page = await context.newPage();
    // Written beside, then renamed: the server never serves half a video.
    const stop = await startFilming(page, partial);
    try {
      await SCENES[id](page);
    } finally {
      await stop();
    }
    renameSync(partial, join(outDir, `${id}.webm`));
  } finally {
    rmSync(partial, { force: true });
    await context.close();
  }
}

export interface TRecordOptions {
  baseURL: string;
  outDir: string;
  only?: readonly TTrainingVideoId[];
}

/** Records the videos (all 12 unless `only`); answers which failed and why. */
export async function recordTrainingVideos(
  options: TRecordOptions,
): Promise<{ id: string; error: string }[]> {
  mkdirSync(options.outDir, { recursive: true });
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ARGS });
  const failed: { id: string; error: string }[] = [];
  try {
    for (const { id } of TRAINING_VIDEOS) {
      if (options.only && !options.only.includes(id)) continue;
      try {
        await recordOne(browser, options.baseURL, options.outDir, id);
      } catch (error) {
        failed.push({ id, error: error instanceof Error ? error.message : String(error) });
      }
    }
  } finally {
    await browser.close();
  }
  return failed;
}

/** The built server on a fresh demo data dir, as the browser stories start it, until `stop`. */
async function startDemoServer(): Promise<{ baseURL: string; stop: () => Promise<void> }> {
  const { server, stop } = await startStoryServer(
    join(repoRoot, 'apps/server/dist/main.js'),
    join(repoRoot, 'apps/web/dist'),
  );
  return { baseURL: server.baseURL, stop };
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { url: { type: 'string' }, out: { type: 'string' }, only: { type: 'string' } },
  });
  const outDir = resolve(values.out ?? join(repoRoot, 'data/training-videos'));
  const only = values.only?.split(',').map((s) => s.trim()) as TTrainingVideoId[] | undefined;
  const server = values.url
    ? { baseURL: values.url, stop: () => Promise.resolve() }
    : await startDemoServer();
  try {
    const started = Date.now();
    const failed = await recordTrainingVideos({ baseURL: server.baseURL, outDir, ...(only ? { only } : {}) });
    process.stdout.write(`recorded into ${outDir} in ${Math.round((Date.now() - started) / 1000)} s` + '\n');
    for (const f of failed) console.error(`FAILED ${f.id}: ${f.error}`);
    process.exitCode = failed.length > 0 ? 1 : 0;
  } finally {
    await server.stop();
  }
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) await main();
