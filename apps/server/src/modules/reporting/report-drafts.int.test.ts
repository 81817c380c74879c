import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPORTING_MESSAGES as M, type TReportDraft } from '@radflow/core';
import { eq } from 'drizzle-orm';
import { reportDrafts } from '../../db/schema.js';
import { expectRefusal, reportingCalls, saved } from '../../../test/reporting.fixtures.js';
import { studyActionFixtures } from '../../../test/study-actions.fixtures.js';
import { type TestApp, type TestClient, createTestApp } from '../../../test/test-app.js';
import { mapTestUser } from '../../../test/worklist-test-data.js';
import { PNG, postForm } from '../../../test/setting-assets.helpers.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const { createWorld, createStudy, signIn } = studyActionFixtures(() => t);
const { lock, save, signOff } = reportingCalls(() => t);

const getDraft = (browser: TestClient, id: number) => browser.get(`/api/report/draft/${id}`);
const putDraft = (browser: TestClient, id: number, body: Record<string, unknown>) =>
  browser.request({ method: 'PUT', url: `/api/report/draft/${id}`, payload: body });
const deleteDraft = (browser: TestClient, id: number) =>
  browser.request({ method: 'DELETE', url: `/api/report/draft/${id}` });

const draftRowsOf = (id: number) =>
  t.db.select().from(reportDrafts).where(eq(reportDrafts.reportStatusId, id));

describe('report drafts (issue 7 §1 auto-save)', () => {
  it('keeps the writer’s draft, cleaned like a save, answers it back, and replaces it on the next put', async () => {
    const world = await createWorld();
    const row = await createStudy(world, { status: 'HISTORY_CREATED' });
    const { browser: doctor } = await signIn(world, ['ROLE_DOCTOR']);
    saved(await lock(doctor, row.id));

    const empty = await getDraft(doctor, row.id);
    expect(empty.statusCode, empty.body).toBe(200);
    expect(empty.json()).toBeNull();

    const put = await putDraft(doctor, row.id, {
      name: 'CT Head',
      content: '<p>No bleed<script>alert(1)</script></p><img src="x" onerror="1">',
      baseVersion: null,
    });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json<TReportDraft>()).toMatchObject({
      name: 'CT Head',
      content: '<p>No bleed</p>',
      baseVersion: null,
    });

    const second = await putDraft(doctor, row.id, {
      name: 'CT Head',
      content: '<p>No acute bleed</p>',
      baseVersion: 1,
    });
    expect(second.statusCode, second.body).toBe(200);
    const read = await getDraft(doctor, row.id);
    expect(read.json<TReportDraft>()).toMatchObject({ content: '<p>No acute bleed</p>', baseVersion: 1 });
    expect(await draftRowsOf(row.id)).toHaveLength(1);
  });

  it('refuses content over the size cap (400 naming content) and keeps the last draft', async () => {
    const world = await createWorld();
    const row = await createStudy(world, { status: 'HISTORY_CREATED' });
    const { browser: doctor } = await signIn(world, ['ROLE_DOCTOR']);
    saved(await lock(doctor, row.id));
    expect((await putDraft(doctor, row.id, { name: '', content: '<p>kept</p>' })).statusCode).toBe(200);

    const big = await putDraft(doctor, row.id, { name: '', content: 'x'.repeat(500_001) });
    expect(big.statusCode, big.body).toBe(400);
    expect(big.body).toContain('content');
    expect((await getDraft(doctor, row.id)).json<TReportDraft>().content).toBe('<p>kept</p>');
  });

  it('keeps one draft per user: a typist’s and the doctor’s drafts of the same row do not mix', async () => {
    const world = await createWorld();
    const { browser: doctor, user: doctorUser } = await signIn(world, ['ROLE_DOCTOR']);
    const { browser: typist, user: typistUser } = await signIn(world, ['ROLE_TYPIST']);
    await mapTestUser(t.db, typistUser.id, 'ROLE_DOCTOR', doctorUser.id);
    const row = await createStudy(world, { status: 'HISTORY_CREATED', assignedToUserId: doctorUser.id });
    saved(await lock(typist, row.id, { doctorEmail: doctorUser.email }));

    expect((await putDraft(typist, row.id, { content: '<p>typist</p>' })).statusCode).toBe(200);
    expect((await putDraft(doctor, row.id, { content: '<p>doctor</p>' })).statusCode).toBe(200);
    expect((await getDraft(typist, row.id)).json<TReportDraft>().content).toBe('<p>typist</p>');
    expect((await getDraft(doctor, row.id)).json<TReportDraft>().content).toBe('<p>doctor</p>');

    // The typist's save removes the typist's draft only.
    saved(await save(typist, row.id, { doctorEmail: doctorUser.email }));
    expect((await getDraft(typist, row.id)).json()).toBeNull();
    expect((await getDraft(doctor, row.id)).json<TReportDraft>().content).toBe('<p>doctor</p>');
  });

  it('is removed by the writer’s save and by a sign-off, and by DELETE', async () => {
    const world = await createWorld();
    const row = await createStudy(world, { status: 'HISTORY_CREATED' });
    const { browser: doctor } = await signIn(world, ['ROLE_DOCTOR']);
    saved(await lock(doctor, row.id));

    await putDraft(doctor, row.id, { content: '<p>one</p>' });
    saved(await save(doctor, row.id, {}));
    expect(await draftRowsOf(row.id)).toHaveLength(0);

    await putDraft(doctor, row.id, { content: '<p>two</p>', baseVersion: 1 });
    saved(await signOff(doctor, row.id));
    expect(await draftRowsOf(row.id)).toHaveLength(0);

    await putDraft(doctor, row.id, { content: '<p>three</p>', baseVersion: 2 });
    const deleted = await deleteDraft(doctor, row.id);
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect(await draftRowsOf(row.id)).toHaveLength(0);
  });

  it('refuses read-only roles (403), roles that write no report (403) and a doctor on another’s study (403)', async () => {
    const world = await createWorld();
    const { browser: doctor, user: doctorUser } = await signIn(world, ['ROLE_DOCTOR']);
    const { browser: other, user: otherUser } = await signIn(world, ['ROLE_DOCTOR']);
    const { browser: referring, user: referringUser } = await signIn(world, ['ROLE_REFERRING_DOCTOR']);
    const { browser: center } = await signIn(world, ['ROLE_CENTER']);
    await mapTestUser(t.db, otherUser.id, 'ROLE_DOCTOR', doctorUser.id);
    const row = await createStudy(world, {
      status: 'HISTORY_CREATED',
      referringDoctorUserId: referringUser.id,
    });
    saved(await lock(doctor, row.id));

    for (const call of [getDraft(referring, row.id), putDraft(referring, row.id, { content: '<p>x</p>' })]) {
      expectRefusal(await call, 403, M.readOnly);
    }
    expectRefusal(await putDraft(center, row.id, { content: '<p>x</p>' }), 403, M.notReporter);
    expectRefusal(await putDraft(other, row.id, { content: '<p>x</p>' }), 403, M.lockedByOther);
    expect(await draftRowsOf(row.id)).toHaveLength(0);
  });

  it('answers 404 for a row the writer cannot see', async () => {
    const world = await createWorld();
    const elsewhere = await createWorld();
    const row = await createStudy(elsewhere, { status: 'HISTORY_CREATED' });
    const { browser: doctor } = await signIn(world, ['ROLE_DOCTOR']);
    expect((await putDraft(doctor, row.id, { content: '<p>x</p>' })).statusCode).toBe(404);
    expect((await getDraft(doctor, row.id)).statusCode).toBe(404);
    expect(await draftRowsOf(row.id)).toHaveLength(0);
  });
});

