import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPORTING_MESSAGES as M } from '@radflow/core';
import { eq } from 'drizzle-orm';
import { reportStatuses, userSignatures } from '../../db/schema.js';
import { expectRefusal, reportingCalls, saved } from '../../../test/reporting.fixtures.js';
import { studyActionFixtures } from '../../../test/study-actions.fixtures.js';
import { type TestApp, createTestApp, setGroupPreference } from '../../../test/test-app.js';
import { list, mapTestUser } from '../../../test/worklist-test-data.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const { createWorld, createStudy, signIn, readRow, readEvents, snapshot } = studyActionFixtures(() => t);
const { lock, save, signOff, readReports, reportRowsOf } = reportingCalls(() => t);

describe('a doctor opens, saves and signs off a report', () => {
  it('locks the pool study, saves it REPORTED, signs it off with the signature and keeps every version', async () => {
    const world = await createWorld();
    const row = await createStudy(world, { status: 'HISTORY_CREATED' });
    const { browser: doctor, user } = await signIn(world, ['ROLE_DOCTOR']);
    await t.db.insert(userSignatures).values({ userId: user.id, name: 'Dr. Test, MD' });

    // The editor may open a study with no body at all.
    const locked = saved(await doctor.post(`/api/report/lock/${row.id}`));
    expect(locked).toMatchObject({ status: 'LOCKED', lockedBy: user.email, hasReports: false });
    // Opening it again as its holder changes nothing (no second timeline row).
    expect(saved(await lock(doctor, row.id)).status).toBe('LOCKED');

    const draft = saved(
      await save(doctor, row.id, {
        content: '<p>No bleed.</p><script>alert(1)</script><img src=x onerror=1>',
      }),
    );
    expect(draft).toMatchObject({ status: 'REPORTED', hasReports: true, alert: null });
    expect(draft.reports).toEqual([{ name: 'CT Head', format: 'HTML', content: '<p>No bleed.</p>' }]);
    const page = await list(doctor, '/api/dicom-web/studies/');
    expect(page.content.find((r) => r.id === row.id)?.hasReports).toBe(true);

    const signedOff = saved(await signOff(doctor, row.id, { content: '<p>No acute bleed.</p>' }));
    expect(signedOff).toMatchObject({ status: 'SIGNED_OFF', alert: null });
    expect(signedOff.signedOffAt).not.toBeNull();
    expect(signedOff.firstSignedOffAt).toBe(signedOff.signedOffAt);

    const { reports } = await readReports(doctor, row.id);
    expect(reports).toHaveLength(1);
    expect(reports[0]).toMatchObject({
      content: '<p>No acute bleed.</p>',
      doctor: user.email,
      typedBy: user.email,
      signedOffBy: user.email,
      isAddendum: false,
      signature: { name: 'Dr. Test, MD', imageAssetId: null, signedOffAt: signedOff.signedOffAt },
    });
    expect(reports[0]?.versions.map((v) => [v.version, v.kind, v.content, v.savedBy])).toEqual([
      [1, 'SAVE', '<p>No bleed.</p>', user.email],
      [2, 'SIGN_OFF', '<p>No acute bleed.</p>', user.email],
    ]);
    expect((await readEvents(row.id)).map((e) => [e.eventType, e.fromStatus, e.toStatus])).toEqual([
      ['REPORT_LOCKED', 'HISTORY_CREATED', 'LOCKED'],
      ['REPORT_SAVED', 'LOCKED', 'REPORTED'],
      ['REPORT_SIGNED_OFF', 'REPORTED', 'SIGNED_OFF'],
    ]);
  });

  it('refuses another doctor on a locked study (403) and changes nothing', async () => {
    const world = await createWorld();
    const row = await createStudy(world, { status: 'HISTORY_CREATED' });
    const { browser: holder, user: holderUser } = await signIn(world, ['ROLE_DOCTOR']);
    const { browser: other, user: otherUser } = await signIn(world, ['ROLE_DOCTOR']);
    // The other doctor sees the holder's studies through their user map.
    await mapTestUser(t.db, otherUser.id, 'ROLE_DOCTOR', holderUser.id);
    saved(await lock(holder, row.id));
    const before = await snapshot(row.id);

    expectRefusal(await lock(other, row.id), 403, M.lockedByOther);
    expectRefusal(await save(other, row.id, {}), 403, M.lockedByOther);
    expect(await snapshot(row.id)).toEqual(before);
    expect(await reportRowsOf(row.id)).toEqual([]);
  });

  it('refuses a study assigned to another doctor (403)', async () => {
    const world = await createWorld();
    const { user: assignee } = await signIn(world, ['ROLE_DOCTOR']);
    const { browser: other, user: otherUser } = await signIn(world, ['ROLE_DOCTOR']);
    await mapTestUser(t.db, otherUser.id, 'ROLE_DOCTOR', assignee.id);
    const row = await createStudy(world, { status: 'HISTORY_CREATED', assignedToUserId: assignee.id });
    expectRefusal(await lock(other, row.id), 403, M.assignedToOther);
    expect((await readRow(row.id)).status).toBe('HISTORY_CREATED');
  });

  it('refuses a save before the study is opened, an over-long report and an empty sign-off, writing nothing', async () => {
    const world = await createWorld();
    const row = await createStudy(world, { status: 'HISTORY_CREATED' });
    const { browser: doctor } = await signIn(world, ['ROLE_DOCTOR']);
    const before = await snapshot(row.id);
    expectRefusal(await save(doctor, row.id, {}), 409, M.notOpened);
    saved(await lock(doctor, row.id));
    const opened = await snapshot(row.id);
    const tooLong = await save(doctor, row.id, { content: `<p>${'a'.repeat(500_001)}</p>` });
    expectRefusal(tooLong, 400);
    expect(tooLong.json().additionalInfo).toContain('content');
    expectRefusal(await signOff(doctor, row.id, { content: '<p> </p>' }), 400, M.reportContentRequired);
    expectRefusal(await save(doctor, row.id, { name: '' }), 400);
    expect(await snapshot(row.id)).toEqual(opened);
    expect(before.row.status).toBe('HISTORY_CREATED');
    expect(await reportRowsOf(row.id)).toEqual([]);
  });

  it('keeps one report when two saves from the same version race: one is written, the other 409', async () => {
    const world = await createWorld();
    const row = await createStudy(world, { status: 'HISTORY_CREATED' });
    const { browser: doctor } = await signIn(world, ['ROLE_DOCTOR']);
    saved(await lock(doctor, row.id));
    // Both start from nothing saved (issue 21 §7): the second under the row lock finds version 1.
    const answers = await Promise.all([
      save(doctor, row.id, { content: '<p>One.</p>', baseVersion: null }),
      save(doctor, row.id, { content: '<p>Two.</p>', baseVersion: null }),
    ]);
    expect(answers.map((res) => res.statusCode).sort()).toEqual([200, 409]);
    const rows = await reportRowsOf(row.id);
    expect(rows).toHaveLength(1);
    const [report] = (await readReports(doctor, row.id)).reports;
    expect(report?.versions.map((v) => v.version)).toEqual([1]);
    expect(report?.content).toBe(report?.versions[0]?.content);
  });

  it('refuses a DELETED study (409)', async () => {
    const world = await createWorld();
    const { browser: doctor, user } = await signIn(world, ['ROLE_DOCTOR']);
    const row = await createStudy(world, { status: 'DELETED', assignedToUserId: user.id });
    expectRefusal(await lock(doctor, row.id), 409);
  });
});

