import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TStudyHistory, TStudyTimeline } from '@radflow/core';
import { reportStatuses, studyAttachments } from '../../db/schema.js';
import { expectStatus, studyActionFixtures } from '../../../test/study-actions.fixtures.js';
import { type TestApp, createTestApp, createTestCenter } from '../../../test/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const { createWorld, createStudy, signIn, readRow, readEvents, snapshot } = studyActionFixtures(() => t);

describe('GET /report-status/id/{id}, /history/{id}, /report-status/timeline/{id}', () => {
  it('answers the row to a user who may see it and 404 to one who may not', async () => {
    const world = await createWorld();
    const row = await createStudy(world, {
      uhid: 'U-7',
      studyParts: ['CT Head'],
      mobileNumber: '9876543210',
    });
    const { browser: center } = await signIn(world, ['ROLE_CENTER']);
    const detail = expectStatus(await center.get(`/api/report-status/id/${row.id}`), 200);
    expect(detail).toMatchObject({
      id: row.id,
      status: 'CREATED',
      apiVersion: 2,
      patientName: 'DOE^JANE',
      uhid: 'U-7',
      reportStudyPart: ['CT Head'],
      mobileNumber: '9876543210',
      modality: 'CT',
      count: { series: 1, images: 3 },
      assignedTo: null,
      hasSplitChild: false,
      reports: [],
    });

    // Another center of the same group, and a user of another group: as if the row did not exist.
    const elsewhere = await createWorld();
    const { browser: stranger } = await signIn(elsewhere, ['ROLE_ADMIN']);
    const res = await stranger.get(`/api/report-status/id/${row.id}`);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ errorDescription: 'Not found' });
    expect((await stranger.get('/api/report-status/id/2147483000')).statusCode).toBe(404);
    expect((await stranger.get(`/api/history/${row.id}`)).statusCode).toBe(404);
    expect((await stranger.get(`/api/report-status/timeline/${row.id}`)).statusCode).toBe(404);
  });

  it('answers the history with attachments, apiVersion, lastUploadCompletedAt and the timeline', async () => {
    const world = await createWorld();
    const uploadedAt = new Date('2026-01-02T03:04:05.000Z');
    const row = await createStudy(world, { lastUploadCompletedAt: uploadedAt });
    const { browser: center, user } = await signIn(world, ['ROLE_CENTER']);
    await t.db.insert(studyAttachments).values({
      reportStatusId: row.id,
      kind: 'FILM',
      path: `p${row.id}abcdefghijklmnop`,
      fileName: 'film.png',
      contentType: 'image/png',
      sizeBytes: 10,
      blobKey: 'k',
      createdByUserId: user.id,
    });
    expectStatus(await center.post(`/api/report-status/urgent/${row.id}`), 200);

    const history = expectStatus(await center.get(`/api/history/${row.id}`), 200) as unknown as TStudyHistory;
    expect(history).toMatchObject({
      apiVersion: 2,
      lastUploadCompletedAt: uploadedAt.toISOString(),
      historyAttachment: [],
      reportAttachment: [],
      attachmentCount: { history: 0, film: 1, report: 0 },
    });
    expect(history.filmAttachment.map((a) => a.fileName)).toEqual(['film.png']);
    expect(history.timeline).toEqual([
      expect.objectContaining({
        eventType: 'URGENT_MARKED',
        actorEmail: user.email,
        actorName: user.identifier,
        fromStatus: 'CREATED',
        toStatus: 'CREATED',
      }),
    ]);
    const timeline = (await center.get(`/api/report-status/timeline/${row.id}`)).json<TStudyTimeline>();
    expect(timeline.map((e) => e.eventType)).toEqual(['URGENT_MARKED']);
  });
});

