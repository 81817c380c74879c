import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPORTING_MESSAGES as M } from '@radflow/core';
import { expectRefusal, reportingCalls, saved } from '../../../test/reporting.fixtures.js';
import { studyActionFixtures } from '../../../test/study-actions.fixtures.js';
import { type TestApp, type TestClient, createTestApp } from '../../../test/test-app.js';

/*
 * Issue 21 §7: two tabs of the same doctor. Every save names the saved version it started from
 * (`baseVersion`, null before the first save); a save started from an older version than the one
 * stored is refused 409 naming `baseVersion`, and nothing stored changes. Keeping one's own text is
 * a save from the newest version: a new version, the other tab's text stays the one before it.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const { createWorld, createStudy, signIn, readRow } = studyActionFixtures(() => t);
const { lock, readReports, reportRowsOf } = reportingCalls(() => t);

/** A save exactly as the editor sends it (no helper filling in the version). */
const post = (browser: TestClient, id: number, body: Record<string, unknown>) =>
  browser.post(`/api/report/save/${id}`, { name: 'CT Head', signOff: false, ...body });

async function doctorWithOpenStudy() {
  const world = await createWorld();
  const row = await createStudy(world, { status: 'HISTORY_CREATED' });
  const { browser: doctor, user } = await signIn(world, ['ROLE_DOCTOR']);
  saved(await lock(doctor, row.id));
  return { world, row, doctor, user };
}

const versionsOf = async (browser: TestClient, id: number) =>
  (await readReports(browser, id)).reports.find((r) => !r.isAddendum)?.versions ?? [];

describe('a save carries the version it started from (issue 21 §7)', () => {
  it('refuses the second tab’s stale save 409 naming baseVersion and keeps the first tab’s text', async () => {
    const { row, doctor } = await doctorWithOpenStudy();
    // Both tabs opened the empty report; tab A saves first.
    saved(await post(doctor, row.id, { content: '<p>Tab A.</p>', baseVersion: null }));

    const stale = await post(doctor, row.id, { content: '<p>Tab B.</p>', baseVersion: null });
    expectRefusal(stale, 409, M.savedElsewhere);
    expect(stale.json()).toMatchObject({ additionalInfo: 'baseVersion' });

    const [main] = await reportRowsOf(row.id);
    expect(main?.contentHtml).toBe('<p>Tab A.</p>');
    expect((await versionsOf(doctor, row.id)).map((v) => v.content)).toEqual(['<p>Tab A.</p>']);
  });

  it('refuses a save from an older version once the report has moved on', async () => {
    const { row, doctor } = await doctorWithOpenStudy();
    saved(await post(doctor, row.id, { content: '<p>One.</p>', baseVersion: null }));
    saved(await post(doctor, row.id, { content: '<p>Two.</p>', baseVersion: 1 }));

    expectRefusal(
      await post(doctor, row.id, { content: '<p>Old tab.</p>', baseVersion: 1 }),
      409,
      M.savedElsewhere,
    );
    // A version that was never saved is not "newer than stored": it is stale too.
    expectRefusal(
      await post(doctor, row.id, { content: '<p>Guess.</p>', baseVersion: 7 }),
      409,
      M.savedElsewhere,
    );
    expect((await versionsOf(doctor, row.id)).map((v) => v.version)).toEqual([1, 2]);
  });

  it('keeps mine: the refused text saved from the newest version is a new version, both texts kept', async () => {
    const { row, doctor } = await doctorWithOpenStudy();
    saved(await post(doctor, row.id, { content: '<p>Tab A.</p>', baseVersion: null }));
    expectRefusal(await post(doctor, row.id, { content: '<p>Tab B.</p>', baseVersion: null }), 409);

    const kept = saved(await post(doctor, row.id, { content: '<p>Tab B.</p>', baseVersion: 1 }));
    expect(kept.status).toBe('REPORTED');
    const versions = await versionsOf(doctor, row.id);
    expect(versions.map((v) => [v.version, v.content])).toEqual([
      [1, '<p>Tab A.</p>'],
      [2, '<p>Tab B.</p>'],
    ]);
  });

  it('refuses a stale sign-off: the row stays REPORTED with the newer text', async () => {
    const { row, doctor } = await doctorWithOpenStudy();
    saved(await post(doctor, row.id, { content: '<p>One.</p>', baseVersion: null }));
    saved(await post(doctor, row.id, { content: '<p>Two.</p>', baseVersion: 1 }));

    expectRefusal(
      await post(doctor, row.id, { content: '<p>One, signed.</p>', baseVersion: 1, signOff: true }),
      409,
      M.savedElsewhere,
    );
    const after = await readRow(row.id);
    expect(after.status).toBe('REPORTED');
    expect(after.firstSignedOffAt).toBeNull();
    expect((await reportRowsOf(row.id))[0]?.contentHtml).toBe('<p>Two.</p>');
  });

  it('refuses a save that names no version 400 naming baseVersion (no client is left without it)', async () => {
    const { row, doctor } = await doctorWithOpenStudy();
    const missing = await post(doctor, row.id, { content: '<p>Old client.</p>' });
    expect(missing.statusCode, missing.body).toBe(400);
    expect(missing.json()).toMatchObject({
      additionalInfo: 'baseVersion',
      errorDescription: M.baseVersionRequired,
    });
    expect(await reportRowsOf(row.id)).toHaveLength(0);
  });

  it('the save answers the new version, so the editor’s next save starts from it', async () => {
    const { row, doctor } = await doctorWithOpenStudy();
    const first = saved(await post(doctor, row.id, { content: '<p>One.</p>', baseVersion: null }));
    expect(first.savedVersion).toBe(1);
    const second = saved(
      await post(doctor, row.id, { content: '<p>Two.</p>', baseVersion: first.savedVersion }),
    );
    expect(second.savedVersion).toBe(2);
  });
});
