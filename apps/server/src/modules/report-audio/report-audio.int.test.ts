import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import {
  AUDIO_MAX_BYTES,
  AUDIO_MESSAGES,
  type TReportAudio,
  type TReportStatus,
  type TStudyEventType,
} from '@radflow/core';
import { reportAudios, studyEvents } from '../../db/schema.js';
import { type TestApp, type TestClient, createTestApp } from '../../../test/test-app.js';
import { createTestStudy, createTwoWorlds } from '../../../test/worklist-test-data.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

/** A WebM (EBML) recording: the header bytes, then noise. */
const WEBM = Buffer.concat([Buffer.from([0x1a, 0x45, 0xdf, 0xa3]), randomBytes(4096)]);
const WAV = Buffer.concat([Buffer.from('RIFF'), Buffer.alloc(4), Buffer.from('WAVEfmt '), randomBytes(256)]);
const PDF = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');

let world: Awaited<ReturnType<typeof createWorld>>;
const createWorld = () =>
  createTwoWorlds(
    t,
    {
      doctor: ['ROLE_DOCTOR'],
      centerUser: ['ROLE_CENTER'],
      admin: ['ROLE_ADMIN'],
      referring: ['ROLE_REFERRING_DOCTOR'],
    },
    { otherDoctor: ['ROLE_DOCTOR'] },
  );
beforeAll(async () => {
  world = await createWorld();
});

async function createReport(status: TReportStatus = 'LOCKED') {
  const { row } = await createTestStudy(t.db, {
    groupId: world.group.id,
    centerId: world.center.id,
    row: { status, assignedToUserId: world.doctor.user.id },
  });
  return row;
}

