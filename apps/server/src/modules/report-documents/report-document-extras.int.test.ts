import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { REPORT_LEFT_OUT_HEADER, type TReportDocumentExtras } from '@radflow/core';
import { eq } from 'drizzle-orm';
import { reportStatuses, studies } from '../../db/schema.js';
import { reportingCalls, saved } from '../../../test/reporting.fixtures.js';
import { postForm } from '../../../test/setting-assets.helpers.js';
import { studyActionFixtures } from '../../../test/study-actions.fixtures.js';
import { type TestApp, type TestClient, createTestApp } from '../../../test/test-app.js';

/*
 * issue 21 §7: 'PDF with header', 'with images' and 'with header and images' gave the plain PDF
 * without a word when no letterhead or key images existed. The menu reads what the row's documents
 * can hold first (GET /api/pdf/extras/{id}); a document asked for with them still comes (Print,
 * Word, the share page and older callers keep working) and names what it left out in a header.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const { createWorld, createStudy, signIn } = studyActionFixtures(() => t);
const { lock, signOff } = reportingCalls(() => t);

const png = () =>
  sharp({ create: { width: 400, height: 60, channels: 3, background: { r: 20, g: 60, b: 160 } } })
    .png()
    .toBuffer();

async function signedOff() {
  const world = await createWorld();
  const row = await createStudy(world, { status: 'HISTORY_CREATED', studyName: 'CT PNS' });
  const { browser: doctor } = await signIn(world, ['ROLE_DOCTOR']);
  saved(await lock(doctor, row.id));
  saved(await signOff(doctor, row.id, { content: '<p>Normal sinuses.</p>' }));
  const { browser: center } = await signIn(world, ['ROLE_CENTER']);
  const [study] = await t.db
    .select({ uid: studies.studyInstanceUid })
    .from(reportStatuses)
    .innerJoin(studies, eq(studies.id, reportStatuses.studyId))
    .where(eq(reportStatuses.id, row.id));
  return { world, row, doctor, center, uid: study?.uid ?? '' };
}

const extrasOf = async (browser: TestClient, id: number) => {
  const res = await browser.get(`/api/pdf/extras/${id}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<TReportDocumentExtras>();
};

describe('what a document can hold, said before and after (issue 21 §7)', () => {
  it('answers no letterhead and no key images, then each once it is set', async () => {
    const { row, doctor, center } = await signedOff();
    expect(await extrasOf(center, row.id)).toEqual({ letterhead: false, keyImages: 0 });

    const layout = await postForm(
      center,
      '/api/center-setting/update/',
      { pdf_margin_top: '3', pdf_margin_bottom: '2', pdf_margin_left: '2', pdf_margin_right: '2' },
      [{ field: 'header', bytes: await png() }],
    );
    expect(layout.statusCode, layout.body).toBe(200);
    const marked = await doctor.post(`/api/viewer/${row.id}/key-images`, {
      seriesInstanceUid: '1.2.3.4',
      sopInstanceUid: '1.2.3.4.5',
      frameNumber: 1,
    });
    expect(marked.statusCode, marked.body).toBe(200);

    expect(await extrasOf(center, row.id)).toEqual({ letterhead: true, keyImages: 1 });
    // Who sees the row reads it (the doctor too); a row out of sight is 404 like every study call.
    expect(await extrasOf(doctor, row.id)).toEqual({ letterhead: true, keyImages: 1 });
    const stranger = await signIn(await createWorld(), ['ROLE_CENTER']);
    expect((await stranger.browser.get(`/api/pdf/extras/${row.id}`)).statusCode).toBe(404);
  });

  it('still gives the document asked with header and images, naming what it left out', async () => {
    const { row, center, uid } = await signedOff();
    const withBoth = await center.post('/api/pdf/download-images', {
      uid,
      reportStatusId: row.id,
      showTemplate: true,
    });
    expect(withBoth.statusCode, withBoth.body.slice(0, 200)).toBe(200);
    expect(withBoth.headers[REPORT_LEFT_OUT_HEADER]).toBe('LETTERHEAD, KEY_IMAGES');

    const plain = await center.post('/api/pdf/download', {
      uid,
      reportStatusId: row.id,
      showTemplate: false,
    });
    expect(plain.statusCode).toBe(200);
    // Nothing asked, nothing left out.
    expect(plain.headers[REPORT_LEFT_OUT_HEADER]).toBeUndefined();
  });
});
