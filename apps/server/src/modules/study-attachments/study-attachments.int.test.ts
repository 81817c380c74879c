import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import type {
  TFilmListResponse,
  TReportStatus,
  TStudyAttachment,
  TStudyAttachmentLists,
} from '@radflow/core';
import { ATTACHMENT_MAX_BYTES, FILM_LIST_LIMIT, type TStudyEventType } from '@radflow/core';
import { studyAttachments, studyEvents } from '../../db/schema.js';
import { formBody } from '../../../test/archive/helpers.js';
import { type TestApp, type TestClient, createTestApp } from '../../../test/test-app.js';
import {
  createTestStudy,
  createTestWorld,
  createTwoWorlds,
  signedIn,
} from '../../../test/worklist-test-data.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const PDF = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), randomBytes(64)]);
const DOCX = Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), randomBytes(64)]);

/**
 * A study (default: of the world's center), assigned to the world's doctor (so a doctor sees it
 * however their scope is narrowed).
 */
async function createReport(opts: { groupId?: number; centerId?: number; status?: TReportStatus } = {}) {
  const { row } = await createTestStudy(t.db, {
    groupId: opts.groupId ?? world.group.id,
    centerId: opts.centerId ?? world.center.id,
    row: { status: opts.status ?? 'CREATED', assignedToUserId: world.doctor.user.id, studyName: 'CT HEAD' },
  });
  return row;
}

function upload(browser: TestClient, url: string, files: Array<{ name: string; bytes: Uint8Array }>) {
  const body = formBody({}, files);
  return browser.request({
    method: 'POST',
    url,
    payload: body.payload,
    headers: { 'content-type': body.contentType },
  });
}

const rowsOf = (reportStatusId: number) =>
  t.db.select().from(studyAttachments).where(eq(studyAttachments.reportStatusId, reportStatusId));
const eventsOf = (reportStatusId: number, eventType: TStudyEventType) =>
  t.db
    .select()
    .from(studyEvents)
    .where(and(eq(studyEvents.reportStatusId, reportStatusId), eq(studyEvents.eventType, eventType)));

let world: Awaited<ReturnType<typeof createWorld>>;
const createWorld = () =>
  createTwoWorlds(
    t,
    {
      centerUser: ['ROLE_CENTER'],
      admin: ['ROLE_ADMIN'],
      doctor: ['ROLE_DOCTOR'],
      assignor: ['ROLE_ASSIGNOR'],
      tele: ['ROLE_TELE_RADIOLOGY'],
    },
    { otherCenterUser: ['ROLE_CENTER'] },
  );
beforeAll(async () => {
  world = await createWorld();
});

