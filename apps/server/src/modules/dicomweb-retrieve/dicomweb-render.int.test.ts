import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { isValidOutcome, manifest, readFixture } from '../../../../../packages/dicom/src/test-fixtures.js';
import { apiTokenFor } from '../../../test/api-token.helpers.js';
import { ingestInstance } from '../archive/ingest.js';
import {
  type TestApp,
  createTestApp,
  createTestCenter,
  createTestGroup,
  createTestUser,
} from '../../../test/test-app.js';

/**
 * Issue 3 §4: rendered images and thumbnails of every valid file of the corpus, whatever its
 * transfer syntax (the server decodes JPEG, JPEG-LS, JPEG 2000, RLE, deflate, big endian itself),
 * for the worklist, the viewer's series thumbnails and external DICOMweb clients.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

/** One group per file: several corpus files share a SOP Instance UID. */
async function load(path: string, bytes = readFixture(path)) {
  const group = await createTestGroup(t.db);
  const center = await createTestCenter(t.db, { groupId: group.id });
  const staff = await createTestUser(t.db, { groupId: group.id, roles: ['ROLE_ASSIGNOR'] });
  const token = await apiTokenFor(t, staff);
  const result = await ingestInstance(t.app.ctx, { bytes }, { centerId: center.id, source: 'STOW' });
  if (!result.ok) throw new Error(`${path}: ${result.reason}`);
  const get = (url: string, accept?: string) =>
    t.app.inject({
      method: 'GET',
      url,
      headers: { authorization: `Bearer ${token}`, ...(accept ? { accept } : {}) },
    });
  const study = result.studyInstanceUid;
  const series = result.seriesInstanceUid;
  const sop = result.sopInstanceUid;
  return {
    get,
    study,
    series,
    sop,
    base: `/api/dicomweb/studies/${study}/series/${series}/instances/${sop}`,
  };
}

/** Decodes an answer with sharp: its size, and whether it is more than one flat colour. */
async function inspect(body: Buffer) {
  const image = sharp(body);
  const [meta, stats] = await Promise.all([image.metadata(), image.stats()]);
  const spread = Math.max(...stats.channels.map((c) => c.max - c.min));
  return { width: meta.width, height: meta.height, format: meta.format, spread };
}

const imageFiles = manifest.files.filter(
  (f) => isValidOutcome(f.expected) && f.has_pixel_data && f.frames > 0 && f.rows !== null,
);

describe('Rendered frames and thumbnails of every valid corpus image', () => {
  it('covers every transfer syntax the corpus has', () => {
    const syntaxes = new Set(imageFiles.map((f) => f.transfer_syntax_uid));
    for (const uid of [
      '1.2.840.10008.1.2.2',
      '1.2.840.10008.1.2.1.99',
      '1.2.840.10008.1.2.4.50',
      '1.2.840.10008.1.2.4.51',
      '1.2.840.10008.1.2.4.57',
      '1.2.840.10008.1.2.4.70',
      '1.2.840.10008.1.2.4.80',
      '1.2.840.10008.1.2.4.81',
      '1.2.840.10008.1.2.4.90',
      '1.2.840.10008.1.2.4.91',
      '1.2.840.10008.1.2.5',
    ])
      expect(syntaxes, uid).toContain(uid);
  });

  it.each(imageFiles.map((f) => [f.path, f] as const))('%s', async (path, file) => {
    const a = await load(path);
    const rendered = await a.get(`${a.base}/rendered`);
    expect(rendered.statusCode, rendered.body.slice(0, 300)).toBe(200);
    expect(rendered.headers['content-type']).toBe('image/jpeg');
    const image = await inspect(rendered.rawPayload);
    expect(image).toMatchObject({ width: file.columns, height: file.rows, format: 'jpeg' });
    expect(image.spread, 'a flat image').toBeGreaterThan(0);

    // The last frame of a multi-frame image, as PNG.
    const last = await a.get(`${a.base}/frames/${file.frames}/rendered`, 'image/png');
    expect(last.statusCode, last.body.slice(0, 300)).toBe(200);
    expect((await inspect(last.rawPayload)).format).toBe('png');

    const thumbnail = await a.get(`${a.base}/thumbnail`);
    expect(thumbnail.statusCode, thumbnail.body.slice(0, 300)).toBe(200);
    const thumb = await inspect(thumbnail.rawPayload);
    expect(Math.max(thumb.width ?? 0, thumb.height ?? 0)).toBeLessThanOrEqual(256);
    expect(thumb.spread, 'a flat thumbnail').toBeGreaterThan(0);
  });
});