describe('key images for the report (REPORT_IMAGE through POST /api/setting/upload-assets/)', () => {
  it('every report writer uploads one (a typist too); a center user and a referring doctor do not', async () => {
    const world = await createWorld();
    const upload = (browser: TestClient) =>
      postForm(browser, '/api/setting/upload-assets/', { assetType: 'REPORT_IMAGE' }, [
        { field: 'file', bytes: PNG, contentType: 'image/png' },
      ]);
    for (const roles of [['ROLE_TYPIST'], ['ROLE_DOCTOR'], ['ROLE_VERIFIER']] as const) {
      const { browser } = await signIn(world, [...roles]);
      const res = await upload(browser);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json<{ publicS3ImageUrl: string }>().publicS3ImageUrl).toMatch(
        /^\/api\/assets\/[0-9a-f]{32}$/,
      );
    }
    for (const roles of [['ROLE_CENTER'], ['ROLE_REFERRING_DOCTOR']] as const) {
      const { browser } = await signIn(world, [...roles]);
      expect((await upload(browser)).statusCode).toBe(403);
    }
  });
});

describe('the API document', () => {
  it('lists the draft calls (get, put, delete)', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/openapi.json' });
    expect(res.statusCode, res.body).toBe(200);
    const path = res.json<{ paths: Record<string, Record<string, unknown>> }>().paths[
      '/api/report/draft/{reportStatusId}'
    ];
    expect(Object.keys(path ?? {}).sort()).toEqual(['delete', 'get', 'put']);
  });
});