describe('read-only roles', () => {
  it('read the reports of a study they see but never lock or save it (403)', async () => {
    const world = await createWorld();
    const { browser: doctor, user: doctorUser } = await signIn(world, ['ROLE_DOCTOR']);
    const { browser: auditor, user: auditorUser } = await signIn(world, ['ROLE_AUDITOR']);
    const { browser: referring, user: referringUser } = await signIn(world, ['ROLE_REFERRING_DOCTOR']);
    const { browser: viewer } = await signIn(world, ['ROLE_VIEWER']);
    const { browser: center } = await signIn(world, ['ROLE_CENTER']);
    const row = await createStudy(world, {
      status: 'HISTORY_CREATED',
      assignedToUserId: doctorUser.id,
      auditorUserId: auditorUser.id,
      referringDoctorUserId: referringUser.id,
    });
    saved(await lock(doctor, row.id));
    saved(await signOff(doctor, row.id));
    const before = await snapshot(row.id);

    for (const browser of [auditor, referring, viewer]) {
      expectRefusal(await lock(browser, row.id), 403, M.readOnly);
      expectRefusal(await save(browser, row.id, {}), 403, M.readOnly);
      expectRefusal(await signOff(browser, row.id), 403, M.readOnly);
    }
    // A center user is not read-only, but writes no report either.
    expectRefusal(await lock(center, row.id), 403, M.notReporter);
    expect(await snapshot(row.id)).toEqual(before);

    expect((await readReports(auditor, row.id)).reports).toHaveLength(1);
    // The signed report without its versions (security issue §1: report-content-access.int.test.ts).
    expect((await readReports(referring, row.id)).reports[0]?.versions).toEqual([]);
    expect((await viewer.get(`/api/report/${row.id}`)).statusCode).toBe(404);
  });
});

