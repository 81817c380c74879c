import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import {
  MESSAGE_AE_TITLE_INVALID,
  type TCenter,
  type TPeopleAuditRow,
  type TRole,
  aeTitleTakenMessage,
} from '@radflow/core';
import { centers } from '../../db/schema.js';
import { createAeTitleLookup } from '../archive/ae-titles.js';
import {
  type TestApp,
  type TestClient,
  createTestCenter,
  createTestGroup,
  createTestApp,
} from '../../../test/test-app.js';
import { signedIn } from '../../../test/worklist-test-data.js';

/*
 * Issue 21 §9: the group admin adds and edits their centers (name, e-mail, DICOM AE titles, contact);
 * AE titles are valid DICOM AE titles and name one center only (the DICOM port picks the center by
 * the calling AE title); every change has its audit row; other groups' centers are out of reach.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

let aeSequence = 0;
/** An AE title no other test of this file uses (16 characters at most). */
const uniqueAe = (stem = 'CT') => `${stem}${Date.now().toString(36).slice(-6)}${aeSequence++}`.toUpperCase();

async function adminOfNewGroup(roles: TRole[] = ['ROLE_GROUP']) {
  const group = await createTestGroup(t.db);
  const { user, browser } = await signedIn(t, { roles, groupId: group.id });
  return { group, user, browser };
}

const put = (browser: TestClient, url: string, payload: unknown) =>
  browser.request({ method: 'PUT', url, payload: payload as object });

async function addCenter(browser: TestClient, body: Record<string, unknown>) {
  return browser.post('/api/admin/centers', {
    name: 'Riverside Imaging',
    email: 'Front.Desk@Riverside.example',
    ...body,
  });
}

async function auditOf(browser: TestClient): Promise<TPeopleAuditRow[]> {
  const res = await browser.get('/api/admin/audit');
  expect(res.statusCode, res.body).toBe(200);
  return res.json<TPeopleAuditRow[]>();
}

