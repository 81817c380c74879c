import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPORTING_MESSAGES as M } from '@radflow/core';
import { expectRefusal, reportingCalls, saved } from '../../../test/reporting.fixtures.js';
import { studyActionFixtures } from '../../../test/study-actions.fixtures.js';
import { type TestApp, createTestApp } from '../../../test/test-app.js';
import { list, mapTestUser } from '../../../test/worklist-test-data.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const { createWorld, createStudy, signIn, readEvents } = studyActionFixtures(() => t);
const { lock, save, signOff, addendum, readReports, reportRowsOf, versionCount } = reportingCalls(() => t);

describe('rework', () => {
  it('deletes every report of the study and its versions in the same transaction', async () => {
    const world = await createWorld({ enableReportRework: true });
    const row = await createStudy(world, { status: 'HISTORY_CREATED' });
    const other = await createStudy(world, { status: 'HISTORY_CREATED' });
    const { browser: doctor } = await signIn(world, ['ROLE_DOCTOR']);
    for (const id of [row.id, other.id]) {
      saved(await lock(doctor, id));
      saved(await signOff(doctor, id));
    }
    saved(await addendum(doctor, row.id, '<p>Also: no fracture.</p>'));
    const versionsBefore = await versionCount();

    const res = await doctor.post(`/api/report-status/rework/${row.id}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      status: 'HISTORY_CREATED',
      reworked: true,
      hasReports: false,
      reports: [],
    });
    expect(await reportRowsOf(row.id)).toEqual([]);
    // Two versions went (the sign-off and the addendum of `row`); the other study's report stays.
    expect(await versionCount()).toBe(versionsBefore - 2);
    expect(await reportRowsOf(other.id)).toHaveLength(1);
    expect((await readReports(doctor, row.id)).reports).toEqual([]);
    const page = await list(doctor, '/api/dicom-web/studies/');
    expect(page.content.find((r) => r.id === other.id)?.hasReports).toBe(true);
    expect((await readEvents(row.id)).at(-1)).toMatchObject({
      eventType: 'REWORKED',
      detail: { deletedReports: 2 },
    });
  });
});

describe('addendum', () => {
  it('is refused before sign-off and to anyone but its doctor, then kept with its own signature and time', async () => {
    const world = await createWorld();
    const row = await createStudy(world, { status: 'HISTORY_CREATED' });
    const { browser: doctor, user } = await signIn(world, ['ROLE_DOCTOR']);
    const { browser: typist, user: typistUser } = await signIn(world, ['ROLE_TYPIST']);
    await mapTestUser(t.db, typistUser.id, 'ROLE_DOCTOR', user.id);
    saved(await lock(doctor, row.id));
    saved(await save(doctor, row.id, {}));
    expectRefusal(await addendum(doctor, row.id, '<p>Late finding.</p>'), 409, M.addendumNeedsSignOff);
    saved(await signOff(doctor, row.id));
    t.clock.advance(300);
    expectRefusal(await addendum(typist, row.id, '<p>x</p>'), 403, M.addendumNotYours);
    expectRefusal(await addendum(doctor, row.id, '<p></p>'), 400, M.reportContentRequired);

    const added = saved(await addendum(doctor, row.id, '<p>Late finding.</p>'));
    expect(added).toMatchObject({ status: 'SIGNED_OFF', alert: null });
    const { reports } = await readReports(doctor, row.id);
    expect(reports.map((r) => [r.isAddendum, r.content])).toEqual([
      [false, '<p>No bleed.</p>'],
      [true, '<p>Late finding.</p>'],
    ]);
    const [main, extra] = reports;
    expect(extra?.signature?.name).toBe(user.identifier);
    expect(Date.parse(extra?.signature?.signedOffAt ?? '')).toBeGreaterThan(
      Date.parse(main?.signature?.signedOffAt ?? ''),
    );
    expect(extra?.versions.map((v) => v.kind)).toEqual(['ADDENDUM']);
  });
});