describe('POST /report-status/urgent/{id} (CREATED or HISTORY_CREATED; center or admin)', () => {
  it('toggles the mark for a center user and writes the timeline each time', async () => {
    const world = await createWorld();
    const row = await createStudy(world, { status: 'HISTORY_CREATED' });
    const { browser } = await signIn(world, ['ROLE_CENTER']);
    expect(expectStatus(await browser.post(`/api/report-status/urgent/${row.id}`), 200).urgent).toBe(true);
    expect(expectStatus(await browser.post(`/api/report-status/urgent/${row.id}`), 200).urgent).toBe(false);
    const events = await readEvents(row.id);
    expect(events.map((e) => [e.eventType, e.fromStatus, e.toStatus])).toEqual([
      ['URGENT_MARKED', 'HISTORY_CREATED', 'HISTORY_CREATED'],
      ['URGENT_UNMARKED', 'HISTORY_CREATED', 'HISTORY_CREATED'],
    ]);
  });

  it('refuses a doctor (403) and a signed-off study (409 naming the status), changing nothing', async () => {
    const world = await createWorld();
    const created = await createStudy(world);
    const signedOff = await createStudy(world, { status: 'SIGNED_OFF' });
    const { browser: doctor } = await signIn(world, ['ROLE_DOCTOR']);
    const { browser: admin } = await signIn(world, ['ROLE_ADMIN']);

    const before = await snapshot(created.id);
    expect((await doctor.post(`/api/report-status/urgent/${created.id}`)).statusCode).toBe(403);
    expect(await snapshot(created.id)).toEqual(before);

    // A center user of another center of the same group: not found, nothing changed.
    const otherCenter = await createTestCenter(t.db, { groupId: world.group.id });
    const { browser: stranger } = await signIn({ group: world.group, center: otherCenter }, ['ROLE_CENTER']);
    expect((await stranger.post(`/api/report-status/urgent/${created.id}`)).statusCode).toBe(404);
    expect(await snapshot(created.id)).toEqual(before);

    const beforeSigned = await snapshot(signedOff.id);
    const res = await admin.post(`/api/report-status/urgent/${signedOff.id}`);
    expect(res.statusCode).toBe(409);
    expect(res.json<{ errorDescription: string }>().errorDescription).toContain('SIGNED_OFF');
    expect(await snapshot(signedOff.id)).toEqual(beforeSigned);
  });
});

describe('POST /report-status/mark-delete/{id} (irreversible; CREATED; center users)', () => {
  it('deletes a CREATED study for its center, sets deletedAt, and cannot be repeated or undone', async () => {
    const world = await createWorld();
    const row = await createStudy(world);
    const { browser } = await signIn(world, ['ROLE_CENTER']);
    const detail = expectStatus(await browser.post(`/api/report-status/mark-delete/${row.id}`), 200);
    expect(detail.status).toBe('DELETED');
    expect(detail.deletedAt).not.toBeNull();
    expect((await readEvents(row.id)).map((e) => [e.eventType, e.fromStatus, e.toStatus])).toEqual([
      ['DELETED', 'CREATED', 'DELETED'],
    ]);

    const before = await snapshot(row.id);
    for (const action of ['mark-delete', 'urgent', 'unlock', 'rework', 'split']) {
      const res = await browser.post(`/api/report-status/${action}/${row.id}`);
      expect([403, 409], `${action}: ${res.body}`).toContain(res.statusCode);
    }
    expect(await snapshot(row.id)).toEqual(before);
  });

  it('refuses an admin (no hide-deleted switch) with 403, and a HISTORY_CREATED study for a center with 409', async () => {
    const world = await createWorld();
    const created = await createStudy(world);
    const sent = await createStudy(world, { status: 'HISTORY_CREATED' });
    const { browser: admin } = await signIn(world, ['ROLE_ADMIN']);
    const { browser: center } = await signIn(world, ['ROLE_CENTER']);
    const before = await snapshot(created.id);
    expect((await admin.post(`/api/report-status/mark-delete/${created.id}`)).statusCode).toBe(403);
    expect(await snapshot(created.id)).toEqual(before);
    const beforeSent = await snapshot(sent.id);
    const res = await center.post(`/api/report-status/mark-delete/${sent.id}`);
    expect(res.statusCode).toBe(409);
    expect(res.body).toContain('HISTORY_CREATED');
    expect(await snapshot(sent.id)).toEqual(beforeSent);
  });
});

