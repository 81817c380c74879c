import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectStatus, studyActionFixtures } from '../../../test/study-actions.fixtures.js';
import { type TestApp, createTestApp } from '../../../test/test-app.js';
import { idsOf, list } from '../../../test/worklist-test-data.js';

/*
 * spec-core §4 Mark Deleted: "CREATED, or HISTORY_CREATED for admin; center only unless the
 * hide-deleted setting is on". The setting is the group switch `hideDeletedStudies` (ours; the spec
 * names none): on, a group admin may also mark deleted, and DELETED studies leave the study lists.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const { createWorld, createStudy, signIn, readRow, readEvents } = studyActionFixtures(() => t);

describe('the hide-deleted setting (group switch hideDeletedStudies)', () => {
  it('on: a group admin marks a CREATED or HISTORY_CREATED study deleted; a SIGNED_OFF one stays', async () => {
    const world = await createWorld({ hideDeletedStudies: true });
    const created = await createStudy(world);
    const sent = await createStudy(world, { status: 'HISTORY_CREATED' });
    const signed = await createStudy(world, { status: 'SIGNED_OFF' });
    const { browser: admin, user } = await signIn(world, ['ROLE_ADMIN']);

    expect(expectStatus(await admin.post(`/api/report-status/mark-delete/${created.id}`), 200).status).toBe(
      'DELETED',
    );
    expect(expectStatus(await admin.post(`/api/report-status/mark-delete/${sent.id}`), 200).status).toBe(
      'DELETED',
    );
    expect((await readEvents(sent.id)).map((e) => [e.eventType, e.actorUserId, e.fromStatus])).toEqual([
      ['DELETED', user.id, 'HISTORY_CREATED'],
    ]);
    const res = await admin.post(`/api/report-status/mark-delete/${signed.id}`);
    expect(res.statusCode).toBe(409);
    expect((await readRow(signed.id)).status).toBe('SIGNED_OFF');
  });

  it('on: deleted studies leave the center list and the admin list; off: they stay, marked DELETED', async () => {
    for (const hideDeletedStudies of [true, false]) {
      const world = await createWorld({ hideDeletedStudies });
      const kept = await createStudy(world);
      const gone = await createStudy(world);
      const { browser: center } = await signIn(world, ['ROLE_CENTER']);
      const { browser: admin } = await signIn(world, ['ROLE_ADMIN']);
      expectStatus(await center.post(`/api/report-status/mark-delete/${gone.id}`), 200);

      const centerIds = idsOf(await list(center, '/api/report-status/', { size: 50 }));
      const adminIds = idsOf(await list(admin, '/api/dicom-web/studies/', { size: 50 }));
      const expected = hideDeletedStudies ? [kept.id] : [kept.id, gone.id];
      expect(centerIds, `center, switch ${hideDeletedStudies}`).toEqual(expected);
      expect(adminIds, `admin, switch ${hideDeletedStudies}`).toEqual(expected);
      // The row itself is kept (irreversible, never erased): its detail still answers.
      expect(expectStatus(await center.get(`/api/report-status/id/${gone.id}`), 200).status).toBe('DELETED');
    }
  });
});
