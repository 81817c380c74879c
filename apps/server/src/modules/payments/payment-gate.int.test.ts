import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { MESSAGES, type TErrorBody, type TStudyAttachment } from '@radflow/core';
import { readFixture } from '../../../../../packages/dicom/src/test-fixtures.js';
import { reportStatuses } from '../../db/schema.js';
import { ingestInstance } from '../archive/ingest.js';
import { formBody } from '../../../test/archive/helpers.js';
import { type TestApp, type TestClient, createTestApp } from '../../../test/test-app.js';
import { createTestWorld, signedIn, signedInAt } from '../../../test/worklist-test-data.js';

/*
 * Security issue §2: payment before content, on the server. While a payment is due (spec-core §4
 * Viewer payment: share-info's paymentNotDone), a viewer account gets 402 'Payment needed' with the
 * standard error body from every call that answers study content — the report, the documents, the
 * study row, DICOMweb and WADO images, thumbnails, the viewer's own calls, zips, attachments and the
 * share page — and once the payment is recorded the same calls answer 200.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const FILES = ['ct/study_liver/ct_liver_01.dcm', 'ct/study_liver/ct_liver_02.dcm'];

interface TShared {
  id: number;
  study: string;
  series: string;
  sop: string;
  shareLink: string;
  filmPath: string;
}
let viewer: TestClient;
let center: TestClient;
let shared: TShared;

beforeAll(async () => {
  const world = await createTestWorld(t.db);
  const doctor = await signedIn(t, { roles: ['ROLE_DOCTOR'], groupId: world.group.id });
  center = (await signedInAt(t, world, ['ROLE_CENTER'])).browser;
  const viewerUser = await signedIn(t, { roles: ['ROLE_VIEWER'], groupId: world.group.id });
  viewer = viewerUser.browser;

  let ingested: {
    reportStatusId: number;
    studyInstanceUid: string;
    seriesInstanceUid: string;
    sopInstanceUid: string;
  } | null = null;
  for (const path of FILES) {
    const result = await ingestInstance(
      t.app.ctx,
      { bytes: readFixture(path) },
      { centerId: world.center.id, source: 'STOW' },
    );
    if (!result.ok) throw new Error(`${path}: ${result.reason}`);
    ingested = result;
  }
  if (!ingested) throw new Error('nothing ingested');
  const id = ingested.reportStatusId;
  await t.db
    .update(reportStatuses)
    .set({ assignedToUserId: doctor.user.id, studyName: 'CT LIVER', lastUploadCompletedAt: new Date() })
    .where(eq(reportStatuses.id, id));
  // The real lifecycle: the doctor signs off, the center shares with the viewer account and attaches a film.
  expect((await doctor.browser.post(`/api/report/lock/${id}`, {})).statusCode).toBe(200);
  const signed = await doctor.browser.post(`/api/report/save/${id}`, {
    name: 'CT Liver',
    content: '<p>Normal liver.</p>',
    signOff: true,
    baseVersion: null,
  });
  expect(signed.statusCode, signed.body).toBe(200);
  const share = await center.post(`/api/report-status/send-email/${id}`, { email: viewerUser.user.email });
  expect(share.statusCode, share.body).toBe(200);
  const film = formBody({}, [{ name: 'film.png', bytes: readPng() }]);
  const filmRes = await center.request({
    method: 'POST',
    url: `/api/film/upload/${id}`,
    payload: film.payload,
    headers: { 'content-type': film.contentType },
  });
  expect(filmRes.statusCode, filmRes.body).toBe(200);
  const [row] = await t.db.select().from(reportStatuses).where(eq(reportStatuses.id, id));
  shared = {
    id,
    study: ingested.studyInstanceUid,
    series: ingested.seriesInstanceUid,
    sop: ingested.sopInstanceUid,
    shareLink: row?.shareLink ?? '',
    filmPath: filmRes.json<TStudyAttachment>().path,
  };
  expect(shared.shareLink).not.toBe('');
});

/** A 1x1 PNG (a film attachment is an image). */
function readPng(): Buffer {
  return Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
    'base64',
  );
}

