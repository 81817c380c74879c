import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { type TGroupChangesPage, type TRole, defaultPreferences } from '@radflow/core';
import { settingChanges } from '../../db/schema.js';
import { type TestApp, createTestApp, createTestGroup } from '../../../test/test-app.js';
import { signedIn } from '../../../test/worklist-test-data.js';

/**
 * Group settings of the issue 6 contract: update-group and reset-group write one setting_changes row
 * per changed field in the save's transaction; GET /api/setting/group-changes pages them for the
 * group's admins.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

/** A new group with one signed-in user per name (`{ admin: ['ROLE_GROUP'] }`). */
async function groupWith<TName extends string>(roles: Record<TName, TRole[]>) {
  const group = await createTestGroup(t.db);
  const out = {} as Record<TName, Awaited<ReturnType<typeof signedIn>>>;
  for (const [name, r] of Object.entries(roles) as Array<[TName, TRole[]]>) {
    out[name] = await signedIn(t, { roles: r, groupId: group.id });
  }
  return { group, ...out };
}

async function changesOf(groupId: number) {
  return t.db.select().from(settingChanges).where(eq(settingChanges.groupId, groupId));
}

describe('POST /api/setting/update-group/{settingName} audit', () => {
  it('writes one row per changed field, none for a field sent unchanged', async () => {
    const { group, admin } = await groupWith({ admin: ['ROLE_GROUP'] });
    const res = await admin.browser.post('/api/setting/update-group/GROUP_SWITCHES', {
      openInWeasis: true,
      allowToSplitStudy: false, // already false: not a change
    });
    expect(res.statusCode, res.body).toBe(200);
    const rows = await changesOf(group.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      section: 'GROUP_SWITCHES',
      field: 'openInWeasis',
      oldValue: false,
      newValue: true,
      changedBy: admin.user.email,
      changedByUserId: admin.user.id,
    });

    // The same value again changes nothing, so it writes nothing.
    await admin.browser.post('/api/setting/update-group/GROUP_SWITCHES', { openInWeasis: true });
    expect(await changesOf(group.id)).toHaveLength(1);
  });

  it('records list and nullable values whole', async () => {
    const { group, admin } = await groupWith({ admin: ['ROLE_ADMIN'] });
    await admin.browser.post('/api/setting/update-group/ADMIN_PREFERENCES', { signOffTimeLimit: 60 });
    await admin.browser.post('/api/setting/update-group/VERIFICATION_SETTINGS', {
      centersAndDoctorsList: [{ centerEmail: 'c@x.in', doctorEmail: 'd@x.in' }],
    });
    const rows = await changesOf(group.id);
    expect(rows.map((r) => [r.section, r.field, r.oldValue, r.newValue])).toEqual(
      expect.arrayContaining([
        ['ADMIN_PREFERENCES', 'signOffTimeLimit', null, 60],
        [
          'VERIFICATION_SETTINGS',
          'centersAndDoctorsList',
          [],
          [{ centerEmail: 'c@x.in', doctorEmail: 'd@x.in' }],
        ],
      ]),
    );
    expect(rows).toHaveLength(2);
  });

  it('a refused save changes nothing and writes no audit row', async () => {
    const { group, admin, doctor } = await groupWith({ admin: ['ROLE_GROUP'], doctor: ['ROLE_DOCTOR'] });
    const bad = await admin.browser.post('/api/setting/update-group/GROUP_SWITCHES', {
      openInWeasis: true,
      needBilling: 'yes',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().additionalInfo).toBe('needBilling');
    const unknown = await admin.browser.post('/api/setting/update-group/GROUP_SWITCHES', {
      openInWeasis: true,
      retiredSwitch: true,
    });
    expect(unknown.statusCode).toBe(400);
    const forbidden = await doctor.browser.post('/api/setting/update-group/GROUP_SWITCHES', {
      openInWeasis: true,
    });
    expect(forbidden.statusCode).toBe(403);
    expect(await changesOf(group.id)).toEqual([]);
    const prefs = (await doctor.browser.get('/api/user/preference')).json();
    expect(prefs.GROUP_SWITCHES).toEqual(defaultPreferences().GROUP_SWITCHES);
  });
});