describe('Thumbnails and WADO-URI of compressed studies', () => {
  it('answers study and series thumbnails of JPEG 2000, JPEG-LS and RLE studies', async () => {
    for (const path of [
      'cr_dx/cr_rg3_jpeg2000_lossy_1760x1760.dcm',
      'transfer_syntax/ct_jpegls_lossless.dcm',
      'us/us_palette_color_2frames_rle.dcm',
    ]) {
      const a = await load(path);
      for (const url of [
        `/api/dicomweb/studies/${a.study}/thumbnail`,
        `/api/dicomweb/studies/${a.study}/series/${a.series}/thumbnail`,
      ]) {
        const res = await a.get(url);
        expect(res.statusCode, `${path} ${url}`).toBe(200);
        expect((await inspect(res.rawPayload)).spread, path).toBeGreaterThan(0);
      }
    }
  });

  it('renders a JPEG 2000 image through WADO-URI as JPEG and PNG', async () => {
    const a = await load('transfer_syntax/ct_jpeg2000_lossless.dcm');
    const uri = `/api/dicomweb/wado?requestType=WADO&studyUID=${a.study}&seriesUID=${a.series}&objectUID=${a.sop}`;
    const jpeg = await a.get(`${uri}&contentType=image%2Fjpeg`);
    expect(jpeg.statusCode, jpeg.body.slice(0, 300)).toBe(200);
    expect(await inspect(jpeg.rawPayload)).toMatchObject({ width: 512, height: 512, format: 'jpeg' });
    const png = await a.get(`${uri}&contentType=image%2Fpng`);
    expect(png.headers['content-type']).toBe('image/png');
  });

  it('renders the JPEG 2000 CT like its uncompressed twin', async () => {
    const compressed = await load('transfer_syntax/ct_jpeg2000_lossless.dcm');
    const twin = await load('transfer_syntax/ct_explicit_vr_le.dcm');
    const [a, b] = await Promise.all(
      [compressed, twin].map(async (x) => (await x.get(`${x.base}/rendered`, 'image/png')).rawPayload),
    );
    const [pa, pb] = await Promise.all([a, b].map((png) => sharp(png).raw().toBuffer()));
    expect(pa?.equals(pb as Buffer)).toBe(true);
  });
});

describe('What the server cannot render', () => {
  /** The file with its file-meta Transfer Syntax UID replaced by another of the same length. */
  function relabel(path: string, from: string, to: string): Uint8Array {
    const bytes = readFixture(path);
    const text = Buffer.from(bytes).toString('latin1');
    const at = text.indexOf(from);
    expect(at).toBeGreaterThan(0);
    expect(at).toBeLessThan(400); // in the file meta
    const out = Buffer.from(bytes);
    out.write(to, at, 'latin1');
    return new Uint8Array(out);
  }

  it('answers 406 naming a syntax without a decoder, and 406 (not 500) for frames that do not decode', async () => {
    const path = 'transfer_syntax/ct_jpeg_baseline_process1.dcm';
    const part2 = await load(path, relabel(path, '1.2.840.10008.1.2.4.50', '1.2.840.10008.1.2.4.92'));
    const refused = await part2.get(`${part2.base}/rendered`);
    expect(refused.statusCode).toBe(406);
    expect(refused.json().errorDescription).toContain('JPEG 2000 Part 2 Multi-component');
    expect((await part2.get(`${part2.base}/thumbnail`)).statusCode).toBe(406);

    const mislabelled = await load(path, relabel(path, '1.2.840.10008.1.2.4.50', '1.2.840.10008.1.2.4.80'));
    const broken = await mislabelled.get(`${mislabelled.base}/rendered`);
    expect(broken.statusCode).toBe(406);
    expect(broken.json().errorDescription).toContain(
      'JPEG-LS Lossless Image Compression frame 1 does not decode',
    );
  });

  it('answers 406 for instances without pixels, and invalid files stay refused at ingest', async () => {
    const ecg = await load('special/ecg_12lead_waveform.dcm');
    expect((await ecg.get(`${ecg.base}/rendered`)).statusCode).toBe(406);
    const group = await createTestGroup(t.db);
    const center = await createTestCenter(t.db, { groupId: group.id });
    for (const file of manifest.files.filter((f) => f.expected === 'invalid')) {
      const result = await ingestInstance(
        t.app.ctx,
        { bytes: readFixture(file.path) },
        { centerId: center.id, source: 'STOW' },
      );
      expect(result.ok, file.path).toBe(false);
    }
  });
});

