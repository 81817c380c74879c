import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { request, type Page } from 'playwright-core';
import { expect } from 'vitest';
import { openBrowser, type TBrowserSession, type TStorageState } from './browser.js';
import { Shell } from './pages.js';
import { storyServer } from './server.js';

/** The demo accounts' password (apps/server/src/modules/seed/seed-demo.ts). */
export const DEMO_PASSWORD = 'demo12345';

/**
 * A fresh browser context signed in as a demo user, on their home screen. The session comes from
 * one sign-in through the API per user and server (signedInState); the form's own sign-in paths
 * have their stories (sign-in-each-role, otp-sign-in, device-approval, update-password).
 * `home: false` leaves the page blank, for a story whose next step opens a page itself or calls the
 * API only (`page.request`): loading the home screen first costs a whole app start and its list.
 */
export async function openSignedIn(email: string, { home = true } = {}): Promise<TBrowserSession> {
  const session = await openBrowser({ storageState: await signedInState(email) });
  if (!home) return session;
  // The route the guard always sends to the user's first allowed path, as the form's sign-in does.
  await session.page.goto('/user/get-route');
  await session.page.waitForURL((url) => url.pathname !== '/user/get-route');
  await new Shell(session.page).waitUntilSignedIn();
  return session;
}

/**
 * A demo user's session cookie and device id, signed in through POST /api/do-login once and kept
 * in the server's data dir for the files after this one; signed in again when the session has ended
 * (a story signed out, changed the user or revoked the device).
 */
async function signedInState(email: string): Promise<TStorageState> {
  const baseURL = storyServer().baseURL;
  const dir = storyServer().sessionsDir;
  const file = join(dir, `${encodeURIComponent(email)}.json`);
  if (existsSync(file)) {
    const kept = JSON.parse(readFileSync(file, 'utf8')) as TStorageState;
    const cookie = kept.cookies.map((c) => `${c.name}=${c.value}`).join('; ');
    const res = await fetch(`${baseURL}/api/user/`, {
      headers: { Cookie: cookie, Accept: 'application/json' },
    });
    if (res.ok) return kept;
  }
  // The id the web app keeps in localStorage (apps/web/src/api/device.ts), so the page's calls come
  // from the device the session was opened on; the name is the one it gives headless Chromium.
  const deviceId = randomUUID();
  const api = await request.newContext({ baseURL });
  try {
    const res = await api.post('/api/do-login', {
      form: { email, password: DEMO_PASSWORD },
      headers: { 'X-Device-Id': deviceId, 'X-Device-Name': 'Chrome on Linux', Accept: 'application/json' },
    });
    expect(res.status(), `sign-in of ${email}: ${await res.text()}`).toBe(200);
    const { cookies } = await api.storageState();
    const state: TStorageState = {
      cookies,
      origins: [
        { origin: new URL(baseURL).origin, localStorage: [{ name: 'radflow.deviceId', value: deviceId }] },
      ],
    };
    writeFileSync(file, JSON.stringify(state));
    return state;
  } finally {
    await api.dispose();
  }
}

/** A short text unique to this run, so stories never find another run's or another story's rows. */
export function uniqueTag(): string {
  return `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`.toUpperCase();
}

/** The center of a center user (GET /api/centers answers their own). */
export async function ownCenterId(page: Page): Promise<number> {
  const res = await page.request.get('/api/centers');
  expect(res.status()).toBe(200);
  const centers = (await res.json()) as { id: number }[];
  const center = centers[0];
  expect(center).toBeDefined();
  return center!.id;
}

/**
 * Studies without images made through the API as the signed-in user (POST
 * /api/dicom-web/study/create-from-website, spec-core §7), with the session cookie of the page's
 * browser. Returns their report ids in the order of `patientNames`.
 */
export async function createStudiesViaApi(page: Page, patientNames: readonly string[]): Promise<number[]> {
  const center = await ownCenterId(page);
  const ids: number[] = [];
  for (const patientName of patientNames) {
    const res = await page.request.post('/api/dicom-web/study/create-from-website', {
      data: {
        patientName,
        labModality: 'CT',
        patientAge: '40Y',
        patientSex: 'M',
        center,
        studyName: 'CT Brain Plain',
        history: 'Headache',
      },
    });
    expect([200, 201], await res.text()).toContain(res.status());
    ids.push(((await res.json()) as { id: number }).id);
  }
  return ids;
}