describe('POST /report-status/split/{id} (allowToSplitStudy; not already split)', () => {
  it('creates a CREATED child with the parent id and its patient fields, once', async () => {
    const world = await createWorld({ allowToSplitStudy: true });
    const parent = await createStudy(world, {
      status: 'HISTORY_CREATED',
      patientName: 'ROY^ANNA',
      patientAge: '034Y',
      patientSex: 'F',
      uhid: 'U-1',
      studyName: 'CT ABDOMEN',
      history: 'Pain',
    });
    const { browser } = await signIn(world, ['ROLE_ASSIGNOR']);
    const child = expectStatus(await browser.post(`/api/report-status/split/${parent.id}`), 200);
    expect(child).toMatchObject({
      status: 'CREATED',
      splitFromReportStatusId: parent.id,
      patientName: 'ROY^ANNA',
      patientAge: '034Y',
      patientSex: 'F',
      uhid: 'U-1',
      studyName: 'CT ABDOMEN',
      instanceId: expectStatus(await browser.get(`/api/report-status/id/${parent.id}`), 200).instanceId,
    });
    expect(child.id).not.toBe(parent.id);
    expect(expectStatus(await browser.get(`/api/report-status/id/${parent.id}`), 200).hasSplitChild).toBe(
      true,
    );
    expect((await readEvents(parent.id)).map((e) => [e.eventType, e.detail])).toEqual([
      ['SPLIT', { splitReportStatusId: child.id }],
    ]);
    expect((await readEvents(child.id)).map((e) => e.eventType)).toEqual(['SPLIT_CREATED']);

    // Neither the parent nor the child may be split again.
    const before = await snapshot(parent.id);
    const again = await browser.post(`/api/report-status/split/${parent.id}`);
    expect(again.statusCode).toBe(409);
    expect(again.body).toContain('already been split');
    expect((await browser.post(`/api/report-status/split/${child.id}`)).statusCode).toBe(409);
    expect(await snapshot(parent.id)).toEqual(before);
    const rows = await t.db.select().from(reportStatuses);
    expect(rows.filter((r) => r.splitFromReportStatusId === parent.id)).toHaveLength(1);
  });

  it('lets exactly one of two concurrent splits of the same study win', async () => {
    const world = await createWorld({ allowToSplitStudy: true });
    const parent = await createStudy(world);
    const { browser: a } = await signIn(world, ['ROLE_ADMIN']);
    const { browser: b } = await signIn(world, ['ROLE_ASSIGNOR']);
    const answers = await Promise.all([
      a.post(`/api/report-status/split/${parent.id}`),
      b.post(`/api/report-status/split/${parent.id}`),
    ]);
    expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    const children = (await t.db.select().from(reportStatuses)).filter(
      (r) => r.splitFromReportStatusId === parent.id,
    );
    expect(children).toHaveLength(1);
    expect((await readEvents(parent.id)).map((e) => e.eventType)).toEqual(['SPLIT']);
  });

  it('is 403 without allowToSplitStudy and for a doctor', async () => {
    const off = await createWorld();
    const row = await createStudy(off);
    const { browser: assignor } = await signIn(off, ['ROLE_ASSIGNOR']);
    expect((await assignor.post(`/api/report-status/split/${row.id}`)).statusCode).toBe(403);
    const on = await createWorld({ allowToSplitStudy: true });
    const other = await createStudy(on);
    const { browser: doctor } = await signIn(on, ['ROLE_DOCTOR']);
    const before = await snapshot(other.id);
    expect((await doctor.post(`/api/report-status/split/${other.id}`)).statusCode).toBe(403);
    expect(await snapshot(other.id)).toEqual(before);
    expect(await readEvents(row.id)).toEqual([]);
  });
});

describe('POST /report-status/unlock/{id} (SIGNED_OFF, LOCKED, REPORTED, DRAFTED; doctors or admin)', () => {
  it('moves a LOCKED study back to HISTORY_CREATED and releases the lock', async () => {
    const world = await createWorld();
    const { browser: doctor, user } = await signIn(world, ['ROLE_DOCTOR']);
    const row = await createStudy(world, { status: 'LOCKED', lockedByUserId: user.id });
    const detail = expectStatus(await doctor.post(`/api/report-status/unlock/${row.id}`), 200);
    expect(detail).toMatchObject({ status: 'HISTORY_CREATED', lockedBy: null });
    expect(
      (await readEvents(row.id)).map((e) => [e.eventType, e.actorUserId, e.fromStatus, e.toStatus]),
    ).toEqual([['UNLOCKED', user.id, 'LOCKED', 'HISTORY_CREATED']]);
  });

  it('is 403 for a doctor with hideUnlockFromDoctor (an admin keeps it), 409 on CREATED', async () => {
    const world = await createWorld({ hideUnlockFromDoctor: true });
    const { browser: doctor, user } = await signIn(world, ['ROLE_DOCTOR']);
    const row = await createStudy(world, { status: 'SIGNED_OFF', assignedToUserId: user.id });
    const { browser: admin } = await signIn(world, ['ROLE_ADMIN']);
    const before = await snapshot(row.id);
    expect((await doctor.post(`/api/report-status/unlock/${row.id}`)).statusCode).toBe(403);
    expect(await snapshot(row.id)).toEqual(before);
    expectStatus(await admin.post(`/api/report-status/unlock/${row.id}`), 200);

    const created = await createStudy(world);
    const beforeCreated = await snapshot(created.id);
    const res = await admin.post(`/api/report-status/unlock/${created.id}`);
    expect(res.statusCode).toBe(409);
    expect(res.body).toContain('CREATED');
    expect(await snapshot(created.id)).toEqual(beforeCreated);
  });

  it('lets exactly one of two concurrent unlocks of the same row win', async () => {
    const world = await createWorld();
    const { browser: a, user: doctor } = await signIn(world, ['ROLE_DOCTOR']);
    const row = await createStudy(world, {
      status: 'LOCKED',
      assignedToUserId: doctor.id,
      lockedByUserId: doctor.id,
    });
    const { browser: b } = await signIn(world, ['ROLE_ADMIN']);
    const answers = await Promise.all([
      a.post(`/api/report-status/unlock/${row.id}`),
      b.post(`/api/report-status/unlock/${row.id}`),
    ]);
    expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    expect((await readRow(row.id)).status).toBe('HISTORY_CREATED');
    expect((await readEvents(row.id)).map((e) => e.eventType)).toEqual(['UNLOCKED']);
  });
});

