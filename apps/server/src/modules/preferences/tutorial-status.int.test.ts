import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FEATURE_TOUR_ID, type TTutorialStatus } from '@radflow/core';
import {
  type TestApp,
  type TestClient,
  createTestApp,
  createTestWorld,
  signInAs,
  signInAt,
} from '../../../test/test-app.js';

/*
 * issue 29 §7: the feature tour and the coach marks are recorded per user in TUTORIAL_STATUS
 * (spec-core §3) on the server, so a tour skipped or finished in one browser is not offered in
 * another, and a tour left midway resumes there at the same step.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

async function statusOf(browser: TestClient): Promise<TTutorialStatus> {
  const res = await browser.get('/api/user/preference');
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { TUTORIAL_STATUS: TTutorialStatus }).TUTORIAL_STATUS;
}

describe('TUTORIAL_STATUS follows the user across browsers', () => {
  it('a step saved in one browser resumes in another; completion is seen there too', async () => {
    const world = await createTestWorld(t.db);
    const { user, browser: laptop } = await signInAt(t, world, ['ROLE_DOCTOR']);
    expect(await statusOf(laptop)).toEqual({ completed: [], inProgress: {} });

    const step = await laptop.post('/api/setting/update/TUTORIAL_STATUS', {
      inProgress: { [FEATURE_TOUR_ID]: 3 },
    });
    expect(step.statusCode, step.body).toBe(200);

    const phone = await signInAs(t, user);
    expect(await statusOf(phone)).toEqual({ completed: [], inProgress: { [FEATURE_TOUR_ID]: 3 } });

    const done = await phone.post('/api/setting/update/TUTORIAL_STATUS', {
      completed: [FEATURE_TOUR_ID, 'coach-weasis'],
      inProgress: {},
    });
    expect(done.statusCode, done.body).toBe(200);
    expect(await statusOf(laptop)).toEqual({ completed: [FEATURE_TOUR_ID, 'coach-weasis'], inProgress: {} });

    // Another user of the same group still has the tour to come.
    const { browser: colleague } = await signInAt(t, world, ['ROLE_DOCTOR']);
    expect(await statusOf(colleague)).toEqual({ completed: [], inProgress: {} });
  });

  it('refuses a step that is not a small whole number, and keeps what was stored', async () => {
    const world = await createTestWorld(t.db);
    const { browser } = await signInAt(t, world, ['ROLE_CENTER']);
    await browser.post('/api/setting/update/TUTORIAL_STATUS', { inProgress: { [FEATURE_TOUR_ID]: 1 } });
    for (const bad of [-1, 1.5, 'two', 1000]) {
      const res = await browser.post('/api/setting/update/TUTORIAL_STATUS', {
        inProgress: { [FEATURE_TOUR_ID]: bad },
      });
      expect(res.statusCode, `${String(bad)}: ${res.body}`).toBe(400);
    }
    expect(await statusOf(browser)).toEqual({ completed: [], inProgress: { [FEATURE_TOUR_ID]: 1 } });
  });
});