/**
 * Issue 29 §4: the light viewer asks for frames rendered with a window preset and fitted to the
 * phone's screen: PS3.18 §8.3.5.1 `window=center,width[,function]` and `viewport=vw,vh`.
 */
describe('Rendered frames with window and viewport', () => {
  const CT = 'ct/ct_small_128x128_explicit_le.dcm';
  const stats = async (body: Buffer) => {
    const s = await sharp(body).stats();
    return { min: s.channels[0]?.min, max: s.channels[0]?.max };
  };

  it('applies the window: far below the pixels all white, far above all black, a preset in between', async () => {
    const a = await load(CT);
    const png = 'image/png';
    const white = await a.get(`${a.base}/rendered?window=-100000,2`, png);
    expect(white.statusCode, white.body).toBe(200);
    expect(await stats(white.rawPayload)).toEqual({ min: 255, max: 255 });
    const black = await a.get(`${a.base}/frames/1/rendered?window=100000,2,LINEAR`, png);
    expect(await stats(black.rawPayload)).toEqual({ min: 0, max: 0 });
    const soft = await a.get(`${a.base}/rendered?window=40,400`, png);
    const lung = await a.get(`${a.base}/rendered?window=-600,1500`, png);
    expect(soft.statusCode).toBe(200);
    expect(soft.rawPayload.equals(lung.rawPayload)).toBe(false);
    const sigmoid = await a.get(`${a.base}/rendered?window=40,400,sigmoid`, png);
    expect(sigmoid.statusCode).toBe(200);
    expect(sigmoid.rawPayload.equals(soft.rawPayload)).toBe(false);
  });

  it('fits the image inside the viewport, never enlarging it', async () => {
    const a = await load(CT);
    const small = await inspect((await a.get(`${a.base}/rendered?viewport=64,48`)).rawPayload);
    expect([small.width, small.height]).toEqual([48, 48]);
    const large = await inspect((await a.get(`${a.base}/frames/1/rendered?viewport=1000,1000`)).rawPayload);
    expect([large.width, large.height]).toEqual([128, 128]);
  });

  it('answers 400 naming a window or viewport it cannot read', async () => {
    const a = await load(CT);
    for (const query of [
      'window=abc',
      'window=40',
      'window=40,0',
      'window=40,400,cubic',
      'viewport=0,10',
      'viewport=10',
      'viewport=99999,10',
    ]) {
      const res = await a.get(`${a.base}/rendered?${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(res.body, query).toMatch(query.startsWith('window') ? /window/ : /viewport/);
    }
  });

  it('keeps the study access rule: another center of the group and another group get 404', async () => {
    const group = await createTestGroup(t.db);
    const centerA = await createTestCenter(t.db, { groupId: group.id });
    const centerB = await createTestCenter(t.db, { groupId: group.id });
    const result = await ingestInstance(
      t.app.ctx,
      { bytes: readFixture(CT) },
      { centerId: centerA.id, source: 'STOW' },
    );
    if (!result.ok) throw new Error(result.reason);
    const url = `/api/dicomweb/studies/${result.studyInstanceUid}/series/${result.seriesInstanceUid}/instances/${result.sopInstanceUid}/frames/1/rendered?window=40,400&viewport=64,64`;
    const other = await createTestGroup(t.db);
    const asUser = async (user: Parameters<typeof apiTokenFor>[1]) =>
      t.app.inject({
        method: 'GET',
        url,
        headers: { authorization: `Bearer ${await apiTokenFor(t, user)}` },
      });
    const own = await createTestUser(t.db, {
      groupId: group.id,
      centerId: centerA.id,
      roles: ['ROLE_CENTER'],
    });
    expect((await asUser(own)).statusCode).toBe(200);
    for (const outsider of [
      await createTestUser(t.db, { groupId: group.id, centerId: centerB.id, roles: ['ROLE_CENTER'] }),
      await createTestUser(t.db, { groupId: other.id, roles: ['ROLE_ADMIN'] }),
    ]) {
      expect((await asUser(outsider)).statusCode, outsider.roles.join()).toBe(404);
    }
    expect((await t.app.inject({ method: 'GET', url })).statusCode).toBe(401);
  });
});
