import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TStudyListPage } from '@radflow/core';
import { type TestApp, createTestApp, setGroupPreference } from '../../../test/test-app.js';
import { createTestStudy, createTestWorld, signedInAt } from '../../../test/worklist-test-data.js';

/*
 * Issue 21 §1 with spec-core §9 ("date filters use time zone +05:30"): a day of the list's date
 * range is a day of the group's display time zone, the zone every time of the list is shown in, so
 * a study shown as uploaded on the 6th is found by the 6th.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

/** 20:04 UTC on the 5th: the 6th at +05:30, still the 5th in Berlin. */
const LATE_EVENING_UTC = new Date('2026-01-05T20:04:09Z');

async function placeWithStudy(displayTimeZone?: string) {
  const place = await createTestWorld(t.db);
  if (displayTimeZone) {
    await setGroupPreference(t.db, place.group.id, 'ADMIN_PREFERENCES', { displayTimeZone });
  }
  const { row } = await createTestStudy(t.db, {
    groupId: place.group.id,
    centerId: place.center.id,
    row: { createdAt: LATE_EVENING_UTC },
  });
  const admin = (await signedInAt(t, place, ['ROLE_ADMIN'])).browser;
  const idsOn = async (day: string) => {
    const res = await admin.post('/api/dicom-web/studies/', {
      page: 0,
      size: 20,
      startTime: day,
      endTime: day,
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<TStudyListPage>().content.map((r) => r.id);
  };
  return { row, idsOn };
}

describe('the date range of the study lists', () => {
  it("is read in the spec's +05:30 by default", async () => {
    const { row, idsOn } = await placeWithStudy();
    expect(await idsOn('2026-01-06')).toEqual([row.id]);
    expect(await idsOn('2026-01-05')).toEqual([]);
  });

  it("follows the group's display time zone", async () => {
    const { row, idsOn } = await placeWithStudy('Europe/Berlin');
    expect(await idsOn('2026-01-05')).toEqual([row.id]);
    expect(await idsOn('2026-01-06')).toEqual([]);
  });
});