describe('a typist types for a doctor', () => {
  async function typistWorld(flags: Record<string, boolean> = {}) {
    const world = await createWorld(flags);
    const { browser: doctor, user: doctorUser } = await signIn(world, ['ROLE_DOCTOR']);
    const { user: strangerDoctor } = await signIn(world, ['ROLE_DOCTOR']);
    const { browser: typist, user: typistUser } = await signIn(world, ['ROLE_TYPIST']);
    await mapTestUser(t.db, typistUser.id, 'ROLE_DOCTOR', doctorUser.id);
    const row = await createStudy(world, { status: 'HISTORY_CREATED', assignedToUserId: doctorUser.id });
    return { world, doctor, doctorUser, strangerDoctor, typist, typistUser, row };
  }

  it('chooses the doctor first, saves REPORTED as that doctor, may not sign off; the doctor signs off', async () => {
    const { doctor, doctorUser, strangerDoctor, typist, typistUser, row } = await typistWorld();
    expectRefusal(await lock(typist, row.id), 400, M.chooseDoctor);
    expectRefusal(await lock(typist, row.id, { doctorEmail: strangerDoctor.email }), 403, M.notYourDoctor);
    expect((await readRow(row.id)).status).toBe('HISTORY_CREATED');

    const locked = saved(await lock(typist, row.id, { doctorEmail: doctorUser.email }));
    expect(locked).toMatchObject({ status: 'LOCKED', lockedBy: doctorUser.email });
    expect(saved(await save(typist, row.id, { doctorEmail: doctorUser.email })).status).toBe('REPORTED');
    expectRefusal(
      await signOff(typist, row.id, { doctorEmail: doctorUser.email }),
      403,
      M.typistCannotSignOff,
    );
    expect(saved(await signOff(doctor, row.id)).status).toBe('SIGNED_OFF');

    const [report] = (await readReports(doctor, row.id)).reports;
    expect(report).toMatchObject({
      doctor: doctorUser.email,
      typedBy: doctorUser.email,
      signedOffBy: doctorUser.email,
    });
    expect(report?.versions.map((v) => [v.kind, v.savedBy])).toEqual([
      ['SAVE', typistUser.email],
      ['SIGN_OFF', doctorUser.email],
    ]);
  });

  it('leaves the study DRAFTED when the group has enableDraftedForTypist on', async () => {
    const { doctor, doctorUser, typist, row } = await typistWorld({ enableDraftedForTypist: true });
    saved(await lock(typist, row.id, { doctorEmail: doctorUser.email }));
    expect(saved(await save(typist, row.id, { doctorEmail: doctorUser.email })).status).toBe('DRAFTED');
    // The doctor's own save is REPORTED whatever the switch.
    expect(saved(await save(doctor, row.id, {})).status).toBe('REPORTED');
  });
});

