import { randomUUID } from 'node:crypto';
import { request, type APIRequestContext, type Locator, type Page } from 'playwright-core';
import { expect } from 'vitest';
import { storyServer } from './server.js';
import { DEMO_PASSWORD } from './worklist.js';

/**
 * The lab front desk's setup through the API (issue 25): the group's switches as the group admin,
 * the center's lab settings as the center user. Each story adds its own uniquely named entries, so
 * what other stories stored stays as it was.
 */

/**
 * An API client signed in as a demo user (POST /api/do-login), for setup that needs no screen: no
 * browser context, no home screen loaded. Its calls carry a device's headers as the web app's do.
 */
export async function apiAs(email: string): Promise<APIRequestContext> {
  const device = { 'X-Device-Id': `e2e-lab-${randomUUID()}`, 'X-Device-Name': 'Browser story API calls' };
  const api = await request.newContext({ baseURL: storyServer().baseURL, extraHTTPHeaders: device });
  const res = await api.post('/api/do-login', {
    form: { email, password: DEMO_PASSWORD },
    headers: { Accept: 'application/json' },
  });
  expect(res.status(), `sign-in of ${email}: ${await res.text()}`).toBe(200);
  return api;
}

type TApi = Pick<Page, 'request'>['request'] | APIRequestContext;

/** POST /api/setting/update-group/GROUP_SWITCHES as the group admin (only the fields sent change). */
export async function setGroupSwitches(api: TApi, switches: Record<string, boolean>): Promise<void> {
  const res = await api.post('/api/setting/update-group/GROUP_SWITCHES', { data: switches });
  expect(res.status(), await res.text()).toBe(200);
}

interface TLabPreferencesAnswer {
  LAB_SLOTS: { slots: unknown[] };
  LAB_CATEGORY_PRIORITY: { categoriesAndPriorities: unknown[] };
}

async function labPreferences(api: TApi): Promise<TLabPreferencesAnswer> {
  const res = await api.get('/api/lab/get-preferences');
  expect(res.status(), await res.text()).toBe(200);
  return (await res.json()) as TLabPreferencesAnswer;
}

async function saveCenterSection(api: TApi, section: string, value: object): Promise<void> {
  const res = await api.post(`/api/setting/update/${section}`, { data: value });
  expect(res.status(), await res.text()).toBe(200);
}

/** A patient category with a discount, added to the center's LAB_CATEGORY_PRIORITY as the center user. */
export async function addPatientCategory(api: TApi, name: string, discount: number): Promise<void> {
  const { categoriesAndPriorities } = (await labPreferences(api)).LAB_CATEGORY_PRIORITY;
  await saveCenterSection(api, 'LAB_CATEGORY_PRIORITY', {
    categoriesAndPriorities: [
      ...categoriesAndPriorities,
      { name, type: 'PATIENT_CATEGORY', discount, disabled: false },
    ],
  });
}

/** A slot open all day every day for one modality, added to the center's LAB_SLOTS as the center user. */
export async function addAllDaySlot(api: TApi, name: string, modality: string, limit: number): Promise<void> {
  const { slots } = (await labPreferences(api)).LAB_SLOTS;
  const day = { startTime: '00:00', endTime: '23:59', appointmentLimit: limit };
  const weeklyTiming = Object.fromEntries(['0', '1', '2', '3', '4', '5', '6'].map((d) => [d, day]));
  await saveCenterSection(api, 'LAB_SLOTS', {
    slots: [...slots, { name, labModalities: [modality], weeklyTiming, blockedDays: [] }],
  });
}

/** A MUI select (a TextField with `select`) found by its label, with or without the required asterisk. */
export async function choose(page: Page, root: Locator, label: string, option: string): Promise<void> {
  await root.getByRole('combobox', { name: new RegExp(`^${label}`) }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
  await page.getByRole('listbox').waitFor({ state: 'hidden' });
}

/** The app's confirm dialog (spec-core §8): checks its message and answers Confirm. */
export async function confirmWith(page: Page, message: string): Promise<void> {
  const dialog = page.getByRole('dialog').filter({ hasText: message });
  await dialog.waitFor();
  await dialog.getByRole('button', { name: 'Confirm', exact: true }).click();
  await dialog.waitFor({ state: 'hidden' });
}

/** A letters-only suffix unique to this run (lab names and codes in one story never meet another's). */
export function uniqueLetters(): string {
  const letters = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
  let n = Date.now() * 1000 + Math.floor(Math.random() * 1000);
  let word = '';
  for (let i = 0; i < 7; i += 1) {
    word += letters[n % 26];
    n = Math.floor(n / 26);
  }
  return word;
}