/** A multipart body with the `file` part (named as a client would) and optional fields. */
function multipart(fields: Record<string, string>, file: { name: string; bytes: Uint8Array; type: string }) {
  const boundary = `audio-${randomBytes(6).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    chunks.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`),
    );
  }
  chunks.push(
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\nContent-Type: ${file.type}\r\n\r\n`,
    ),
    Buffer.from(file.bytes),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  );
  return { payload: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

function saveAudio(
  browser: TestClient,
  reportStatusId: number,
  file: { name?: string; bytes: Uint8Array; type?: string },
  fields: Record<string, string> = {},
) {
  const body = multipart(fields, {
    name: file.name ?? 'note.webm',
    bytes: file.bytes,
    type: file.type ?? 'audio/webm',
  });
  return browser.request({
    method: 'POST',
    url: `/api/report-audio/save-audio/${reportStatusId}`,
    payload: body.payload,
    headers: { 'content-type': body.contentType },
  });
}

const eventsOf = (reportStatusId: number, eventType: TStudyEventType) =>
  t.db
    .select()
    .from(studyEvents)
    .where(and(eq(studyEvents.reportStatusId, reportStatusId), eq(studyEvents.eventType, eventType)));

async function blobKeyOf(audioId: number) {
  const [row] = await t.db.select().from(reportAudios).where(eq(reportAudios.id, audioId));
  return row?.blobKey ?? null;
}

describe('audio notes', () => {
  it('the doctor records a note: it is listed, plays back with its type and range, and is on the timeline', async () => {
    const report = await createReport();
    const res = await saveAudio(world.doctor.browser, report.id, { bytes: WEBM }, { durationMs: '4200' });
    expect(res.statusCode, res.body).toBe(200);
    const saved = res.json<TReportAudio>();
    expect(saved).toMatchObject({
      contentType: 'audio/webm',
      byteSize: WEBM.length,
      durationMs: 4200,
      createdBy: world.doctor.user.email,
      audioUrl: `/api/report-audio/file/${report.id}/${saved.audioId}`,
    });

    // Whoever sees the row lists and plays the notes.
    const listed = await world.admin.browser.get(`/api/report-audio/fetch-audio/${report.id}`);
    expect(listed.statusCode, listed.body).toBe(200);
    expect(listed.json<TReportAudio[]>().map((a) => a.audioId)).toEqual([saved.audioId]);

    const file = await world.centerUser.browser.get(saved.audioUrl);
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('audio/webm');
    expect(file.rawPayload.equals(WEBM)).toBe(true);

    const part = await world.doctor.browser.get(saved.audioUrl, { range: 'bytes=4-9' });
    expect(part.statusCode).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 4-9/${WEBM.length}`);
    expect(part.rawPayload.equals(WEBM.subarray(4, 10))).toBe(true);

    const events = await eventsOf(report.id, 'AUDIO_ADDED');
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      actorUserId: world.doctor.user.id,
      fromStatus: 'LOCKED',
      toStatus: 'LOCKED',
    });
    expect(events[0]?.detail).toMatchObject({ audioId: saved.audioId });
  });

  it('knows the type by the bytes, not the name: a WAV named .webm is WAV, a PDF named .webm is 415', async () => {
    const report = await createReport();
    const wav = await saveAudio(world.centerUser.browser, report.id, { name: 'x.webm', bytes: WAV });
    expect(wav.statusCode, wav.body).toBe(200);
    expect(wav.json<TReportAudio>().contentType).toBe('audio/wav');

    const pdf = await saveAudio(world.doctor.browser, report.id, { name: 'x.webm', bytes: PDF });
    expect(pdf.statusCode).toBe(415);
    expect(pdf.json<{ errorDescription: string }>().errorDescription).toBe(AUDIO_MESSAGES.notAudio);
    const listed = await world.doctor.browser.get(`/api/report-audio/fetch-audio/${report.id}`);
    expect(listed.json<TReportAudio[]>()).toHaveLength(1);
  });

  it('refuses a recording over the size cap with 413 and a bad duration with 400; stores nothing', async () => {
    const report = await createReport();
    const big = Buffer.concat([WEBM.subarray(0, 4), Buffer.alloc(AUDIO_MAX_BYTES + 1)]);
    const tooBig = await saveAudio(world.doctor.browser, report.id, { bytes: big });
    expect(tooBig.statusCode).toBe(413);
    const badDuration = await saveAudio(
      world.doctor.browser,
      report.id,
      { bytes: WEBM },
      { durationMs: 'soon' },
    );
    expect(badDuration.statusCode).toBe(400);
    expect(await t.db.select().from(reportAudios).where(eq(reportAudios.reportStatusId, report.id))).toEqual(
      [],
    );
    expect(await eventsOf(report.id, 'AUDIO_ADDED')).toEqual([]);
  });

  it('read-only roles cannot add (403); another group cannot see the row (404); nothing on a deleted study', async () => {
    const report = await createReport();
    expect((await saveAudio(world.referring.browser, report.id, { bytes: WEBM })).statusCode).toBe(403);
    expect((await saveAudio(world.otherDoctor.browser, report.id, { bytes: WEBM })).statusCode).toBe(404);
    expect(
      (await world.otherDoctor.browser.get(`/api/report-audio/fetch-audio/${report.id}`)).statusCode,
    ).toBe(404);
    const deleted = await createReport('DELETED');
    const res = await saveAudio(world.centerUser.browser, deleted.id, { bytes: WEBM });
    expect(res.statusCode).toBe(403);
    expect(res.json<{ errorDescription: string }>().errorDescription).toBe(AUDIO_MESSAGES.deletedStudy);
  });

  it('the uploader or a group admin deletes; the row, its event and the blob go together', async () => {
    const report = await createReport();
    const byCenter = (
      await saveAudio(world.centerUser.browser, report.id, { bytes: WEBM })
    ).json<TReportAudio>();
    const byDoctor = (await saveAudio(world.doctor.browser, report.id, { bytes: WAV })).json<TReportAudio>();

    const refused = await world.doctor.browser.request({
      method: 'DELETE',
      url: `/api/report-audio/delete-audio/${report.id}/${byCenter.audioId}`,
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.json<{ errorDescription: string }>().errorDescription).toBe(
      AUDIO_MESSAGES.deleteNotAllowed,
    );

    const blobKey = await blobKeyOf(byDoctor.audioId);
    expect(blobKey).not.toBeNull();
    expect(await t.blobs.size(blobKey ?? '')).toBe(WAV.length);
    const own = await world.doctor.browser.request({
      method: 'DELETE',
      url: `/api/report-audio/delete-audio/${report.id}/${byDoctor.audioId}`,
    });
    expect(own.statusCode, own.body).toBe(200);
    expect(await t.blobs.size(blobKey ?? '')).toBeNull();

    const byAdmin = await world.admin.browser.request({
      method: 'DELETE',
      url: `/api/report-audio/delete-audio/${report.id}/${byCenter.audioId}`,
    });
    expect(byAdmin.statusCode, byAdmin.body).toBe(200);
    const listed = await world.doctor.browser.get(`/api/report-audio/fetch-audio/${report.id}`);
    expect(listed.json<TReportAudio[]>()).toEqual([]);
    expect((await eventsOf(report.id, 'AUDIO_DELETED')).map((e) => e.actorUserId).sort()).toEqual(
      [world.doctor.user.id, world.admin.user.id].sort(),
    );

    // Gone, or a note of another row: 404.
    const again = await world.admin.browser.request({
      method: 'DELETE',
      url: `/api/report-audio/delete-audio/${report.id}/${byCenter.audioId}`,
    });
    expect(again.statusCode).toBe(404);
    expect((await world.doctor.browser.get(byDoctor.audioUrl)).statusCode).toBe(404);
  });
});
