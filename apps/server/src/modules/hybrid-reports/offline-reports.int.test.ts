import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  OFFLINE_REPORT_GRANT_PATH,
  OFFLINE_REPORT_MESSAGES,
  OFFLINE_REPORT_RESOLVE_PATH,
  OFFLINE_REPORT_UPLOAD_PATH,
  REPORTING_MESSAGES,
} from '@radflow/core';
import { offlineReportGrants, reportVersions } from '../../db/schema.js';
import { apiTokenFor } from '../../../test/api-token.helpers.js';
import { hybridFixtures, type THybridWorld } from '../../../test/hybrid.fixtures.js';
import { reportingCalls, saved } from '../../../test/reporting.fixtures.js';
import { studyActionFixtures } from '../../../test/study-actions.fixtures.js';
import { type TestApp, createTestApp, createTestUser, signInAs } from '../../../test/test-app.js';

/*
 * Issue 27 §4, the cloud's side: the router takes up reports written offline with the center's API
 * token, naming the study by its StudyInstanceUID and the hybrid doctor who wrote it. Each goes
 * through the report save rules (lock, baseVersion, signature); a repeat of a write is answered
 * SAME and never saved twice; a study reported in the cloud meanwhile is 409, nothing written.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const { readRow } = studyActionFixtures(() => t);
const { lock, save, readReports, reportRowsOf } = reportingCalls(() => t);

const { hybridWorld, grantOf } = hybridFixtures(() => t);

const upload = (token: string, body: Record<string, unknown>) =>
  t.app.inject({
    method: 'POST',
    url: OFFLINE_REPORT_UPLOAD_PATH,
    headers: { authorization: `Bearer ${token}` },
    payload: body,
  });

const offlineSave = (w: THybridWorld, extra: Record<string, unknown> = {}) => ({
  writeId: randomUUID(),
  studyInstanceUid: w.study.studyInstanceUid,
  authorEmail: w.author.email,
  authorGrant: w.grant,
  name: 'CT Head',
  content: '<p>Written offline.</p>',
  signOff: false,
  baseVersion: null,
  writtenAt: '2026-11-27T10:00:00.000Z',
  ...extra,
});

/** A cloud doctor locks the study and saves '<p>Cloud report.</p>' (version 1); their browser. */
async function reportedInCloud(w: THybridWorld) {
  const { browser: doctor } = await studyActionFixtures(() => t).signIn(w.world, ['ROLE_DOCTOR']);
  saved(await lock(doctor, w.row.id));
  saved(await save(doctor, w.row.id, { content: '<p>Cloud report.</p>', baseVersion: null }));
  return doctor;
}

