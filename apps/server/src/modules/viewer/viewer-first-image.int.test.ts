import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compareSeriesForDisplay, compareStackInstances } from '@radflow/core';
import { readFixture } from '../../../../../packages/dicom/src/test-fixtures.js';
import { ingestInstance } from '../archive/ingest.js';
import { type TestApp, TestClient, createTestApp, createTestCenter } from '../../../test/test-app.js';
import { parseMultipart } from '../../../test/wado-multipart.js';
import { createTestWorld, signedInAt } from '../../../test/worklist-test-data.js';

/**
 * The viewer's first image in one request (issue 5 §5): the series, slice, metadata and frame the
 * viewer would reach through three DICOMweb reads one after the other — and the same access rule.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

type TDataset = Record<string, { vr: string; Value?: unknown[] }>;
const value = (dataset: TDataset, tag: string) => dataset[tag]?.Value?.[0];
const FRAME_ACCEPT = 'multipart/related; type=application/octet-stream; transfer-syntax=*';

async function ingest(centerId: number, files: readonly string[]): Promise<string> {
  let study = '';
  for (const path of files) {
    const result = await ingestInstance(
      t.app.ctx,
      { bytes: readFixture(path) },
      { centerId, source: 'STOW' },
    );
    if (!result.ok) throw new Error(`${path}: ${result.reason}`);
    study = result.studyInstanceUid;
  }
  return study;
}

/** What the browser reaches through DICOMweb: series list → first series' stack → its first frame. */
async function throughDicomweb(browser: TestClient, study: string) {
  const root = `/api/dicomweb/studies/${study}`;
  const seriesList = (await browser.get(`${root}/series`)).json<TDataset[]>();
  const first = seriesList
    .map((s) => ({
      dataset: s,
      seriesNumber: (value(s, '00200011') as number | undefined) ?? null,
      seriesInstanceUid: value(s, '0020000E') as string,
    }))
    .sort(compareSeriesForDisplay)[0]!;
  const metadata = (await browser.get(`${root}/series/${first.seriesInstanceUid}/metadata`)).json<
    TDataset[]
  >();
  const stack = metadata
    .filter((m) => m['7FE00010'] || m['7FE00008'] || m['7FE00009'])
    .map((m) => ({
      metadata: m,
      instanceNumber: (value(m, '00200013') as number | undefined) ?? null,
      sopInstanceUid: value(m, '00080018') as string,
      frames: Math.max(1, (value(m, '00280008') as number | undefined) ?? 1),
    }))
    .sort(compareStackInstances);
  const top = stack[0]!;
  const frame = await browser.get(
    `${root}/series/${first.seriesInstanceUid}/instances/${top.sopInstanceUid}/frames/1`,
    { accept: FRAME_ACCEPT },
  );
  expect(frame.statusCode, frame.body).toBe(200);
  const [part] = parseMultipart(frame.rawPayload, String(frame.headers['content-type']));
  return {
    series: first.dataset,
    sopInstanceUid: top.sopInstanceUid,
    metadata: top.metadata,
    stackFrames: stack.reduce((n, i) => n + i.frames, 0),
    frame: part!,
  };
}

async function firstImage(browser: TestClient, study: string) {
  const res = await browser.get(`/api/viewer/studies/${study}/first-image`);
  expect(res.statusCode, res.body).toBe(200);
  const parts = parseMultipart(res.rawPayload, String(res.headers['content-type']));
  expect(parts).toHaveLength(2);
  expect(parts[0]!.headers['content-type']).toBe('application/json');
  return { descriptor: JSON.parse(parts[0]!.body.toString('utf8')), frame: parts[1]! };
}

describe('GET /api/viewer/studies/:study/first-image', () => {
  it.each([
    [
      'a CT study with a segmentation series',
      [
        'ct/study_liver/seg_liver_3frames.dcm',
        'ct/study_liver/ct_liver_03.dcm',
        'ct/study_liver/ct_liver_01.dcm',
        'ct/study_liver/ct_liver_02.dcm',
      ],
    ],
    [
      'MR slices sent out of order',
      [
        'mr/series_ge_4slices/IM-0001-0115-0001.dcm',
        'mr/series_ge_4slices/IM-0001-0113-0001.dcm',
        'mr/series_ge_4slices/IM-0001-0112-0001.dcm',
        'mr/series_ge_4slices/IM-0001-0114-0001.dcm',
      ],
    ],
    ['a big-endian MR (its 16-bit frame swapped as WADO-RS swaps it)', ['mr/mr_small_64x64_explicit_be.dcm']],
    ['a JPEG baseline multi-frame XA', ['nm_pt_xa/xa_96frames_jpeg_baseline.dcm']],
  ])('answers what three DICOMweb reads reach: %s', async (_name, files) => {
    const w = await createTestWorld(t.db);
    const study = await ingest(w.center.id, files);
    const { browser } = await signedInAt(t, w, ['ROLE_DOCTOR']);

    const expected = await throughDicomweb(browser, study);
    const { descriptor, frame } = await firstImage(browser, study);
    expect(descriptor).toEqual({
      series: expected.series,
      sopInstanceUid: expected.sopInstanceUid,
      frameNumber: 1,
      stackFrames: expected.stackFrames,
      metadata: expected.metadata,
    });
    expect(frame.headers['content-type']).toBe(expected.frame.headers['content-type']);
    expect(Buffer.compare(frame.body, expected.frame.body)).toBe(0);
  });

  it('is 404 for a study the caller may not see, and for one without an image', async () => {
    const w = await createTestWorld(t.db);
    const study = await ingest(w.center.id, ['mr/series_ge_4slices/IM-0001-0112-0001.dcm']);
    const other = await createTestCenter(t.db, { groupId: w.group.id });
    const { browser: elsewhere } = await signedInAt(t, { group: w.group, center: other }, ['ROLE_CENTER']);
    const refused = await elsewhere.get(`/api/viewer/studies/${study}/first-image`);
    expect(refused.statusCode).toBe(404);
    expect(refused.body).not.toContain('1.2.840');

    const anonymous = await new TestClient(t.app).get(`/api/viewer/studies/${study}/first-image`);
    expect(anonymous.statusCode).toBe(401);

    const waveformOnly = await ingest(w.center.id, ['special/ecg_12lead_waveform.dcm']);
    const { browser } = await signedInAt(t, w, ['ROLE_DOCTOR']);
    const none = await browser.get(`/api/viewer/studies/${waveformOnly}/first-image`);
    expect(none.statusCode).toBe(404);
    expect(none.json()).toMatchObject({ errorDescription: 'Image not found' });
  });
});
