import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TViewerAnnotation, TViewerAnnotations, TViewerContext, TViewerPriors } from '@radflow/core';
import { eq } from 'drizzle-orm';
import { preferences, studyEvents } from '../../db/schema.js';
import {
  type TestApp,
  TestClient,
  createTestApp,
  createTestCenter,
  createTestUser,
} from '../../../test/test-app.js';
import {
  createTestStudy,
  createTestWorld,
  createTwoWorlds,
  signedIn,
  signedInAt,
} from '../../../test/worklist-test-data.js';

/**
 * The viewer's server side (issue 5 §1-§3): a doctor opens a study, draws a length, marks a key
 * image; colleagues who may see the study see them; read-only roles, other centers and other groups
 * change nothing (and learn nothing); the patient's earlier studies are listed when visible.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const COMPLETE = { lastUploadCompletedAt: new Date('2026-11-20T10:00:00Z') };

const drawing = (uid: string, overrides: Partial<TViewerAnnotation> = {}) => ({
  annotationUid: uid,
  toolName: 'Length',
  seriesInstanceUid: '1.2.3.1',
  sopInstanceUid: '1.2.3.1.1',
  frameNumber: 1,
  data: {
    handles: {
      points: [
        [0, 0, 0],
        [10, 0, 0],
      ],
    },
    label: '10 mm',
  },
  ...overrides,
});

const put = (browser: TestClient, id: number, uid: string, body: unknown) =>
  browser.request({ method: 'PUT', url: `/api/viewer/${id}/annotations/${uid}`, payload: body as object });
const del = (browser: TestClient, url: string) => browser.request({ method: 'DELETE', url });

describe('GET /api/viewer/:id/context', () => {
  it('describes the study, its upload state and what the caller may do', async () => {
    const w = await createTestWorld(t.db, { openInWeasis: true });
    const { row, study } = await createTestStudy(t.db, {
      groupId: w.group.id,
      centerId: w.center.id,
      patientName: 'ROE^RICHARD',
      studyDate: '20261101',
      modalities: ['CT', 'SR'],
      row: { ...COMPLETE, studyName: 'CT HEAD', patientSex: 'M', patientAge: '041Y' },
    });
    // The center's series mapping lives in a center user's SERIES_NAME section (spec-lab §7).
    const centerUser = await createTestUser(t.db, {
      groupId: w.group.id,
      centerId: w.center.id,
      roles: ['ROLE_CENTER'],
    });
    await t.db.insert(preferences).values({
      scope: 'USER',
      ownerId: centerUser.id,
      section: 'SERIES_NAME',
      value: { seriesMappings: [{ seriesName: 'AX T2', preferredName: 'Axial T2' }] },
    });
    const { browser } = await signedInAt(t, w, ['ROLE_DOCTOR']);

    const res = await browser.get(`/api/viewer/${row.id}/context`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<TViewerContext>()).toEqual({
      id: row.id,
      studyInstanceUid: study.studyInstanceUid,
      apiVersion: 2,
      patientName: 'ROE^RICHARD',
      patientId: row.patientId,
      patientSex: 'M',
      patientAge: '041Y',
      studyDate: '20261101',
      studyDescription: 'CT HEAD',
      modalities: ['CT', 'SR'],
      status: 'CREATED',
      deleted: false,
      upload: 'COMPLETE',
      entry: { allowed: true },
      seriesNames: [{ seriesName: 'AX T2', preferredName: 'Axial T2' }],
      canAnnotate: true,
      openInWeasis: true,
    });
  });

  it('says when the study cannot be opened, with the spec texts', async () => {
    const w = await createTestWorld(t.db);
    const { browser } = await signedInAt(t, w, ['ROLE_ADMIN']);
    const at = { groupId: w.group.id, centerId: w.center.id };
    const none = await createTestStudy(t.db, { ...at, study: { instanceCount: 0 } });
    const partial = await createTestStudy(t.db, at);
    const deleted = await createTestStudy(t.db, { ...at, row: { ...COMPLETE, status: 'DELETED' } });
    const context = async (id: number) =>
      (await browser.get(`/api/viewer/${id}/context`)).json<TViewerContext>();

    expect(await context(none.row.id)).toMatchObject({
      upload: 'NONE',
      entry: { allowed: false, message: 'Study not uploaded, please contact center' },
    });
    expect(await context(partial.row.id)).toMatchObject({
      upload: 'PARTIAL',
      entry: { allowed: true, message: 'Study is not fully uploaded. please check with center' },
    });
    expect(await context(deleted.row.id)).toMatchObject({
      deleted: true,
      canAnnotate: false,
      entry: { allowed: false, message: 'Study has been deleted' },
    });
  });

  it('gives a center the basic viewer (images, no annotation tools) unless enableFullViewerForCenter', async () => {
    const closed = await createTestWorld(t.db);
    const open = await createTestWorld(t.db, { enableFullViewerForCenter: true });
    for (const [w, full] of [
      [closed, false],
      [open, true],
    ] as const) {
      const { row } = await createTestStudy(t.db, {
        groupId: w.group.id,
        centerId: w.center.id,
        row: COMPLETE,
      });
      const { browser } = await signedInAt(t, w, ['ROLE_CENTER']);
      const context = (await browser.get(`/api/viewer/${row.id}/context`)).json<TViewerContext>();
      expect(context.entry).toEqual({ allowed: true });
      expect(context.canAnnotate).toBe(full);
      const save = await put(browser, row.id, 'c-1', drawing('c-1'));
      expect(save.statusCode, save.body).toBe(full ? 200 : 403);
    }
  });

  it('answers 404 to another group, another center and a missing row; 401 without a session', async () => {
    const w = await createTwoWorlds(t, { doctor: ['ROLE_DOCTOR'] }, { stranger: ['ROLE_ADMIN'] });
    const otherCenter = await createTestCenter(t.db, { groupId: w.group.id });
    const { row } = await createTestStudy(t.db, {
      groupId: w.group.id,
      centerId: w.center.id,
      row: COMPLETE,
    });
    const { browser: centerB } = await signedIn(t, {
      roles: ['ROLE_CENTER'],
      groupId: w.group.id,
      centerId: otherCenter.id,
    });

    for (const browser of [w.stranger.browser, centerB]) {
      expect((await browser.get(`/api/viewer/${row.id}/context`)).statusCode).toBe(404);
      expect((await browser.get(`/api/viewer/${row.id}/annotations`)).statusCode).toBe(404);
      expect((await browser.get(`/api/viewer/${row.id}/priors`)).statusCode).toBe(404);
    }
    expect((await w.doctor.browser.get('/api/viewer/999999999/context')).statusCode).toBe(404);
    expect((await new TestClient(t.app).get(`/api/viewer/${row.id}/context`)).statusCode).toBe(401);
    expect((await w.doctor.browser.get('/api/viewer/abc/context')).statusCode).toBe(400);
  });
});

describe('annotations and key images', () => {
  it('a doctor saves a length; everyone who sees the study sees it; only the author or an admin changes it', async () => {
    const w = await createTestWorld(t.db);
    const { row } = await createTestStudy(t.db, {
      groupId: w.group.id,
      centerId: w.center.id,
      row: COMPLETE,
    });
    const doctor = await signedInAt(t, w, ['ROLE_DOCTOR']);
    const colleague = await signedInAt(t, w, ['ROLE_DOCTOR']);
    const admin = await signedInAt(t, w, ['ROLE_ADMIN']);

    const saved = await put(doctor.browser, row.id, 'len-1', drawing('len-1'));
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json<TViewerAnnotation>()).toMatchObject({
      annotationUid: 'len-1',
      createdBy: doctor.user.email,
    });

    const seen = await colleague.browser.get(`/api/viewer/${row.id}/annotations`);
    expect(seen.json<TViewerAnnotations>().annotations).toEqual([
      expect.objectContaining({
        ...drawing('len-1'),
        createdBy: doctor.user.email,
        createdAt: expect.any(String),
      }),
    ]);

    // Not the colleague's to change or delete; the author changes it; the admin may too.
    expect(
      (await put(colleague.browser, row.id, 'len-1', drawing('len-1', { frameNumber: 2 }))).statusCode,
    ).toBe(403);
    expect((await del(colleague.browser, `/api/viewer/${row.id}/annotations/len-1`)).statusCode).toBe(403);
    expect(
      (await put(doctor.browser, row.id, 'len-1', drawing('len-1', { frameNumber: 2 }))).statusCode,
    ).toBe(200);
    const byAdmin = await put(admin.browser, row.id, 'len-1', drawing('len-1', { frameNumber: 3 }));
    expect(byAdmin.statusCode).toBe(200);
    expect(byAdmin.json<TViewerAnnotation>()).toMatchObject({ frameNumber: 3, createdBy: doctor.user.email });

    expect((await del(doctor.browser, `/api/viewer/${row.id}/annotations/len-1`)).statusCode).toBe(204);
    expect((await del(doctor.browser, `/api/viewer/${row.id}/annotations/len-1`)).statusCode).toBe(404);
    const after = await admin.browser.get(`/api/viewer/${row.id}/annotations`);
    expect(after.json<TViewerAnnotations>().annotations).toEqual([]);
    // Drawings are not workflow: the study timeline stays empty.
    expect(await t.db.select().from(studyEvents).where(eq(studyEvents.reportStatusId, row.id))).toEqual([]);
  });

  it('read-only roles see the drawings but cannot save, delete or mark', async () => {
    const w = await createTestWorld(t.db);
    const doctor = await signedInAt(t, w, ['ROLE_DOCTOR']);
    const auditor = await signedInAt(t, w, ['ROLE_AUDITOR']);
    const referring = await signedInAt(t, w, ['ROLE_REFERRING_DOCTOR']);
    const { row } = await createTestStudy(t.db, {
      groupId: w.group.id,
      centerId: w.center.id,
      row: { ...COMPLETE, auditorUserId: auditor.user.id, referringDoctorUserId: referring.user.id },
    });
    expect((await put(doctor.browser, row.id, 'a-1', drawing('a-1'))).statusCode).toBe(200);

    for (const reader of [auditor, referring]) {
      const context = await reader.browser.get(`/api/viewer/${row.id}/context`);
      expect(context.json<TViewerContext>().canAnnotate).toBe(false);
      const list = await reader.browser.get(`/api/viewer/${row.id}/annotations`);
      expect(list.json<TViewerAnnotations>().annotations).toHaveLength(1);
      expect((await put(reader.browser, row.id, 'r-1', drawing('r-1'))).statusCode).toBe(403);
      expect((await del(reader.browser, `/api/viewer/${row.id}/annotations/a-1`)).statusCode).toBe(403);
      const mark = await reader.browser.post(`/api/viewer/${row.id}/key-images`, {
        seriesInstanceUid: '1.2.3.1',
        sopInstanceUid: '1.2.3.1.1',
        frameNumber: 1,
      });
      expect(mark.statusCode).toBe(403);
    }
  });

  it('marks a key image once, however often it is marked, and unmarks it', async () => {
    const w = await createTestWorld(t.db);
    const { row } = await createTestStudy(t.db, {
      groupId: w.group.id,
      centerId: w.center.id,
      row: COMPLETE,
    });
    const doctor = await signedInAt(t, w, ['ROLE_DOCTOR']);
    const frame = { seriesInstanceUid: '1.2.3.1', sopInstanceUid: '1.2.3.1.7', frameNumber: 4 };

    for (let i = 0; i < 2; i++) {
      const res = await doctor.browser.post(`/api/viewer/${row.id}/key-images`, frame);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({ ...frame, createdBy: doctor.user.email });
    }
    const listed = await doctor.browser.get(`/api/viewer/${row.id}/annotations`);
    expect(listed.json<TViewerAnnotations>().keyImages).toEqual([expect.objectContaining(frame)]);

    const unmark = await del(
      doctor.browser,
      `/api/viewer/${row.id}/key-images?sopInstanceUid=1.2.3.1.7&frameNumber=4`,
    );
    expect(unmark.json()).toEqual({ removed: true });
    const empty = await doctor.browser.get(`/api/viewer/${row.id}/annotations`);
    expect(empty.json<TViewerAnnotations>().keyImages).toEqual([]);
  });

  it('answers 400 naming the field for bad input', async () => {
    const w = await createTestWorld(t.db);
    const { row } = await createTestStudy(t.db, {
      groupId: w.group.id,
      centerId: w.center.id,
      row: COMPLETE,
    });
    const { browser } = await signedInAt(t, w, ['ROLE_DOCTOR']);
    const fieldOf = async (uid: string, body: unknown) => {
      const res = await put(browser, row.id, uid, body);
      expect(res.statusCode, res.body).toBe(400);
      return res.json<{ additionalInfo: string }>().additionalInfo;
    };

    expect(await fieldOf('x-1', drawing('x-1', { toolName: 'Probe' as never }))).toBe('toolName');
    expect(await fieldOf('x-1', drawing('x-1', { frameNumber: 0 }))).toBe('frameNumber');
    expect(await fieldOf('x-1', drawing('x-1', { data: { text: 'x'.repeat(33 * 1024) } }))).toBe('data');
    expect(await fieldOf('x-1', drawing('x-2'))).toBe('annotationUid');
    expect(await fieldOf('bad%20uid', drawing('bad uid'))).toContain('annotationUid');
    const mark = await browser.post(`/api/viewer/${row.id}/key-images`, {
      sopInstanceUid: '1.2',
      frameNumber: 1,
    });
    expect(mark.statusCode).toBe(400);
    expect(mark.json<{ additionalInfo: string }>().additionalInfo).toBe('seriesInstanceUid');
    const unmark = await del(browser, `/api/viewer/${row.id}/key-images?sopInstanceUid=1.2&frameNumber=0`);
    expect(unmark.statusCode).toBe(400);
  });
});

describe('GET /api/viewer/:id/priors', () => {
  it("lists the patient's other visible studies, newest first", async () => {
    const w = await createTestWorld(t.db);
    const elsewhere = await createTestCenter(t.db, { groupId: w.group.id });
    const otherGroup = await createTestWorld(t.db);
    const patient = { patientId: `PAT-${Date.now()}`, patientName: 'LEE^ANN' };
    const at = { groupId: w.group.id, centerId: w.center.id, ...patient };
    const current = await createTestStudy(t.db, { ...at, studyDate: '20261101' });
    const older = await createTestStudy(t.db, { ...at, studyDate: '20240101', modalities: ['MR'] });
    const newer = await createTestStudy(t.db, { ...at, studyDate: '20261115', studyTime: '101500' });
    const atOtherCenter = await createTestStudy(t.db, {
      ...at,
      centerId: elsewhere.id,
      studyDate: '20250101',
    });
    await createTestStudy(t.db, { ...at, patientId: 'SOMEONE-ELSE', studyDate: '20250505' });
    await createTestStudy(t.db, { ...patient, groupId: otherGroup.group.id, centerId: otherGroup.center.id });

    const admin = await signedInAt(t, w, ['ROLE_ADMIN']);
    const res = await admin.browser.get(`/api/viewer/${current.row.id}/priors`);
    expect(res.statusCode, res.body).toBe(200);
    const priors = res.json<TViewerPriors>().priors;
    expect(priors.map((p) => p.id)).toEqual([newer.row.id, atOtherCenter.row.id, older.row.id]);
    expect(priors[2]).toMatchObject({
      studyInstanceUid: older.study.studyInstanceUid,
      modalities: ['MR'],
      status: 'CREATED',
    });

    // A center user sees only its own center's studies among them.
    const center = await signedInAt(t, w, ['ROLE_CENTER']);
    const own = await center.browser.get(`/api/viewer/${current.row.id}/priors`);
    expect(own.json<TViewerPriors>().priors.map((p) => p.id)).toEqual([newer.row.id, older.row.id]);
  });

  it('matches on name and birth date when the patient id is empty, and on nothing when both are missing', async () => {
    const w = await createTestWorld(t.db);
    const at = { groupId: w.group.id, centerId: w.center.id, patientId: '', patientName: 'KIM^MIN' };
    const current = await createTestStudy(t.db, { ...at, study: { patientBirthDate: '19700101' } });
    const same = await createTestStudy(t.db, { ...at, study: { patientBirthDate: '19700101' } });
    await createTestStudy(t.db, { ...at, study: { patientBirthDate: '19800101' } });
    const anonymous = await createTestStudy(t.db, { ...at, patientName: 'KIM^MIN' });
    const admin = await signedInAt(t, w, ['ROLE_ADMIN']);

    const res = await admin.browser.get(`/api/viewer/${current.row.id}/priors`);
    expect(res.json<TViewerPriors>().priors.map((p) => p.id)).toEqual([same.row.id]);
    const none = await admin.browser.get(`/api/viewer/${anonymous.row.id}/priors`);
    expect(none.json<TViewerPriors>().priors).toEqual([]);
  });
});

describe('GET /api/customer-report/share-info', () => {
  it('answers a viewer session (no payment is recorded yet: nothing to pay)', async () => {
    const w = await createTestWorld(t.db);
    const { browser } = await signedInAt(t, w, ['ROLE_VIEWER']);
    const res = await browser.get('/api/customer-report/share-info');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ paymentNotDone: false, paymentPolling: false });
    expect((await new TestClient(t.app).get('/api/customer-report/share-info')).statusCode).toBe(401);
  });
});