describe('POST /api/router/offline-report (issue 27 §4)', () => {
  it('saves the report as the hybrid doctor on the row of that StudyInstanceUID', async () => {
    const w = await hybridWorld();
    const res = await upload(w.token, offlineSave(w));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ outcome: 'SAVED', reportStatusId: w.row.id, savedVersion: 1 });
    const [main] = await reportRowsOf(w.row.id);
    expect(main?.contentHtml).toBe('<p>Written offline.</p>');
    expect((await readRow(w.row.id)).status).toBe('REPORTED');
    expect((await readRow(w.row.id)).lockedByUserId).toBe(w.author.id);
  });

  it('signs off with the author as the signing doctor and chains versions', async () => {
    const w = await hybridWorld();
    expect((await upload(w.token, offlineSave(w))).json()).toMatchObject({ savedVersion: 1 });
    const second = await upload(
      w.token,
      offlineSave(w, { baseVersion: 1, signOff: true, content: '<p>Final.</p>' }),
    );
    expect(second.json(), second.body).toMatchObject({ outcome: 'SAVED', savedVersion: 2 });
    const row = await readRow(w.row.id);
    expect(row.status).toBe('SIGNED_OFF');
    const [main] = await reportRowsOf(w.row.id);
    expect(main?.signedOffByUserId).toBe(w.author.id);
    expect(main?.signatureName).toBe(w.author.identifier);
  });

  it('answers a repeated write SAME with the first version and saves it once', async () => {
    const w = await hybridWorld();
    const body = offlineSave(w);
    expect((await upload(w.token, body)).json()).toMatchObject({ outcome: 'SAVED', savedVersion: 1 });
    const again = await upload(w.token, body);
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json()).toEqual({ outcome: 'SAME', reportStatusId: w.row.id, savedVersion: 1 });
    const [main] = await reportRowsOf(w.row.id);
    expect(main).toBeDefined();
    const versions = await t.db.select().from(reportVersions).where(eq(reportVersions.reportId, main!.id));
    expect(versions).toHaveLength(1);
  });

  it('refuses with 409 when the study was reported in the cloud meanwhile, and keeps the cloud text', async () => {
    const w = await hybridWorld();
    const doctor = await reportedInCloud(w);

    const res = await upload(w.token, offlineSave(w));
    // The cloud doctor holds the row: the offline author may not write over it.
    expect(res.statusCode, res.body).toBe(409);
    expect(res.json()).toMatchObject({ errorDescription: OFFLINE_REPORT_MESSAGES.heldInCloud });
    const [main] = await reportRowsOf(w.row.id);
    expect(main?.contentHtml).toBe('<p>Cloud report.</p>');
    expect((await readReports(doctor, w.row.id)).reports[0]?.versions).toHaveLength(1);
  });

  it('refuses a stale baseVersion 409 naming baseVersion when the author saved in the cloud too', async () => {
    const w = await hybridWorld();
    expect((await upload(w.token, offlineSave(w))).statusCode).toBe(200);
    const stale = await upload(w.token, offlineSave(w, { content: '<p>Other tab.</p>', baseVersion: null }));
    expect(stale.statusCode, stale.body).toBe(409);
    expect(stale.json()).toMatchObject({
      errorDescription: REPORTING_MESSAGES.savedElsewhere,
      additionalInfo: 'baseVersion',
    });
  });

  it('is 404 while the study is not in the cloud, and 403 for an author who is not a hybrid doctor', async () => {
    const w = await hybridWorld();
    const missing = await upload(w.token, offlineSave(w, { studyInstanceUid: '1.2.3.4.5.999' }));
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ errorDescription: OFFLINE_REPORT_MESSAGES.studyNotInCloud });

    const plain = await createTestUser(t.db, { roles: ['ROLE_DOCTOR'], groupId: w.world.group.id });
    const notHybrid = await upload(w.token, offlineSave(w, { authorEmail: plain.email }));
    expect(notHybrid.statusCode).toBe(403);
    expect(notHybrid.json()).toMatchObject({ errorDescription: OFFLINE_REPORT_MESSAGES.authorNotHybrid });

    const otherGroup = await createTestUser(t.db, { roles: ['ROLE_DOCTOR'], hybridModeOn: true });
    expect((await upload(w.token, offlineSave(w, { authorEmail: otherGroup.email }))).statusCode).toBe(403);
    expect(await reportRowsOf(w.row.id)).toEqual([]);
  });

  it('is 400 naming studyInstanceUid for a UID outside the DICOM grammar, not a 404', async () => {
    const w = await hybridWorld();
    for (const uid of ['1..2', `${w.study.studyInstanceUid}.`, '1.02.3']) {
      const res = await upload(w.token, offlineSave(w, { studyInstanceUid: uid }));
      expect(res.statusCode, uid).toBe(400);
      expect(res.body, uid).toContain('studyInstanceUid must be a DICOM UID');
    }
    expect(await reportRowsOf(w.row.id)).toEqual([]);
  });

  it("never takes the center's token alone as the author's word: no grant, another's or an expired one is 403", async () => {
    // A center user holds the router's token; without the doctor's own grant they could sign off
    // reports in a radiologist's name.
    const w = await hybridWorld();
    const none = await upload(w.token, offlineSave(w, { authorGrant: '' }));
    expect(none.statusCode, none.body).toBe(403);
    expect(none.json()).toMatchObject({ errorDescription: OFFLINE_REPORT_MESSAGES.authorNotProven });

    const colleague = await createTestUser(t.db, {
      roles: ['ROLE_DOCTOR'],
      groupId: w.world.group.id,
      hybridModeOn: true,
    });
    const borrowed = await upload(w.token, offlineSave(w, { authorGrant: await grantOf(colleague) }));
    expect(borrowed.statusCode, borrowed.body).toBe(403);

    await t.db.update(offlineReportGrants).set({ expiresAt: new Date(Date.now() - 1000) });
    const expired = await upload(w.token, offlineSave(w));
    expect(expired.statusCode, expired.body).toBe(403);
    expect(await reportRowsOf(w.row.id)).toEqual([]);
  });

  it("gives a grant only to a hybrid doctor's own session", async () => {
    const w = await hybridWorld();
    const plain = await createTestUser(t.db, { roles: ['ROLE_DOCTOR'], groupId: w.world.group.id });
    expect((await (await signInAs(t, plain)).post(OFFLINE_REPORT_GRANT_PATH)).statusCode).toBe(403);
    expect((await (await signInAs(t, w.center)).post(OFFLINE_REPORT_GRANT_PATH)).statusCode).toBe(403);
    const byToken = await t.app.inject({
      method: 'POST',
      url: OFFLINE_REPORT_GRANT_PATH,
      headers: { authorization: `Bearer ${w.token}` },
    });
    expect(byToken.statusCode).toBeGreaterThanOrEqual(401);
    expect(byToken.statusCode).toBeLessThanOrEqual(403);
  });

  it('takes only a center API token: no token 401, a doctor token 403, a bad body 400', async () => {
    const w = await hybridWorld();
    const anonymous = await t.app.inject({
      method: 'POST',
      url: OFFLINE_REPORT_UPLOAD_PATH,
      payload: offlineSave(w),
    });
    expect(anonymous.statusCode, anonymous.body).toBe(403);
    const doctorToken = await apiTokenFor(t, w.author);
    expect((await upload(doctorToken, offlineSave(w))).statusCode).toBe(403);
    const bad = await upload(w.token, offlineSave(w, { writeId: 'nope' }));
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('writeId');
  });
});

