import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { buildImage } from '../../../../../packages/dicom/src/test-builders.js';
import {
  COMPRESSED_ONLY_CASES,
  PHOTOMETRIC_CASES,
  type PhotometricCase,
} from '../../../../../packages/dicom/src/test-images.js';
import { ingestInstance } from '../archive/ingest.js';
import { apiTokenFor } from '../../../test/api-token.helpers.js';
import {
  type TestApp,
  createTestApp,
  createTestCenter,
  createTestGroup,
  createTestUser,
} from '../../../test/test-app.js';

/**
 * Issue 21 §2: the server's rendered frames and thumbnails of a generated image per photometric
 * interpretation and planar configuration native pixel data may carry (packages/dicom
 * `test-images.ts`) show its known pixels; the photometrics only compressed streams carry are
 * answered 406 naming them, never drawn.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

async function store(image: PhotometricCase['image']) {
  const built = buildImage(image);
  const group = await createTestGroup(t.db);
  const center = await createTestCenter(t.db, { groupId: group.id });
  const staff = await createTestUser(t.db, { groupId: group.id, roles: ['ROLE_ASSIGNOR'] });
  const token = await apiTokenFor(t, staff);
  const result = await ingestInstance(
    t.app.ctx,
    { bytes: built.bytes },
    { centerId: center.id, source: 'STOW' },
  );
  if (!result.ok) throw new Error(result.reason);
  const study = `/api/dicomweb/studies/${built.studyInstanceUid}`;
  const series = `${study}/series/${built.seriesInstanceUid}`;
  const get = (url: string) =>
    t.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}`, accept: 'image/png' } });
  return { get, study, series, instance: `${series}/instances/${built.sopInstanceUid}` };
}

/** A PNG answer's pixels as RGB triples. */
async function rgbOf(body: Buffer): Promise<Array<[number, number, number]>> {
  const { data, info } = await sharp(body)
    .removeAlpha()
    .toColourspace('srgb')
    .raw()
    .toBuffer({ resolveWithObject: true });
  const out: Array<[number, number, number]> = [];
  for (let i = 0; i < info.width * info.height; i++) {
    const at = i * info.channels;
    const r = data[at] as number;
    out.push(info.channels >= 3 ? [r, data[at + 1] as number, data[at + 2] as number] : [r, r, r]);
  }
  return out;
}

function expectPixels(
  got: Array<[number, number, number]>,
  expected: Array<[number, number, number]>,
  tolerance: number,
) {
  expect(got).toHaveLength(expected.length);
  got.forEach((pixel, i) =>
    pixel.forEach((v, c) =>
      expect(
        Math.abs(v - expected[i]![c]!),
        `pixel ${i} channel ${c}: ${v} vs ${expected[i]![c]}`,
      ).toBeLessThanOrEqual(tolerance),
    ),
  );
}

describe('rendered frames and thumbnails of generated images with known pixels', () => {
  it.each(PHOTOMETRIC_CASES.map((c) => [c.name, c] as const))('%s', async (_, testCase) => {
    const { get, instance, series, study } = await store(testCase.image);
    for (const url of [
      `${instance}/rendered`,
      `${instance}/frames/1/rendered`,
      `${instance}/thumbnail`,
      `${series}/thumbnail`,
      `${study}/thumbnail`,
    ]) {
      const res = await get(url);
      expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
      expect(res.headers['content-type']).toBe('image/png');
      expectPixels(await rgbOf(res.rawPayload), testCase.display, testCase.tolerance);
    }
    // Later frames of a multi-frame image are their own pixels (1-bit frames are not byte aligned).
    for (const [index, values] of testCase.decoded.entries()) {
      if (index === 0) continue;
      const res = await get(`${instance}/frames/${index + 1}/rendered`);
      expect(res.statusCode, res.body).toBe(200);
      expectPixels(
        await rgbOf(res.rawPayload),
        values.map((v) => [v * 255, v * 255, v * 255]),
        0,
      );
    }
  });

  it.each(COMPRESSED_ONLY_CASES.map((c) => [c.photometricInterpretation, c] as const))(
    'a native %s image is answered 406 naming it, never drawn',
    async (photometric, image) => {
      const { get, instance } = await store(image);
      for (const url of [`${instance}/rendered`, `${instance}/thumbnail`]) {
        const res = await get(url);
        expect(res.statusCode, url).toBe(406);
        expect(res.body).toContain(photometric);
      }
    },
  );
});