describe('POST /api/setting/reset-group/{settingName}', () => {
  it('answers the defaults, the group sees them, and each field that changed back is audited', async () => {
    const { group, admin, doctor } = await groupWith({ admin: ['ROLE_GROUP'], doctor: ['ROLE_DOCTOR'] });
    await admin.browser.post('/api/setting/update-group/USER_ADMIN_VISIBLE_PREFERENCES', {
      hideSummaryPage: true,
      customRouterUrl: 'http://router.local:8000',
    });
    const reset = await admin.browser.post('/api/setting/reset-group/USER_ADMIN_VISIBLE_PREFERENCES');
    expect(reset.statusCode, reset.body).toBe(200);
    expect(reset.json()).toEqual(defaultPreferences().USER_ADMIN_VISIBLE_PREFERENCES);
    const prefs = (await doctor.browser.get('/api/user/preference')).json();
    expect(prefs.USER_ADMIN_VISIBLE_PREFERENCES).toEqual(defaultPreferences().USER_ADMIN_VISIBLE_PREFERENCES);

    const rows = await changesOf(group.id);
    const resetRows = rows.filter((r) => r.newValue === false || r.newValue === '');
    expect(resetRows.map((r) => [r.field, r.oldValue, r.newValue]).sort()).toEqual([
      ['customRouterUrl', 'http://router.local:8000', ''],
      ['hideSummaryPage', true, false],
    ]);
    expect(rows).toHaveLength(4);
  });

  it('answers 403 to a doctor and to a center, and a group section is not reset through /setting/reset', async () => {
    const { admin, doctor, center } = await groupWith({
      admin: ['ROLE_GROUP'],
      doctor: ['ROLE_DOCTOR'],
      center: ['ROLE_CENTER'],
    });
    expect((await doctor.browser.post('/api/setting/reset-group/GROUP_SWITCHES')).statusCode).toBe(403);
    expect((await center.browser.post('/api/setting/reset-group/GROUP_SWITCHES')).statusCode).toBe(403);
    expect((await admin.browser.post('/api/setting/reset/GROUP_SWITCHES')).statusCode).toBe(400);
  });
});

describe('GET /api/setting/group-changes', () => {
  it("pages the group's changes newest first, for group admins only", async () => {
    const { admin, doctor } = await groupWith({ admin: ['ROLE_GROUP'], doctor: ['ROLE_DOCTOR'] });
    const other = await groupWith({ admin: ['ROLE_GROUP'] });
    await other.admin.browser.post('/api/setting/update-group/GROUP_SWITCHES', { needBilling: true });
    for (const field of ['openInWeasis', 'openInHoros', 'enableSupportChatBot']) {
      const res = await admin.browser.post('/api/setting/update-group/GROUP_SWITCHES', { [field]: true });
      expect(res.statusCode).toBe(200);
    }

    const first = await admin.browser.get('/api/setting/group-changes?page=0&size=2');
    expect(first.statusCode, first.body).toBe(200);
    const page = first.json<TGroupChangesPage>();
    expect(page.totalElements).toBe(3);
    expect(page.content.map((c) => c.field)).toEqual(['enableSupportChatBot', 'openInHoros']);
    expect(page.content[0]).toMatchObject({
      section: 'GROUP_SWITCHES',
      oldValue: false,
      newValue: true,
      changedBy: admin.user.email,
    });
    expect(new Date(page.content[0]?.changedAt ?? '').getTime()).not.toBeNaN();
    const second = (
      await admin.browser.get('/api/setting/group-changes?page=1&size=2')
    ).json<TGroupChangesPage>();
    expect(second.content.map((c) => c.field)).toEqual(['openInWeasis']);
    // Defaults: page 0, size 50.
    expect(
      (await admin.browser.get('/api/setting/group-changes')).json<TGroupChangesPage>().content,
    ).toHaveLength(3);

    expect((await admin.browser.get('/api/setting/group-changes?size=101')).statusCode).toBe(400);
    expect((await admin.browser.get('/api/setting/group-changes?page=-1')).statusCode).toBe(400);
    expect((await doctor.browser.get('/api/setting/group-changes')).statusCode).toBe(403);
  });
});
