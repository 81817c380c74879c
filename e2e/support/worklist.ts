import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { openBrowser, type TBrowserSession } from './browser.js';
import { LoginPage, Shell } from './pages.js';

/** The demo accounts' password (apps/server/src/modules/seed/seed-demo.ts). */
export const DEMO_PASSWORD = 'demo12345';

/** A fresh browser signed in as a demo user, on their home screen. */
export async function openSignedIn(email: string): Promise<TBrowserSession> {
  const session = await openBrowser();
  const login = new LoginPage(session.page);
  await login.open();
  await login.signIn(email, DEMO_PASSWORD);
  await new Shell(session.page).waitUntilSignedIn();
  return session;
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