/** Every content call a viewer account makes (the viewer page, the documents, the share page). */
const CONTENT_CALLS: ReadonlyArray<[string, (b: TestClient) => ReturnType<TestClient['get']>]> = [
  ['GET /report/{id}', (b) => b.get(`/api/report/${shared.id}`)],
  ['GET /report-status/id/{id}', (b) => b.get(`/api/report-status/id/${shared.id}`)],
  ['GET /history/{id}', (b) => b.get(`/api/history/${shared.id}`)],
  [
    'POST /pdf/download',
    (b) => b.post('/api/pdf/download', { uid: shared.study, reportStatusId: shared.id }),
  ],
  ['POST /pdf/word', (b) => b.post('/api/pdf/word', { uid: shared.study, reportStatusId: shared.id })],
  ['GET /viewer/{id}/context', (b) => b.get(`/api/viewer/${shared.id}/context`)],
  [
    'GET /viewer/studies/{study}/first-image',
    (b) => b.get(`/api/viewer/studies/${shared.study}/first-image`),
  ],
  ['QIDO /dicomweb/studies', (b) => b.get(`/api/dicomweb/studies?StudyInstanceUID=${shared.study}`)],
  ['GET /dicomweb/studies/{study}/series', (b) => b.get(`/api/dicomweb/studies/${shared.study}/series`)],
  ['GET /dicomweb/studies/{study}/metadata', (b) => b.get(`/api/dicomweb/studies/${shared.study}/metadata`)],
  [
    'GET frames',
    (b) =>
      b.get(
        `/api/dicomweb/studies/${shared.study}/series/${shared.series}/instances/${shared.sop}/frames/1`,
        {
          accept: 'multipart/related; type=application/octet-stream; transfer-syntax=*',
        },
      ),
  ],
  [
    'GET rendered',
    (b) =>
      b.get(`/api/dicomweb/studies/${shared.study}/series/${shared.series}/instances/${shared.sop}/rendered`),
  ],
  ['GET study thumbnail', (b) => b.get(`/api/dicomweb/studies/${shared.study}/thumbnail`)],
  [
    'WADO-URI',
    (b) =>
      b.get(
        `/api/dicomweb/wado?requestType=WADO&studyUID=${shared.study}&seriesUID=${shared.series}&objectUID=${shared.sop}`,
      ),
  ],
  ['GET /attachments/{id}', (b) => b.get(`/api/attachments/${shared.id}`)],
  ['GET /film/download/{id}/{path}', (b) => b.get(`/api/film/download/${shared.id}/${shared.filmPath}`)],
  ['GET /films/get', (b) => b.get('/api/films/get')],
  ['GET /films/images/get/{name}', (b) => b.get(`/api/films/images/get/${shared.filmPath}`)],
  [
    'POST /batch/run ZIP_STUDY',
    (b) => b.post('/api/batch/run', { jobName: 'ZIP_STUDY', reportStatusId: shared.id }),
  ],
  ['GET /share/{link}', (b) => b.get(`/api/share/${shared.shareLink}`)],
  ['GET /share/{link}/report.pdf', (b) => b.get(`/api/share/${shared.shareLink}/report.pdf`)],
  ['GET /share/{link}/series', (b) => b.get(`/api/share/${shared.shareLink}/series`)],
];

describe('a viewer account with a payment due', () => {
  it('gets 402 Payment needed from every content call until the payment is recorded, then 200', async () => {
    for (const [name, call] of CONTENT_CALLS) {
      const res = await call(viewer);
      expect(res.statusCode, `before any payment is asked, ${name}: ${res.body.slice(0, 300)}`).toBe(200);
    }

    const requested = await center.post(`/api/report-status/payment/request/${shared.id}`, { amount: 500 });
    expect(requested.statusCode, requested.body).toBe(200);
    for (const [name, call] of CONTENT_CALLS) {
      const res = await call(viewer);
      expect(res.statusCode, `${name}: ${res.body.slice(0, 300)}`).toBe(402);
      expect(res.json<TErrorBody>()).toEqual({
        errorStatusCode: 402,
        errorDescription: MESSAGES.paymentNeeded,
        additionalInfo: null,
        txnId: expect.any(String),
      });
    }
    // The calls that tell it to pay, and its own account, still answer.
    for (const url of [
      '/api/customer-report/share-info',
      '/api/customer-report/payment-info',
      '/api/user/',
    ]) {
      expect((await viewer.get(url)).statusCode, url).toBe(200);
    }
    // Staff of the study are not held up by the viewer's payment.
    expect((await center.get(`/api/report/${shared.id}`)).statusCode).toBe(200);

    const recorded = await center.post(`/api/report-status/payment/record/${shared.id}`, {
      mode: 'CASH',
      transactionId: 'R-1',
    });
    expect(recorded.statusCode, recorded.body).toBe(200);
    for (const [name, call] of CONTENT_CALLS) {
      const res = await call(viewer);
      expect(res.statusCode, `after payment, ${name}: ${res.body.slice(0, 300)}`).toBe(200);
    }
  });
});
