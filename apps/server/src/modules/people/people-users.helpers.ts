import { desc, eq } from 'drizzle-orm';
import { expect } from 'vitest';
import type { TManagedUser, TPeopleAuditRow, TRole } from '@radflow/core';
import { messageOutbox } from '../../db/schema.js';
import { type TestApp, type TestClient, createTestGroup } from '../../../test/test-app.js';
import { signedIn } from '../../../test/worklist-test-data.js';

/** The group-admin test kit of issue 21 §9: an admin of a new group, calls, the outbox link. */

let sequence = 0;
export const uniqueEmail = (stem = 'invitee') =>
  `${stem}-${Date.now().toString(36)}${(sequence++).toString(36)}@clinic.example`;

export async function adminOfNewGroup(t: TestApp, roles: TRole[] = ['ROLE_GROUP']) {
  const group = await createTestGroup(t.db);
  const { user, browser } = await signedIn(t, { roles, groupId: group.id });
  return { group, user, browser };
}

export const put = (browser: TestClient, url: string, payload: unknown) =>
  browser.request({ method: 'PUT', url, payload: payload as object });

export async function invite(browser: TestClient, body: Record<string, unknown>) {
  return browser.post('/api/admin/users', {
    email: uniqueEmail(),
    identifier: 'Dr. Anil Kumar',
    roles: ['ROLE_DOCTOR'],
    ...body,
  });
}

export async function invited(browser: TestClient, body: Record<string, unknown> = {}) {
  const res = await invite(browser, body);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<TManagedUser>();
}

export async function usersOf(browser: TestClient): Promise<TManagedUser[]> {
  const res = await browser.get('/api/admin/users');
  expect(res.statusCode, res.body).toBe(200);
  return res.json<TManagedUser[]>();
}

export async function auditOf(browser: TestClient): Promise<TPeopleAuditRow[]> {
  const res = await browser.get('/api/admin/audit');
  expect(res.statusCode, res.body).toBe(200);
  return res.json<TPeopleAuditRow[]>();
}

/** The newest message to a recipient as the outbox recorded it, and the set-password token in it. */
export async function linkFromOutbox(t: TestApp, recipient: string) {
  const [message] = await t.db
    .select()
    .from(messageOutbox)
    .where(eq(messageOutbox.recipient, recipient))
    .orderBy(desc(messageOutbox.id))
    .limit(1);
  const token = message?.body.match(/\/set-password\?token=([A-Za-z0-9_-]+)/)?.[1];
  if (!message || !token) throw new Error(`no set-password link in the outbox for ${recipient}`);
  return { message, token };
}

export const setPassword = (client: TestClient, token: string, newPassword: string) =>
  client.post('/api/user-create/set-password', { token, newPassword });
