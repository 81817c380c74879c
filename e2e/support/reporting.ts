import type { Download, Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import { eventually } from './pages.js';

/** A study row as GET /api/report-status/id/{id} answers it (the fields the stories read). */
export interface TStudyRowFacts {
  id: number;
  instanceId: string;
  apiVersion: number;
  status: string;
  shareLink: string | null;
}

export async function studyRow(page: Page, id: number): Promise<TStudyRowFacts> {
  const res = await page.request.get(`/api/report-status/id/${id}`);
  expect(res.status(), await res.text()).toBe(200);
  return (await res.json()) as TStudyRowFacts;
}

/** The signature name a signed report carries (GET /api/report/{id}: the main report's signature). */
export async function signatureNameOf(page: Page, id: number): Promise<string> {
  const res = await page.request.get(`/api/report/${id}`);
  expect(res.status(), await res.text()).toBe(200);
  const { reports } = (await res.json()) as {
    reports: { isAddendum: boolean; signature: { name: string } | null }[];
  };
  const name = reports.find((r) => !r.isAddendum)?.signature?.name;
  expect(name, 'the signed report carries a signature name').toBeTruthy();
  return name!;
}

/** A group setting section written by the group admin's session (POST /api/setting/update-group). */
export async function setGroupSection(page: Page, section: string, values: Record<string, unknown>) {
  const res = await page.request.post(`/api/setting/update-group/${section}`, { data: values });
  expect(res.status(), await res.text()).toBe(200);
}

/** The report editor of /report-edit (and of the viewer): the labels of features/report-editor/EDITOR.md. */
export class ReportEditorScreen {
  constructor(readonly page: Page) {}

  async open(row: Pick<TStudyRowFacts, 'id' | 'instanceId'>): Promise<void> {
    await this.page.goto(`/report-edit/${encodeURIComponent(row.instanceId)}/${row.id}`);
    await this.page.getByRole('region', { name: 'Report formatting' }).or(this.status).first().waitFor();
  }

  get editor(): Locator {
    return this.page.getByRole('textbox', { name: 'Report', exact: true });
  }

  get status(): Locator {
    return this.page.getByTestId('report-status-line');
  }

  button(name: string): Locator {
    return this.page.getByRole('button', { name, exact: true });
  }

  /** Types at the end of the report. */
  async type(text: string): Promise<void> {
    await this.editor.click();
    await this.page.keyboard.press('ControlOrMeta+End');
    await this.page.keyboard.press('Enter');
    await this.page.keyboard.type(text);
  }

  async insertTemplate(name: string): Promise<void> {
    await this.button('Templates').click();
    const dialog = this.page.getByRole('dialog', { name: 'Insert a template' });
    await dialog.waitFor();
    await dialog.getByRole('list', { name: 'Template list' }).getByText(name, { exact: true }).click();
    await dialog.getByRole('button', { name: 'Insert', exact: true }).click();
    await dialog.waitFor({ state: 'hidden' });
  }

  async save(): Promise<void> {
    await this.button('Save').click();
    await this.page.getByText('Report saved').first().waitFor();
  }

  /** Sign off, confirm, and wait for what the server answered (signed off or sent for verification). */
  async signOff(expected: 'Report signed off' | 'Report sent for verification'): Promise<void> {
    await this.button('Sign off').click();
    const confirm = this.page.getByRole('dialog').filter({ has: this.button('Sign off') });
    await confirm.getByRole('button', { name: 'Sign off', exact: true }).click();
    await this.page.getByText(expected).first().waitFor();
  }

  async expectStatus(text: string | RegExp): Promise<void> {
    await eventually(() => this.status.innerText()).toMatch(text);
  }
}

/** Runs `click` and answers the file the browser downloaded: its suggested name and bytes. */
export async function downloadOf(
  page: Page,
  click: () => Promise<void>,
): Promise<{ name: string; bytes: Buffer }> {
  const [download] = await Promise.all([page.waitForEvent('download') as Promise<Download>, click()]);
  const path = await download.path();
  const { readFileSync } = await import('node:fs');
  return { name: download.suggestedFilename(), bytes: readFileSync(path) };
}
