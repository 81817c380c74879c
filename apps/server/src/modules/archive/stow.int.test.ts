import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { instances, reportStatuses, studies } from '../../db/schema.js';
import { type TestApp, createTestApp } from '../../../test/test-app.js';
import { LIVER, STORABLE, corpus, readFixture } from '../../../test/archive/fixtures.js';
import { createArchiveWorld, stowBody } from '../../../test/archive/helpers.js';

let t: TestApp;
let world: Awaited<ReturnType<typeof createArchiveWorld>>;
beforeAll(async () => {
  t = await createTestApp();
  world = await createArchiveWorld(t);
});
afterAll(() => t.close());

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const seq = (body: Record<string, { Value?: unknown[] }>, tag: string) =>
  (body[tag]?.Value ?? []) as Array<Record<string, { Value?: unknown[] }>>;

function stow(client: typeof world.center.client, parts: Uint8Array[], url = '/api/dicomweb/studies') {
  const { payload, contentType } = stowBody(parts);
  return client.request({ method: 'POST', url, payload, headers: { 'content-type': contentType } });
}

describe('STOW-RS', () => {
  it('stores every storable corpus file byte-for-byte, refuses the invalid ones, never 5xx', async () => {
    // Some files are other encodings of one SOP instance: the first stored copy stays (archive
    // DECISIONS.md "instance ownership"); a later one is stored-with-warning (202, Warning Reason).
    const firstSha = new Map<string, string>();
    for (const file of corpus) {
      const bytes = readFixture(file.path);
      const res = await stow(world.center.client, [bytes]);
      expect(res.statusCode, file.path).toBeLessThan(500);
      const body = res.json();
      if (STORABLE.has(file.expected)) {
        const key = `${file.study_instance_uid}/${file.sop_instance_uid}`;
        const expected = firstSha.get(key) ?? file.sha256;
        firstSha.set(key, expected);
        expect(res.statusCode, `${file.path}: ${res.body}`).toBe(expected === file.sha256 ? 200 : 202);
        expect(res.headers['content-type']).toMatch(/^application\/dicom\+json/);
        const [ref] = seq(body, '00081199');
        expect(ref?.['00081155']?.Value).toEqual([file.sop_instance_uid]);
        expect(String(ref?.['00081190']?.Value?.[0])).toMatch(
          /\/api\/dicomweb\/studies\/.+\/series\/.+\/instances\//,
        );
        const [study] = await t.db
          .select({ id: studies.id })
          .from(studies)
          .where(
            and(eq(studies.groupId, world.group.id), eq(studies.studyInstanceUid, file.study_instance_uid!)),
          );
        const [row] = await t.db
          .select()
          .from(instances)
          .where(and(eq(instances.studyId, study!.id), eq(instances.sopInstanceUid, file.sop_instance_uid!)));
        expect(sha256(await t.blobs.read(row!.blobKey)), file.path).toBe(expected);
      } else {
        expect(res.statusCode, file.path).toBe(409);
        const [failed] = seq(body, '00081198');
        expect(failed?.['00081197']?.Value, file.path).toEqual([0xc000]);
        // The reason in words (PS3.18 item, as C-STORE's Error Comment).
        const comment = failed?.['00000902']?.Value?.[0];
        expect(typeof comment, file.path).toBe('string');
        expect((comment as string).length, file.path).toBeGreaterThan(5);
        expect(body['00081199']).toBeUndefined();
      }
    }
  });

  it('mixed good and bad parts: 202 with both sequences; the liver study ends with 2 series', async () => {
    // A group of its own: the liver study is center A's in the shared world (stored above).
    const world = await createArchiveWorld(t);
    const parts = [...LIVER.map(readFixture), readFixture('bad/not_dicom_text.dcm')];
    const res = await stow(world.admin.client, parts, `/api/dicomweb/studies?centerId=${world.centerB.id}`);
    expect(res.statusCode).toBe(202);
    const body = res.json();
    expect(seq(body, '00081199')).toHaveLength(4);
    expect(seq(body, '00081198')).toHaveLength(1);
    const studyUid = corpus.find((f) => f.path === LIVER[0])!.study_instance_uid!;
    expect(body['00081190'].Value[0]).toMatch(
      new RegExp(`/api/dicomweb/studies/${studyUid.replaceAll('.', '\\.')}$`),
    );
    const [study] = await t.db
      .select()
      .from(studies)
      .where(and(eq(studies.groupId, world.group.id), eq(studies.studyInstanceUid, studyUid)));
    expect(study).toMatchObject({ seriesCount: 2, instanceCount: 4 });

    // Re-sending is idempotent.
    const again = await stow(
      world.admin.client,
      LIVER.map(readFixture),
      `/api/dicomweb/studies?centerId=${world.centerB.id}`,
    );
    expect(again.statusCode).toBe(200);
    const [after] = await t.db.select().from(studies).where(eq(studies.id, study!.id));
    expect(after).toMatchObject({ seriesCount: 2, instanceCount: 4, sizeBytes: study!.sizeBytes });
    expect(
      await t.db.select().from(reportStatuses).where(eq(reportStatuses.studyId, study!.id)),
    ).toHaveLength(1);
  });

  it('an instance of another study than the path fails with 0xA900', async () => {
    const liver = readFixture(LIVER[0]!);
    const res = await stow(
      world.center.client,
      [liver, readFixture('ct/ct_small_128x128_explicit_le.dcm')],
      '/api/dicomweb/studies/1.2.3.4',
    );
    expect(res.statusCode).toBe(409);
    const failed = seq(res.json(), '00081198');
    expect(failed.map((f) => f['00081197']?.Value?.[0])).toEqual([0xa900, 0xa900]);
    const uid = corpus.find((f) => f.path === LIVER[0])!.study_instance_uid!;
    const ok = await stow(world.center.client, [liver], `/api/dicomweb/studies/${uid}`);
    expect(ok.statusCode).toBe(200);
  });

  it('answers 415 or 400 for a body that is not a DICOM multipart', async () => {
    const c = world.center.client;
    const json = await c.post('/api/dicomweb/studies', { a: 1 });
    expect(json.statusCode).toBe(415);
    const single = await c.request({
      method: 'POST',
      url: '/api/dicomweb/studies',
      payload: Buffer.from(readFixture(LIVER[0]!)),
      headers: { 'content-type': 'application/dicom' },
    });
    expect(single.statusCode).toBe(415);
    const xml = await c.request({
      method: 'POST',
      url: '/api/dicomweb/studies',
      payload: 'x',
      headers: { 'content-type': 'multipart/related; type="application/dicom+xml"; boundary=x' },
    });
    expect(xml.statusCode).toBe(415);
    const noBoundary = await c.request({
      method: 'POST',
      url: '/api/dicomweb/studies',
      payload: 'x',
      headers: { 'content-type': 'multipart/related; type="application/dicom"' },
    });
    expect(noBoundary.statusCode).toBe(400);
    const noParts = await c.request({
      method: 'POST',
      url: '/api/dicomweb/studies',
      payload: '--b--\r\n',
      headers: { 'content-type': 'multipart/related; type="application/dicom"; boundary=b' },
    });
    expect(noParts.statusCode).toBe(400);
    const garbage = await c.request({
      method: 'POST',
      url: '/api/dicomweb/studies',
      payload: 'hello world',
      headers: { 'content-type': 'multipart/related; type="application/dicom"; boundary=b' },
    });
    expect(garbage.statusCode).toBe(400);
  });

  it('roles: a doctor gets 403, a center user may not store into another center, a group user must name a center', async () => {
    const liver = readFixture(LIVER[0]!);
    expect((await stow(world.doctor.client, [liver])).statusCode).toBe(403);
    expect(
      (await stow(world.center.client, [liver], `/api/dicomweb/studies?centerId=${world.centerB.id}`))
        .statusCode,
    ).toBe(403);
    expect((await stow(world.admin.client, [liver])).statusCode).toBe(400);
    const anon = await t.app.inject({
      method: 'POST',
      url: '/api/dicomweb/studies',
      payload: stowBody([liver]).payload,
      headers: {
        'content-type': stowBody([]).contentType,
        'x-device-id': 'anonymous-device',
        'x-device-name': 'Test browser',
      },
    });
    expect(anon.statusCode).toBe(401);
  });

  it('works with a bearer token instead of the session cookie', async () => {
    const token = (await world.center.client.get('/api/user/token')).json().token as string;
    const { payload, contentType } = stowBody([readFixture('mr/mr_small_64x64_explicit_le.dcm')]);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/dicomweb/studies',
      payload,
      headers: { 'content-type': contentType, authorization: `Bearer ${token}` },
    });
    expect(res.statusCode).toBe(200);
  });
});
