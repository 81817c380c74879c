import { and, asc, eq, max } from 'drizzle-orm';
import { expect } from 'vitest';
import type { TReportSaveResponse, TReportsResponse } from '@radflow/core';
import type { LightMyRequestResponse } from 'fastify';
import { reportVersions, reports } from '../src/db/schema.js';
import type { TestApp, TestClient } from './test-app.js';

/** The reporting calls of one browser, and readers of what the database holds. */
export function reportingCalls(getApp: () => TestApp) {
  const lock = (browser: TestClient, id: number, body: Record<string, unknown> = {}) =>
    browser.post(`/api/report/lock/${id}`, body);
  /** The newest stored version of the row's main report: what an editor opened now starts from. */
  async function currentVersion(id: number): Promise<number | null> {
    const [row] = await getApp()
      .db.select({ version: max(reportVersions.version) })
      .from(reportVersions)
      .innerJoin(reports, eq(reports.id, reportVersions.reportId))
      .where(and(eq(reports.reportStatusId, id), eq(reports.isAddendum, false)));
    return row?.version ?? null;
  }
  /** A save from a freshly opened editor (baseVersion = the newest version) unless the body names one. */
  const save = async (browser: TestClient, id: number, body: Record<string, unknown>) =>
    browser.post(`/api/report/save/${id}`, {
      name: 'CT Head',
      content: '<p>No bleed.</p>',
      ...('baseVersion' in body ? {} : { baseVersion: await currentVersion(id) }),
      ...body,
    });
  const signOff = (browser: TestClient, id: number, body: Record<string, unknown> = {}) =>
    save(browser, id, { signOff: true, ...body });
  const addendum = (browser: TestClient, id: number, content: string) =>
    browser.post(`/api/report/addendum/${id}`, { content });
  async function readReports(browser: TestClient, id: number): Promise<TReportsResponse> {
    const res = await browser.get(`/api/report/${id}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<TReportsResponse>();
  }
  async function reportRowsOf(id: number) {
    return getApp().db.select().from(reports).where(eq(reports.reportStatusId, id)).orderBy(asc(reports.id));
  }
  async function versionCount(): Promise<number> {
    return (await getApp().db.select({ id: reportVersions.id }).from(reportVersions)).length;
  }
  return { lock, save, signOff, addendum, readReports, reportRowsOf, versionCount, currentVersion };
}

/** A successful save's answer (the study row and the alert). */
export function saved(res: LightMyRequestResponse): TReportSaveResponse {
  expect(res.statusCode, res.body).toBe(200);
  return res.json<TReportSaveResponse>();
}

/** A refusal with its status and message. */
export function expectRefusal(res: LightMyRequestResponse, status: number, message?: string): void {
  expect(res.statusCode, res.body).toBe(status);
  if (message !== undefined) expect(res.json()).toMatchObject({ errorDescription: message });
}
