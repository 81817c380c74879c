import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TLabPreferences, type TRole, defaultPreferences } from '@radflow/core';
import { preferences } from '../../db/schema.js';
import { loadSeriesNames } from '../viewer/viewer-context.js';
import {
  type TestApp,
  createTestApp,
  createTestCenter,
  createTestGroup,
  createTestUser,
  setGroupPreference,
} from '../../../test/test-app.js';
import { signedIn } from '../../../test/worklist-test-data.js';

/**
 * Center sections (issue 6 contract): SERIES_NAME, LAB_SLOTS, LAB_CATEGORY_PRIORITY and
 * LAB_DEPARTMENTS belong to the center, so every user of the center sees and saves the same one, and
 * the lab staff read them through GET /api/lab/get-preferences.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const slot = {
  name: 'Morning CT',
  labModalities: ['CT'],
  weeklyTiming: { '1': { startTime: '09:00', endTime: '12:30', appointmentLimit: 10 } },
  blockedDays: [],
};

async function centerPlace() {
  const group = await createTestGroup(t.db);
  await setGroupPreference(t.db, group.id, 'GROUP_SWITCHES', { appointmentSupportRIS: true });
  const center = await createTestCenter(t.db, { groupId: group.id });
  const at = (roles: TRole[], centerId: number | null = center.id) =>
    signedIn(t, { roles, groupId: group.id, centerId });
  return { group, center, at };
}

async function preferenceOf(browser: { get(url: string): Promise<{ json(): unknown }> }) {
  return (await browser.get('/api/user/preference')).json() as Record<string, unknown>;
}

describe('center sections', () => {
  it("a center's two users see the same LAB_SLOTS; a lab receptionist of the center reads them", async () => {
    const place = await centerPlace();
    const first = await place.at(['ROLE_CENTER']);
    const second = await place.at(['ROLE_CENTER']);
    const receptionist = await place.at(['ROLE_LABS_RECEPTIONIST']);
    const saved = await first.browser.post('/api/setting/update/LAB_SLOTS', { slots: [slot] });
    expect(saved.statusCode, saved.body).toBe(200);

    expect((await preferenceOf(second.browser)).LAB_SLOTS).toEqual({ slots: [slot] });
    expect((await preferenceOf(receptionist.browser)).LAB_SLOTS).toEqual({ slots: [slot] });
    const lab = await receptionist.browser.get('/api/lab/get-preferences');
    expect(lab.statusCode, lab.body).toBe(200);
    expect(lab.json<TLabPreferences>()).toEqual({
      LAB_SLOTS: { slots: [slot] },
      LAB_CATEGORY_PRIORITY: { categoriesAndPriorities: [] },
      LAB_TEST_ATTRIBUTES: { data: [] },
      LAB_DEPARTMENTS: { labDepartmentList: [], referringDoctorDepartmentList: [] },
    });

    // The second user edits the center's list: the first sees the edit.
    const evening = { ...slot, name: 'Evening CT' };
    await second.browser.post('/api/setting/update/LAB_SLOTS', { slots: [slot, evening] });
    expect((await preferenceOf(first.browser)).LAB_SLOTS).toEqual({ slots: [slot, evening] });

    // Another center of the group does not see them.
    const elsewhere = await createTestCenter(t.db, { groupId: place.group.id });
    const otherCenter = await place.at(['ROLE_CENTER'], elsewhere.id);
    expect((await preferenceOf(otherCenter.browser)).LAB_SLOTS).toEqual({ slots: [] });
  });

  it('get-preferences answers the center users and lab roles, 403 to the others', async () => {
    const place = await centerPlace();
    const center = await place.at(['ROLE_CENTER']);
    await center.browser.post('/api/setting/update/LAB_DEPARTMENTS', { labDepartmentList: ['radiology'] });
    await center.browser.post('/api/setting/update/LAB_CATEGORY_PRIORITY', {
      categoriesAndPriorities: [{ name: 'Senior', discount: 10, type: 'PATIENT_CATEGORY' }],
    });
    for (const roles of [['ROLE_LABS_SUPERVISOR'], ['ROLE_CENTER'], ['ROLE_CENTER_CUSTOMER']] as TRole[][]) {
      const user = await place.at(roles);
      const res = await user.browser.get('/api/lab/get-preferences');
      expect(res.statusCode, roles.join()).toBe(200);
      expect(res.json<TLabPreferences>()).toMatchObject({
        LAB_DEPARTMENTS: { labDepartmentList: ['RADIOLOGY'] },
        LAB_CATEGORY_PRIORITY: {
          categoriesAndPriorities: [
            { name: 'Senior', discount: 10, type: 'PATIENT_CATEGORY', disabled: false },
          ],
        },
      });
    }
    for (const role of ['ROLE_DOCTOR', 'ROLE_ASSIGNOR', 'ROLE_GROUP', 'ROLE_BILLER'] as TRole[]) {
      const user = await place.at([role], null);
      expect((await user.browser.get('/api/lab/get-preferences')).statusCode, role).toBe(403);
    }
  });

  it('a lab receptionist may read but not save the center sections', async () => {
    const place = await centerPlace();
    const receptionist = await place.at(['ROLE_LABS_RECEPTIONIST']);
    const res = await receptionist.browser.post('/api/setting/update/LAB_SLOTS', { slots: [slot] });
    expect(res.statusCode).toBe(403);
    expect((await receptionist.browser.post('/api/setting/reset/LAB_SLOTS')).statusCode).toBe(403);
  });

  it("a reset clears the center's section for all its users", async () => {
    const place = await centerPlace();
    const first = await place.at(['ROLE_CENTER']);
    const second = await place.at(['ROLE_CENTER']);
    await first.browser.post('/api/setting/update/SERIES_NAME', {
      seriesMappings: [{ seriesName: 'AX T2', preferredName: 'Axial T2' }],
    });
    const reset = await second.browser.post('/api/setting/reset/SERIES_NAME');
    expect(reset.statusCode, reset.body).toBe(200);
    expect(reset.json()).toEqual({ seriesMappings: [] });
    expect((await preferenceOf(first.browser)).SERIES_NAME).toEqual({ seriesMappings: [] });
  });

  it('a center user without a center keeps them as their own', async () => {
    const place = await centerPlace();
    const loose = await place.at(['ROLE_CENTER'], null);
    const other = await place.at(['ROLE_CENTER'], null);
    await loose.browser.post('/api/setting/update/LAB_SLOTS', { slots: [slot] });
    expect((await preferenceOf(loose.browser)).LAB_SLOTS).toEqual({ slots: [slot] });
    expect((await preferenceOf(other.browser)).LAB_SLOTS).toEqual(defaultPreferences().LAB_SLOTS);
  });

  it("a section one of the center's users saved before center sections is the center's until it saves again", async () => {
    const place = await centerPlace();
    const old = await createTestUser(t.db, {
      groupId: place.group.id,
      centerId: place.center.id,
      roles: ['ROLE_CENTER'],
    });
    await t.db.insert(preferences).values({
      scope: 'USER',
      ownerId: old.id,
      section: 'LAB_DEPARTMENTS',
      value: { labDepartmentList: ['CARDIO'], referringDoctorDepartmentList: [] },
    });
    const center = await place.at(['ROLE_CENTER']);
    expect((await preferenceOf(center.browser)).LAB_DEPARTMENTS).toEqual({
      labDepartmentList: ['CARDIO'],
      referringDoctorDepartmentList: [],
    });
    // The rule "departments cannot be deleted" holds against it too.
    const refused = await center.browser.post('/api/setting/update/LAB_DEPARTMENTS', {
      labDepartmentList: ['ORTHO'],
    });
    expect(refused.statusCode).toBe(400);
    const saved = await center.browser.post('/api/setting/update/LAB_DEPARTMENTS', {
      labDepartmentList: ['CARDIO', 'ORTHO'],
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const receptionist = await place.at(['ROLE_LABS_RECEPTIONIST']);
    const lab = (await receptionist.browser.get('/api/lab/get-preferences')).json<TLabPreferences>();
    expect(lab.LAB_DEPARTMENTS.labDepartmentList).toEqual(['CARDIO', 'ORTHO']);
  });

  it("the viewer maps series names with the center's list, not with older user rows", async () => {
    const place = await centerPlace();
    const old = await createTestUser(t.db, {
      groupId: place.group.id,
      centerId: place.center.id,
      roles: ['ROLE_CENTER'],
    });
    await t.db.insert(preferences).values({
      scope: 'USER',
      ownerId: old.id,
      section: 'SERIES_NAME',
      value: { seriesMappings: [{ seriesName: 'T1', preferredName: 'Old T1' }] },
    });
    expect(await loadSeriesNames(t.db, place.center.id)).toEqual([
      { seriesName: 'T1', preferredName: 'Old T1' },
    ]);

    const center = await place.at(['ROLE_CENTER']);
    const mapping = { seriesName: 'AX T2', preferredName: 'Axial T2' };
    await center.browser.post('/api/setting/update/SERIES_NAME', { seriesMappings: [mapping] });
    expect(await loadSeriesNames(t.db, place.center.id)).toEqual([mapping]);

    // A reset clears the center's list and the old rows with it.
    await center.browser.post('/api/setting/reset/SERIES_NAME');
    expect(await loadSeriesNames(t.db, place.center.id)).toEqual([]);
  });
});