describe('history attachments', () => {
  it('the center attaches a PDF; it is listed, downloaded under its name, and on the timeline', async () => {
    const report = await createReport();
    const res = await upload(world.centerUser.browser, `/api/history/upload/${report.id}`, [
      { name: 'Prescription – Dr Rao.pdf', bytes: PDF },
    ]);
    expect(res.statusCode, res.body).toBe(200);
    const attachment = res.json<TStudyAttachment>();
    expect(attachment).toMatchObject({
      kind: 'HISTORY',
      fileName: 'Prescription – Dr Rao.pdf',
      contentType: 'application/pdf',
      sizeBytes: PDF.length,
      reportStatusId: report.id,
    });

    const lists = (
      await world.doctor.browser.get(`/api/attachments/${report.id}`)
    ).json<TStudyAttachmentLists>();
    expect(lists.historyAttachment.map((a) => a.path)).toEqual([attachment.path]);
    expect(lists.filmAttachment).toEqual([]);

    // Doctors may download (spec-core §6 names no one else for adding).
    const download = await world.doctor.browser.get(
      `/api/history/download/${report.id}/${attachment.path}/${encodeURIComponent(attachment.fileName)}`,
    );
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-type']).toBe('application/pdf');
    expect(download.headers['content-disposition']).toContain(
      `filename*=UTF-8''${encodeURIComponent('Prescription – Dr Rao.pdf')}`,
    );
    expect(download.rawPayload.equals(PDF)).toBe(true);

    const [event] = await eventsOf(report.id, 'ATTACHMENT_ADDED');
    expect(event?.detail).toMatchObject({ kind: 'HISTORY', path: attachment.path });
  });

  it('the center deletes it: row, blob and a timeline event; a second delete is 404', async () => {
    const report = await createReport();
    const added = (
      await upload(world.centerUser.browser, `/api/history/upload/${report.id}`, [
        { name: 'a.txt', bytes: Buffer.from('hi') },
      ])
    ).json<TStudyAttachment>();
    const [stored] = await rowsOf(report.id);
    expect(await t.blobs.size(stored!.blobKey)).toBe(2);

    const res = await world.centerUser.browser.request({
      method: 'DELETE',
      url: `/api/history/delete/${report.id}/${added.path}`,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(await rowsOf(report.id)).toEqual([]);
    expect(await t.blobs.size(stored!.blobKey)).toBeNull();
    expect(await eventsOf(report.id, 'ATTACHMENT_DELETED')).toHaveLength(1);

    const again = await world.centerUser.browser.request({
      method: 'DELETE',
      url: `/api/history/delete/${report.id}/${added.path}`,
    });
    expect(again.statusCode).toBe(404);
  });

  it('admins and tele-radiology users may attach history too', async () => {
    const report = await createReport();
    for (const user of [world.admin.browser, world.tele.browser]) {
      const res = await upload(user, `/api/history/upload/${report.id}`, [{ name: 'x.png', bytes: PNG }]);
      expect(res.statusCode, res.body).toBe(200);
    }
    expect(await rowsOf(report.id)).toHaveLength(2);
  });

  it('roles that may not add or delete get 403 and nothing is stored', async () => {
    const report = await createReport();
    for (const user of [world.doctor.browser, world.assignor.browser]) {
      const res = await upload(user, `/api/history/upload/${report.id}`, [{ name: 'a.pdf', bytes: PDF }]);
      expect(res.statusCode).toBe(403);
      const film = await upload(user, `/api/film/upload/${report.id}`, [{ name: 'a.png', bytes: PNG }]);
      expect(film.statusCode).toBe(403);
    }
    const added = (
      await upload(world.centerUser.browser, `/api/history/upload/${report.id}`, [
        { name: 'a.pdf', bytes: PDF },
      ])
    ).json<TStudyAttachment>();
    const del = await world.doctor.browser.request({
      method: 'DELETE',
      url: `/api/history/delete/${report.id}/${added.path}`,
    });
    expect(del.statusCode).toBe(403);
    expect(await rowsOf(report.id)).toHaveLength(1);
    expect(await eventsOf(report.id, 'ATTACHMENT_ADDED')).toHaveLength(1);
  });

  it('nothing is added to a deleted study (403)', async () => {
    const report = await createReport({ status: 'DELETED' });
    const res = await upload(world.centerUser.browser, `/api/history/upload/${report.id}`, [
      { name: 'a.pdf', bytes: PDF },
    ]);
    expect(res.statusCode).toBe(403);
    expect(await rowsOf(report.id)).toEqual([]);
  });
});

describe('bad uploads are refused with nothing stored', () => {
  it('types outside spec-core §5, content that does not match, empty and two-file uploads are 400', async () => {
    const report = await createReport();
    const cases: Array<Array<{ name: string; bytes: Uint8Array }>> = [
      [{ name: 'tool.exe', bytes: Buffer.from('MZ\x90\x00') }],
      [{ name: 'page.svg', bytes: Buffer.from('<svg/>') }],
      [{ name: 'fake.pdf', bytes: Buffer.from('MZ not a pdf at all') }],
      [{ name: 'fake.docx', bytes: PDF }],
      [{ name: 'empty.pdf', bytes: Buffer.alloc(0) }],
      [
        { name: 'a.pdf', bytes: PDF },
        { name: 'b.pdf', bytes: PDF },
      ],
    ];
    for (const files of cases) {
      const res = await upload(world.centerUser.browser, `/api/history/upload/${report.id}`, files);
      expect(res.statusCode, `${files[0]!.name}: ${res.body}`).toBe(400);
      expect(res.json<{ additionalInfo: string }>().additionalInfo).toBe('file');
    }
    const none = await upload(world.centerUser.browser, `/api/history/upload/${report.id}`, []);
    expect(none.statusCode).toBe(400);
    expect(await rowsOf(report.id)).toEqual([]);
    expect(await eventsOf(report.id, 'ATTACHMENT_ADDED')).toEqual([]);
  });

  it('a file over the cap is 413 naming the limit', async () => {
    const report = await createReport();
    const big = Buffer.alloc(ATTACHMENT_MAX_BYTES + 1, 0x20);
    big.write('%PDF-1.4');
    const res = await upload(world.centerUser.browser, `/api/history/upload/${report.id}`, [
      { name: 'big.pdf', bytes: big },
    ]);
    expect(res.statusCode).toBe(413);
    expect(res.json<{ errorDescription: string }>().errorDescription).toContain('50 MB');
    expect(await rowsOf(report.id)).toEqual([]);
  });

  it('a path that is not one of our ids is 400, never a file-system path', async () => {
    const report = await createReport();
    const res = await world.centerUser.browser.get(
      `/api/history/download/${report.id}/..%2F..%2Fetc%2Fpasswd`,
    );
    expect(res.statusCode).toBe(400);
  });
});

describe("another group's study", () => {
  it('is 404 for upload, list, download and delete', async () => {
    const report = await createReport();
    const added = (
      await upload(world.centerUser.browser, `/api/film/upload/${report.id}`, [{ name: 'f.png', bytes: PNG }])
    ).json<TStudyAttachment>();
    const other = world.otherCenterUser.browser;
    expect(
      (await upload(other, `/api/film/upload/${report.id}`, [{ name: 'f.png', bytes: PNG }])).statusCode,
    ).toBe(404);
    expect((await other.get(`/api/attachments/${report.id}`)).statusCode).toBe(404);
    expect((await other.get(`/api/film/download/${report.id}/${added.path}/f.png`)).statusCode).toBe(404);
    expect((await other.get(`/api/films/images/get/${added.path}`)).statusCode).toBe(404);
    const del = await other.request({ method: 'DELETE', url: `/api/film/delete/${report.id}/${added.path}` });
    expect(del.statusCode).toBe(404);
    expect(await rowsOf(report.id)).toHaveLength(1);
    const films = (await other.get('/api/films/get')).json<TFilmListResponse>();
    expect(films.data.map((f) => f.path)).not.toContain(added.path);
  });
});

describe('films', () => {
  it('/films/get lists the visible films newest first, at most 50; /films/images/get serves one inline', async () => {
    const { group, center } = await createTestWorld(t.db);
    const { browser: centerUser } = await signedIn(t, {
      roles: ['ROLE_CENTER'],
      groupId: group.id,
      centerId: center.id,
    });
    const report = await createReport({ groupId: group.id, centerId: center.id });
    const uploaded = (
      await upload(centerUser, `/api/film/upload/${report.id}`, [{ name: 'chest.png', bytes: PNG }])
    ).json<TStudyAttachment>();

    const image = await centerUser.get(`/api/films/images/get/${uploaded.path}`);
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toBe('image/png');
    expect(image.headers['content-disposition']).toMatch(/^inline;/);
    expect(image.rawPayload.equals(PNG)).toBe(true);

    // 55 older films written directly (their bytes do not matter to the list).
    const base = Date.now() - 3_600_000;
    await t.db.insert(studyAttachments).values(
      Array.from({ length: 55 }, (_, i) => ({
        reportStatusId: report.id,
        kind: 'FILM' as const,
        path: `film${String(i).padStart(4, '0')}${randomBytes(8).toString('hex')}`,
        fileName: `f${i}.png`,
        contentType: 'image/png',
        sizeBytes: 1,
        blobKey: `attachments/none/${i}`,
        createdAt: new Date(base + i * 1000),
      })),
    );
    const films = (await centerUser.get('/api/films/get')).json<TFilmListResponse>();
    expect(films.data).toHaveLength(FILM_LIST_LIMIT);
    expect(films.data[0]).toMatchObject({
      path: uploaded.path,
      name: uploaded.path,
      patientName: 'DOE^JANE',
    });
    expect(films.data[1]?.fileName).toBe('f54.png');
    const times = films.data.map((f) => Date.parse(f.createdAt));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
  });
});

describe('report attachments', () => {
  it('the doctor attaches a document; a center user may delete it but not add one', async () => {
    const report = await createReport();
    const res = await upload(world.doctor.browser, `/api/report-attachment/upload/${report.id}`, [
      { name: 'addendum.docx', bytes: DOCX },
    ]);
    expect(res.statusCode, res.body).toBe(200);
    const added = res.json<TStudyAttachment>();
    expect(added.contentType).toBe('application/vnd.openxmlformats-officedocument.wordprocessingml.document');
    const refused = await upload(world.centerUser.browser, `/api/report-attachment/upload/${report.id}`, [
      { name: 'a.pdf', bytes: PDF },
    ]);
    expect(refused.statusCode).toBe(403);

    const download = await world.centerUser.browser.get(
      `/api/report-attachment/download/${report.id}/${added.path}`,
    );
    expect(download.statusCode).toBe(200);
    expect(download.rawPayload.equals(DOCX)).toBe(true);

    const del = await world.centerUser.browser.request({
      method: 'DELETE',
      url: `/api/report-attachment/delete/${report.id}/${added.path}`,
    });
    expect(del.statusCode, del.body).toBe(200);
    const lists = (
      await world.doctor.browser.get(`/api/attachments/${report.id}`)
    ).json<TStudyAttachmentLists>();
    expect(lists.reportAttachment).toEqual([]);
  });

  it('a history path is not found under the film calls', async () => {
    const report = await createReport();
    const added = (
      await upload(world.centerUser.browser, `/api/history/upload/${report.id}`, [
        { name: 'a.pdf', bytes: PDF },
      ])
    ).json<TStudyAttachment>();
    expect(
      (await world.centerUser.browser.get(`/api/film/download/${report.id}/${added.path}/a.pdf`)).statusCode,
    ).toBe(404);
  });
});
