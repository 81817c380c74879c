import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFixture } from '../../../../../packages/dicom/src/test-fixtures.js';
import { ingestInstance } from '../archive/ingest.js';
import { type TestApp, TestClient, createTestApp } from '../../../test/test-app.js';
import { createTestStudy, createTestWorld, signedInAt } from '../../../test/worklist-test-data.js';

/**
 * Weasis (issue 5 §4): a doctor launches Weasis from the viewer; Weasis fetches the manifest with the
 * launch's token and then reads the study's instances from our WADO with the same token — that study
 * only, and only until the token expires.
 */

const PUBLIC_URL = 'https://radflow.example';
const CT_SMALL = 'ct/ct_small_128x128_explicit_le.dcm';
const FRENCH = 'charset/latin1_iso_ir_100_french.dcm';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ publicUrl: PUBLIC_URL });
});
afterAll(() => t.close());

/** A group with openInWeasis as asked, two real studies at its center, and a signed-in doctor. */
async function createWeasisWorld(openInWeasis: boolean) {
  const w = await createTestWorld(t.db, { openInWeasis });
  const ingest = async (path: string) => {
    const result = await ingestInstance(
      t.app.ctx,
      { bytes: readFixture(path) },
      { centerId: w.center.id, source: 'STOW' },
    );
    if (!result.ok) throw new Error(`${path}: ${result.reason}`);
    return result;
  };
  const ct = await ingest(CT_SMALL);
  const other = await ingest(FRENCH);
  const doctor = await signedInAt(t, w, ['ROLE_ADMIN']);
  return { ...w, ct, other, doctor };
}

/** The manifest URL inside a weasis:// launch URL, and its token. */
function manifestOf(launchUrl: string) {
  expect(launchUrl.startsWith('weasis://?%24dicom%3Aget+-w+%22')).toBe(true);
  const command = decodeURIComponent(launchUrl.slice('weasis://?'.length).replaceAll('+', ' '));
  const url = /^\$dicom:get -w "(.+)"$/.exec(command)?.[1] ?? '';
  expect(url.startsWith(`${PUBLIC_URL}/api/viewer/weasis-manifest/`)).toBe(true);
  const token = url.split('/').pop() ?? '';
  // The router caps a path parameter at 100 characters (weasis-token.test.ts: the largest ids fit).
  expect(token.length).toBeLessThanOrEqual(100);
  return { path: url.slice(PUBLIC_URL.length), token };
}

const withToken = (token: string, url: string) =>
  t.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } });

const wadoUri = (study: { studyInstanceUid: string; seriesInstanceUid: string; sopInstanceUid: string }) =>
  `/api/dicomweb/wado?requestType=WADO&studyUID=${study.studyInstanceUid}&seriesUID=${study.seriesInstanceUid}&objectUID=${study.sopInstanceUid}&contentType=application%2Fdicom`;

describe('Weasis launch', () => {
  it('is refused unless the group turns openInWeasis on', async () => {
    const w = await createWeasisWorld(false);
    const res = await w.doctor.browser.get(`/api/viewer/${w.ct.reportStatusId}/weasis`);
    expect(res.statusCode).toBe(403);
  });

  it('serves a manifest of the study and lets Weasis read that study, and no other, with the token', async () => {
    const w = await createWeasisWorld(true);
    const launch = await w.doctor.browser.get(`/api/viewer/${w.ct.reportStatusId}/weasis`);
    expect(launch.statusCode, launch.body).toBe(200);
    const { path, token } = manifestOf(launch.json<{ launchUrl: string }>().launchUrl);

    // Weasis has no session: the token in the URL is the credential.
    const manifest = await new TestClient(t.app).get(path);
    expect(manifest.statusCode, manifest.body).toBe(200);
    expect(manifest.headers['content-type']).toContain('application/xml');
    const xml = manifest.body;
    expect(xml).toContain('<manifest xmlns="http://www.weasis.org/xsd/2.5"');
    expect(xml).toContain(`<arcQuery arcId="radflow" baseUrl="${PUBLIC_URL}/api/dicomweb/wado"`);
    expect(xml).toContain(`<httpTag key="Authorization" value="Bearer ${token}"/>`);
    expect(xml).toContain(`<Study StudyInstanceUID="${w.ct.studyInstanceUid}"`);
    expect(xml).toContain(`<Series SeriesInstanceUID="${w.ct.seriesInstanceUid}"`);
    expect(xml).toContain(`<Instance SOPInstanceUID="${w.ct.sopInstanceUid}"`);
    expect(xml).not.toContain(w.other.studyInstanceUid);

    // What Weasis then asks for: the file by WADO-URI, with the token as the manifest's header.
    const file = await withToken(token, wadoUri(w.ct));
    expect(file.statusCode, file.body).toBe(200);
    expect(file.headers['content-type']).toContain('application/dicom');
    expect(file.rawPayload.equals(Buffer.from(readFixture(CT_SMALL)))).toBe(true);
    expect(
      (await withToken(token, `/api/dicomweb/studies/${w.ct.studyInstanceUid}/metadata`)).statusCode,
    ).toBe(200);

    // Another study the doctor may see, a search across studies: not with this token.
    expect((await withToken(token, wadoUri(w.other))).statusCode).toBe(403);
    expect(
      (await withToken(token, `/api/dicomweb/studies/${w.other.studyInstanceUid}/metadata`)).statusCode,
    ).toBe(403);
    expect((await withToken(token, '/api/dicomweb/studies')).statusCode).toBe(403);
    // The token is not a session for the rest of the API.
    expect((await withToken(token, `/api/viewer/${w.ct.reportStatusId}/context`)).statusCode).toBe(401);
  });

  it('stops working when the token expires, and a changed token never works', async () => {
    const w = await createWeasisWorld(true);
    const launch = await w.doctor.browser.get(`/api/viewer/${w.ct.reportStatusId}/weasis`);
    const { path, token } = manifestOf(launch.json<{ launchUrl: string }>().launchUrl);
    const tampered = `${token.slice(0, -2)}${token.endsWith('AA') ? 'BB' : 'AA'}`;
    expect((await withToken(tampered, wadoUri(w.ct))).statusCode).toBe(401);
    expect((await new TestClient(t.app).get(path.replace(token, tampered))).statusCode).toBe(401);

    t.clock.advance(60 * 60 + 1);
    expect((await new TestClient(t.app).get(path)).statusCode).toBe(401);
    expect((await withToken(token, wadoUri(w.ct))).statusCode).toBe(401);
  });

  it('is refused for a study the viewer would not open', async () => {
    const w = await createTestWorld(t.db, { openInWeasis: true });
    const { row } = await createTestStudy(t.db, {
      groupId: w.group.id,
      centerId: w.center.id,
      study: { instanceCount: 0 },
    });
    const { browser } = await signedInAt(t, w, ['ROLE_DOCTOR']);
    const res = await browser.get(`/api/viewer/${row.id}/weasis`);
    expect(res.statusCode).toBe(403);
    expect(res.json<{ errorDescription: string }>().errorDescription).toBe(
      'Study not uploaded, please contact center',
    );
  });
});