describe('POST /report-status/rework/{id} (unlock statuses; tele-radiology, or enableReportRework)', () => {
  it('sets reworked, clears sign-off and lock, reopens the study, for a tele-radiology user', async () => {
    const world = await createWorld();
    const signedOffAt = new Date('2026-03-01T10:00:00.000Z');
    const { user: doctor } = await signIn(world, ['ROLE_DOCTOR']);
    const row = await createStudy(world, {
      status: 'SIGNED_OFF',
      signedOffAt,
      firstSignedOffAt: signedOffAt,
      lockedByUserId: doctor.id,
    });
    const { browser: tele } = await signIn(world, ['ROLE_TELE_RADIOLOGY']);
    const detail = expectStatus(await tele.post(`/api/report-status/rework/${row.id}`), 200);
    expect(detail).toMatchObject({
      status: 'HISTORY_CREATED',
      reworked: true,
      signedOffAt: null,
      firstSignedOffAt: signedOffAt.toISOString(),
      lockedBy: null,
    });
    expect((await readEvents(row.id)).map((e) => [e.eventType, e.fromStatus, e.toStatus])).toEqual([
      ['REWORKED', 'SIGNED_OFF', 'HISTORY_CREATED'],
    ]);
  });

  it('is 403 for a doctor unless enableReportRework, and 409 on HISTORY_CREATED', async () => {
    const off = await createWorld();
    const { browser: doctor, user } = await signIn(off, ['ROLE_DOCTOR']);
    const row = await createStudy(off, { status: 'REPORTED', assignedToUserId: user.id });
    const before = await snapshot(row.id);
    expect((await doctor.post(`/api/report-status/rework/${row.id}`)).statusCode).toBe(403);
    expect(await snapshot(row.id)).toEqual(before);

    const on = await createWorld({ enableReportRework: true });
    const { browser: onDoctor, user: onUser } = await signIn(on, ['ROLE_DOCTOR']);
    const reported = await createStudy(on, { status: 'REPORTED', assignedToUserId: onUser.id });
    const sent = await createStudy(on, { status: 'HISTORY_CREATED', assignedToUserId: onUser.id });
    expectStatus(await onDoctor.post(`/api/report-status/rework/${reported.id}`), 200);
    const beforeSent = await snapshot(sent.id);
    const res = await onDoctor.post(`/api/report-status/rework/${sent.id}`);
    expect(res.statusCode).toBe(409);
    expect(res.body).toContain('HISTORY_CREATED');
    expect(await snapshot(sent.id)).toEqual(beforeSent);
  });
});

describe('OpenAPI', () => {
  it('documents every study action', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/openapi.json' });
    expect(res.statusCode, res.body).toBe(200);
    const paths = Object.keys(res.json<{ paths: Record<string, unknown> }>().paths);
    for (const path of [
      '/api/report-status/id/{id}',
      '/api/history/{id}',
      '/api/report-status/timeline/{id}',
      '/api/report-status/update-details/{id}',
      '/api/tele-pricing/add-study-part',
      '/api/report-status/urgent/{id}',
      '/api/report-status/mark-delete/{id}',
      '/api/report-status/split/{id}',
      '/api/report-status/unlock/{id}',
      '/api/report-status/rework/{id}',
      '/api/report-status/assign',
      '/api/report-status/assign-multi',
      '/api/report-status/auditor-assign',
      '/api/report-status/audit-status/{id}',
    ]) {
      expect(paths, path).toContain(path);
    }
  });
});
