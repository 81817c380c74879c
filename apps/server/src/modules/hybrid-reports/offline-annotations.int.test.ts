import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  OFFLINE_ANNOTATION_MESSAGES,
  OFFLINE_ANNOTATION_UPLOAD_PATH,
  OFFLINE_REPORT_MESSAGES,
} from '@radflow/core';
import { users, viewerAnnotations } from '../../db/schema.js';
import { hybridFixtures, type THybridWorld } from '../../../test/hybrid.fixtures.js';
import { type TestApp, createTestApp, createTestUser, signInAs } from '../../../test/test-app.js';

/*
 * apps/router/HYBRID.md "Measurements offline", the cloud's side: the router takes up a measurement
 * drawn in its offline viewer with the center's API token, naming the hybrid doctor who drew it and
 * carrying their grant. It is saved on the study's row as that doctor through the viewer's rules.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const { hybridWorld } = hybridFixtures(() => t);

const length = (uid: string, x = 10) => ({
  annotationUid: uid,
  toolName: 'Length',
  seriesInstanceUid: '1.2.3.1',
  sopInstanceUid: '1.2.3.1.1',
  frameNumber: 1,
  data: {
    handles: {
      points: [
        [0, 0, 0],
        [x, 0, 0],
      ],
    },
  },
});

const upload = (w: THybridWorld, body: Record<string, unknown>) =>
  t.app.inject({
    method: 'POST',
    url: OFFLINE_ANNOTATION_UPLOAD_PATH,
    headers: { authorization: `Bearer ${w.token}` },
    payload: {
      studyInstanceUid: w.study.studyInstanceUid,
      authorEmail: w.author.email,
      authorGrant: w.grant,
      ...body,
    },
  });

const keptOn = (reportStatusId: number) =>
  t.db
    .select({
      annotationUid: viewerAnnotations.annotationUid,
      data: viewerAnnotations.data,
      by: users.email,
    })
    .from(viewerAnnotations)
    .leftJoin(users, eq(users.id, viewerAnnotations.createdByUserId))
    .where(eq(viewerAnnotations.reportStatusId, reportStatusId));

describe('measurements drawn on the router, taken up (issue 27 §4)', () => {
  it('saves one as its author by its uid, a repeat changes nothing, a delete removes it once', async () => {
    const w = await hybridWorld();
    const saved = await upload(w, { annotationUid: 'len-1', annotation: length('len-1') });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toEqual({ reportStatusId: w.row.id });
    const again = await upload(w, { annotationUid: 'len-1', annotation: length('len-1', 20) });
    expect(again.statusCode, again.body).toBe(200);
    expect(await keptOn(w.row.id)).toEqual([
      { annotationUid: 'len-1', data: length('len-1', 20).data, by: w.author.email },
    ]);

    for (let i = 0; i < 2; i++) {
      const gone = await upload(w, { annotationUid: 'len-1', annotation: null });
      expect(gone.statusCode, gone.body).toBe(200);
    }
    expect(await keptOn(w.row.id)).toEqual([]);
  });

  it("refuses to change another user's measurement of that uid, which stays", async () => {
    const w = await hybridWorld();
    const colleague = await createTestUser(t.db, { roles: ['ROLE_DOCTOR'], groupId: w.world.group.id });
    const theirs = await signInAs(t, colleague);
    const put = await theirs.request({
      method: 'PUT',
      url: `/api/viewer/${w.row.id}/annotations/len-9`,
      payload: length('len-9'),
    });
    expect(put.statusCode, put.body).toBe(200);

    for (const annotation of [length('len-9', 99), null]) {
      const refused = await upload(w, { annotationUid: 'len-9', annotation });
      expect(refused.statusCode, refused.body).toBe(403);
      expect(refused.json()).toMatchObject({
        errorDescription: OFFLINE_ANNOTATION_MESSAGES.anothersMeasurement,
      });
    }
    expect(await keptOn(w.row.id)).toEqual([
      { annotationUid: 'len-9', data: length('len-9').data, by: colleague.email },
    ]);
  });

  it('waits for a study not in the cloud (404) and an author without a live grant (403); 400 names the field', async () => {
    const w = await hybridWorld();
    const missing = await upload(w, {
      studyInstanceUid: '1.2.3.4.5.999',
      annotationUid: 'len-1',
      annotation: length('len-1'),
    });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ errorDescription: OFFLINE_REPORT_MESSAGES.studyNotInCloud });
    const unproven = await upload(w, {
      authorGrant: 'nope',
      annotationUid: 'len-1',
      annotation: length('len-1'),
    });
    expect(unproven.statusCode).toBe(403);
    expect(unproven.json()).toMatchObject({ errorDescription: OFFLINE_REPORT_MESSAGES.authorNotProven });
    const bad = await upload(w, {
      annotationUid: 'len-1',
      annotation: { ...length('len-1'), toolName: 'Probe' },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('toolName');
    expect(await keptOn(w.row.id)).toEqual([]);
  });
});