describe('re-sign-off', () => {
  it('is refused when disableReSignOffOfReport is on and the study is SIGNED_OFF', async () => {
    const world = await createWorld({ disableReSignOffOfReport: true });
    const row = await createStudy(world, { status: 'HISTORY_CREATED' });
    const { browser: doctor } = await signIn(world, ['ROLE_DOCTOR']);
    saved(await lock(doctor, row.id));
    saved(await signOff(doctor, row.id));
    const before = await snapshot(row.id);
    expectRefusal(await signOff(doctor, row.id, { content: '<p>Changed.</p>' }), 403, M.reSignOffDisabled);
    expectRefusal(await save(doctor, row.id, { content: '<p>Changed.</p>' }), 409, M.signedOffNeedsSignOff);
    expect(await snapshot(row.id)).toEqual(before);
  });

  it("after a print sets signedOffAfterPrint and answers the spec's alert", async () => {
    const world = await createWorld();
    const row = await createStudy(world, { status: 'HISTORY_CREATED' });
    const { browser: doctor } = await signIn(world, ['ROLE_DOCTOR']);
    saved(await lock(doctor, row.id));
    const first = saved(await signOff(doctor, row.id));
    // The center printed it (printing is the documents issue's call).
    await t.db.update(reportStatuses).set({ printedAt: new Date() }).where(eq(reportStatuses.id, row.id));
    t.clock.advance(60);

    const again = saved(await signOff(doctor, row.id, { content: '<p>Corrected.</p>' }));
    expect(again).toMatchObject({
      status: 'SIGNED_OFF',
      signedOffAfterPrint: true,
      alert: 'Report has been Signed Off again, please ask center to re-print it.',
      firstSignedOffAt: first.firstSignedOffAt,
    });
    expect(again.signedOffAt).not.toBe(first.signedOffAt);
    const [report] = (await readReports(doctor, row.id)).reports;
    expect(report?.versions.map((v) => v.kind)).toEqual(['SIGN_OFF', 'SIGN_OFF']);
  });
});

describe('verification', () => {
  it("sends a listed doctor's sign-off to a verifier, who signs it off", async () => {
    const world = await createWorld();
    const { browser: doctor, user: doctorUser } = await signIn(world, ['ROLE_DOCTOR']);
    const { browser: freeDoctor, user: freeDoctorUser } = await signIn(world, ['ROLE_DOCTOR']);
    const { browser: verifier, user: verifierUser } = await signIn(world, ['ROLE_VERIFIER']);
    await setGroupPreference(t.db, world.group.id, 'VERIFICATION_SETTINGS', {
      needVerification: true,
      centersAndDoctorsList: [{ centerEmail: world.center.email, doctorEmail: doctorUser.email }],
    });
    const row = await createStudy(world, { status: 'HISTORY_CREATED', assignedToUserId: doctorUser.id });

    // Nothing waits yet: the verifier writes nothing.
    expectRefusal(await signOff(verifier, row.id), 403, M.notReporter);
    saved(await lock(doctor, row.id));
    const waiting = saved(await signOff(doctor, row.id));
    expect(waiting).toMatchObject({ status: 'REPORTED', signedOffAt: null, alert: null });
    expect((await readReports(doctor, row.id)).reports[0]).toMatchObject({
      awaitingVerification: true,
      signature: null,
    });

    const verified = saved(await signOff(verifier, row.id, { content: '<p>Verified text.</p>' }));
    expect(verified.status).toBe('SIGNED_OFF');
    expect((await readReports(doctor, row.id)).reports[0]).toMatchObject({
      awaitingVerification: false,
      verifiedBy: verifierUser.email,
      signedOffBy: doctorUser.email,
      typedBy: doctorUser.email,
      content: '<p>Verified text.</p>',
    });
    expect((await readEvents(row.id)).map((e) => e.eventType).slice(-2)).toEqual([
      'REPORT_SENT_FOR_VERIFICATION',
      'REPORT_VERIFIED',
    ]);

    // A doctor not on the list signs off directly.
    const free = await createStudy(world, { status: 'HISTORY_CREATED', assignedToUserId: freeDoctorUser.id });
    saved(await lock(freeDoctor, free.id));
    expect(saved(await signOff(freeDoctor, free.id)).status).toBe('SIGNED_OFF');
  });
});

describe('the API document', () => {
  it('lists every reporting call', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/openapi.json' });
    expect(res.statusCode, res.body).toBe(200);
    const paths = Object.keys(res.json<{ paths: Record<string, unknown> }>().paths);
    expect(paths).toEqual(
      expect.arrayContaining([
        '/api/report/lock/{reportStatusId}',
        '/api/report/save/{reportStatusId}',
        '/api/report/addendum/{reportStatusId}',
        '/api/report/{reportStatusId}',
        '/api/report-template/',
        '/api/report-template/{id}',
      ]),
    );
  });
});