describe('POST /api/router/offline-resolve (issue 27 §4)', () => {
  const resolve = (token: string, body: Record<string, unknown>) =>
    t.app.inject({
      method: 'POST',
      url: OFFLINE_REPORT_RESOLVE_PATH,
      headers: { authorization: `Bearer ${token}` },
      payload: body,
    });
  const resolution = (
    w: THybridWorld,
    action: 'KEEP_CLOUD' | 'ADDENDUM',
    extra: Record<string, unknown> = {},
  ) => ({
    resolutionId: randomUUID(),
    action,
    studyInstanceUid: w.study.studyInstanceUid,
    authorEmail: w.author.email,
    authorGrant: w.grant,
    name: 'CT Head',
    content: '<p>Written offline.</p>',
    ...extra,
  });
  const versionsOf = async (reportId: number) =>
    t.db.select().from(reportVersions).where(eq(reportVersions.reportId, reportId));

  it("KEEP_CLOUD answers the cloud's report and writes nothing", async () => {
    const w = await hybridWorld();
    await reportedInCloud(w);

    const res = await resolve(w.token, resolution(w, 'KEEP_CLOUD'));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      outcome: 'SAVED',
      reportStatusId: w.row.id,
      name: 'CT Head',
      content: '<p>Cloud report.</p>',
      savedVersion: 1,
      signedOff: false,
    });
    const rows = await reportRowsOf(w.row.id);
    expect(rows.map((r) => r.contentHtml)).toEqual(['<p>Cloud report.</p>']);
    expect(await versionsOf(rows[0]!.id)).toHaveLength(1);
  });

  it('ADDENDUM puts the offline text on top of the newest version; a repeat is SAME, saved once', async () => {
    // A first offline save went up (version 1); a second, written on no version, met it (409) and
    // the router holds the study in conflict.
    const w = await hybridWorld();
    expect((await upload(w.token, offlineSave(w, { content: '<p>First.</p>' }))).statusCode).toBe(200);
    expect((await upload(w.token, offlineSave(w))).statusCode).toBe(409);

    const body = resolution(w, 'ADDENDUM');
    const res = await resolve(w.token, body);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      outcome: 'SAVED',
      content: '<p>Written offline.</p>',
      savedVersion: 2,
      signedOff: false,
    });
    const again = await resolve(w.token, body);
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json()).toMatchObject({ outcome: 'SAME', savedVersion: 2 });
    const [main] = await reportRowsOf(w.row.id);
    expect(await versionsOf(main!.id)).toHaveLength(2);
  });

  it('ADDENDUM to a signed-off report is an addendum by the doctor who signed it, 403 for another', async () => {
    const w = await hybridWorld();
    const signed = await upload(w.token, offlineSave(w, { content: '<p>Signed.</p>', signOff: true }));
    expect(signed.statusCode, signed.body).toBe(200);

    const colleague = await createTestUser(t.db, {
      roles: ['ROLE_DOCTOR'],
      groupId: w.world.group.id,
      hybridModeOn: true,
    });
    const other = await resolve(
      w.token,
      resolution(w, 'ADDENDUM', { authorEmail: colleague.email, authorGrant: await grantOf(colleague) }),
    );
    expect(other.statusCode, other.body).toBe(403);
    expect(other.json()).toMatchObject({ errorDescription: REPORTING_MESSAGES.addendumNotYours });
    expect(await reportRowsOf(w.row.id)).toHaveLength(1);

    const res = await resolve(w.token, resolution(w, 'ADDENDUM'));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ outcome: 'SAVED', content: '<p>Signed.</p>', signedOff: true });
    const rows = await reportRowsOf(w.row.id);
    expect(rows.map((r) => [r.isAddendum, r.contentHtml])).toEqual([
      [false, '<p>Signed.</p>'],
      [true, '<p>Written offline.</p>'],
    ]);
  });

  it('ADDENDUM is 409 while another doctor holds the row, nothing written', async () => {
    const w = await hybridWorld();
    await reportedInCloud(w);

    const res = await resolve(w.token, resolution(w, 'ADDENDUM'));
    expect(res.statusCode, res.body).toBe(409);
    expect(res.json()).toMatchObject({ errorDescription: OFFLINE_REPORT_MESSAGES.heldInCloud });
    const rows = await reportRowsOf(w.row.id);
    expect(rows.map((r) => r.contentHtml)).toEqual(['<p>Cloud report.</p>']);
    expect(await versionsOf(rows[0]!.id)).toHaveLength(1);
  });

  it('names a bad body 400 and an unknown study 404', async () => {
    const w = await hybridWorld();
    const badUid = await resolve(w.token, resolution(w, 'KEEP_CLOUD', { studyInstanceUid: '1..2' }));
    expect(badUid.statusCode).toBe(400);
    expect(badUid.body).toContain('studyInstanceUid must be a DICOM UID');
    const badAction = await resolve(w.token, resolution(w, 'KEEP_CLOUD', { action: 'MERGE' }));
    expect(badAction.statusCode).toBe(400);
    const missing = await resolve(
      w.token,
      resolution(w, 'KEEP_CLOUD', { studyInstanceUid: '1.2.3.4.5.999' }),
    );
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ errorDescription: OFFLINE_REPORT_MESSAGES.studyNotInCloud });
  });
});