describe('centers of the group admin', () => {
  it('adds a center with AE titles and a contact; the DICOM port then knows its AE title', async () => {
    const { group, user, browser } = await adminOfNewGroup();
    const ae = uniqueAe();
    const res = await addCenter(browser, {
      aeTitles: [`  ${ae} `],
      contactName: 'Dr. Meera Rao',
      contactMobile: '9876501234',
    });
    expect(res.statusCode, res.body).toBe(200);
    const center = res.json<TCenter>();
    expect(center).toMatchObject({
      name: 'Riverside Imaging',
      email: 'front.desk@riverside.example',
      aeTitles: [ae],
      contactName: 'Dr. Meera Rao',
      contactMobile: '9876501234',
    });
    const [stored] = await t.db.select().from(centers).where(eq(centers.id, center.id));
    expect(stored?.groupId).toBe(group.id);
    expect(await createAeTitleLookup(t.app.ctx)(ae)).toBe(center.id);

    const listed = (await browser.get('/api/admin/centers')).json<TCenter[]>();
    expect(listed.map((c) => c.id)).toEqual([center.id]);

    const audit = await auditOf(browser);
    expect(audit[0]).toMatchObject({
      action: 'CENTER_CREATED',
      actorEmail: user.email,
      targetType: 'CENTER',
      targetId: center.id,
    });
    expect(JSON.stringify(audit[0]?.detail)).toContain(ae);
  });

  it('the admin (ROLE_ADMIN) manages centers too; other roles get 403', async () => {
    const { browser } = await adminOfNewGroup(['ROLE_ADMIN']);
    expect((await addCenter(browser, { aeTitles: [uniqueAe()] })).statusCode).toBe(200);
    const group = await createTestGroup(t.db);
    for (const role of ['ROLE_DOCTOR', 'ROLE_ASSIGNOR', 'ROLE_TYPIST'] as const) {
      const { browser: other } = await signedIn(t, { roles: [role], groupId: group.id });
      expect((await addCenter(other, { aeTitles: [uniqueAe()] })).statusCode, role).toBe(403);
      expect((await other.get('/api/admin/centers')).statusCode, role).toBe(403);
    }
    const center = await createTestCenter(t.db, { groupId: group.id });
    const { browser: centerUser } = await signedIn(t, {
      roles: ['ROLE_CENTER'],
      groupId: group.id,
      centerId: center.id,
    });
    const edit = await put(centerUser, `/api/admin/centers/${center.id}`, {
      name: 'Mine now',
      email: 'x@y.example',
      aeTitles: [],
    });
    expect(edit.statusCode).toBe(403);
  });

  it('refuses an AE title that is not a DICOM AE title, naming the problem, and stores nothing', async () => {
    const { browser } = await adminOfNewGroup();
    for (const bad of ['', '   ', 'SEVENTEEN_CHARS_X', 'BACK\\SLASH', 'TAB\tAE', 'ÄRZTE']) {
      const res = await addCenter(browser, { aeTitles: [bad] });
      expect(res.statusCode, JSON.stringify(bad)).toBe(400);
      expect(res.json<{ errorDescription: string }>().errorDescription).toContain(MESSAGE_AE_TITLE_INVALID);
    }
    expect((await browser.get('/api/admin/centers')).json<TCenter[]>()).toEqual([]);
  });

  it('an AE title names one center: taken (any case, any group) or listed twice is refused with 409', async () => {
    const first = await adminOfNewGroup();
    const second = await adminOfNewGroup();
    const ae = uniqueAe('MR');
    expect((await addCenter(first.browser, { aeTitles: [ae] })).statusCode).toBe(200);

    const taken = await addCenter(second.browser, { aeTitles: [ae.toLowerCase()] });
    expect(taken.statusCode, taken.body).toBe(409);
    expect(taken.json<{ errorDescription: string }>().errorDescription).toBe(
      aeTitleTakenMessage(ae.toLowerCase()),
    );
    const twice = await addCenter(second.browser, { aeTitles: ['US1', ' us1'] });
    expect(twice.statusCode, twice.body).toBe(409);
    expect((await second.browser.get('/api/admin/centers')).json<TCenter[]>()).toEqual([]);
  });

  it('two admins adding one AE title at once: one center gets it, the other 409', async () => {
    const [first, second] = [await adminOfNewGroup(), await adminOfNewGroup()];
    const ae = uniqueAe('XA');
    const answers = await Promise.all([
      addCenter(first.browser, { aeTitles: [ae] }),
      addCenter(second.browser, { aeTitles: [ae] }),
    ]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409]);
    const holders = await t.db
      .select()
      .from(centers)
      .where(sql`${ae} = any(${centers.aeTitles})`);
    expect(holders).toHaveLength(1);
  });

  it('edits a center, keeping its own AE titles; the audit row says what changed', async () => {
    const { browser } = await adminOfNewGroup();
    const [ae1, ae2] = [uniqueAe('CR'), uniqueAe('DX')];
    const created = (await addCenter(browser, { aeTitles: [ae1] })).json<TCenter>();
    const res = await put(browser, `/api/admin/centers/${created.id}`, {
      name: 'Riverside Imaging North',
      email: 'north@riverside.example',
      aeTitles: [ae1, ae2],
      contactName: '',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<TCenter>()).toMatchObject({ name: 'Riverside Imaging North', aeTitles: [ae1, ae2] });
    expect(await createAeTitleLookup(t.app.ctx)(ae2)).toBe(created.id);
    const [update] = await auditOf(browser);
    expect(update).toMatchObject({ action: 'CENTER_UPDATED', targetId: created.id });
    expect(update?.detail).toMatchObject({
      before: { name: 'Riverside Imaging', aeTitles: [ae1] },
      after: { name: 'Riverside Imaging North', aeTitles: [ae1, ae2] },
    });
  });

  it("another group's center cannot be seen or changed (404), and is left as it was", async () => {
    const mine = await adminOfNewGroup();
    const theirs = await adminOfNewGroup();
    const center = (await addCenter(theirs.browser, { aeTitles: [uniqueAe('NM')] })).json<TCenter>();
    const res = await put(mine.browser, `/api/admin/centers/${center.id}`, {
      name: 'Taken over',
      email: 'evil@example.com',
      aeTitles: [],
    });
    expect(res.statusCode).toBe(404);
    expect((await mine.browser.get('/api/admin/centers')).json<TCenter[]>()).toEqual([]);
    const [stored] = await t.db.select().from(centers).where(eq(centers.id, center.id));
    expect(stored?.name).toBe('Riverside Imaging');
    expect(await auditOf(mine.browser)).toEqual([]);
  });

  it('refuses a bad e-mail or contact mobile with 400 naming the field', async () => {
    const { browser } = await adminOfNewGroup();
    const email = await addCenter(browser, { email: 'not-an-email' });
    expect(email.statusCode).toBe(400);
    expect(email.body).toContain('email');
    const mobile = await addCenter(browser, { contactMobile: '12345' });
    expect(mobile.statusCode).toBe(400);
    expect(mobile.body).toContain('Mobile number should be 10 digit');
  });
});
