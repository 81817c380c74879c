import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { canUseApiToken, isRole } from '@radflow/core';
import { extractFrames, parseInstance } from '@radflow/dicom';
import { readFixture } from '../../../../../packages/dicom/src/test-fixtures.js';
import { apiTokenFor } from '../../../test/api-token.helpers.js';
import type { TUserRow } from '../../db/schema.js';
import { ingestInstance } from '../archive/ingest.js';
import type { TestClient } from '../../../test/test-app.js';
import {
  type TestApp,
  createTestApp,
  createTestCenter,
  createTestGroup,
  createTestUser,
  signInAs,
} from '../../../test/test-app.js';
import { parseMultipart, sha256 } from '../../../test/wado-multipart.js';

/**
 * The story of issue 3 §4: a center's modality sends studies; group staff and the center find them
 * with QIDO-RS and read them back with WADO-RS and WADO-URI exactly as sent; nobody else learns
 * they exist.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const DICOM_JSON = 'application/dicom+json';
type TDataset = Record<string, { vr: string; Value?: unknown[]; BulkDataURI?: string }>;

/** A DICOMweb client with an API token (or a signed-in browser when `browser` is given). */
class Caller {
  constructor(
    private readonly token: string | null,
    private readonly browser: TestClient | null = null,
  ) {}

  get(url: string, headers: Record<string, string> = {}) {
    if (this.browser) return this.browser.get(url, headers);
    return t.app.inject({
      method: 'GET',
      url,
      headers: { ...(this.token ? { authorization: `Bearer ${this.token}` } : {}), ...headers },
    });
  }

  async json(url: string): Promise<TDataset[]> {
    const res = await this.get(url);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toContain(DICOM_JSON);
    return res.json();
  }
}

const value = (dataset: TDataset | undefined, tag: string) => dataset?.[tag]?.Value?.[0];
const uidsOf = (datasets: TDataset[], tag: string) => datasets.map((d) => value(d, tag));

async function callerFor(user: TUserRow) {
  return new Caller(await apiTokenFor(t, user));
}

/** A group with two centers and its people; files are ingested for center A. */
async function createArchive(files: readonly string[]) {
  const group = await createTestGroup(t.db);
  const centerA = await createTestCenter(t.db, { groupId: group.id });
  const centerB = await createTestCenter(t.db, { groupId: group.id });
  const staff = await createTestUser(t.db, { groupId: group.id, roles: ['ROLE_ASSIGNOR'] });
  const loaded = new Map<string, { study: string; series: string; sop: string; bytes: Uint8Array }>();
  for (const path of files) {
    const bytes = readFixture(path);
    const result = await ingestInstance(t.app.ctx, { bytes }, { centerId: centerA.id, source: 'STOW' });
    if (!result.ok) throw new Error(`${path}: ${result.reason}`);
    loaded.set(path, {
      study: result.studyInstanceUid,
      series: result.seriesInstanceUid,
      sop: result.sopInstanceUid,
      bytes,
    });
  }
  const file = (path: string) => {
    const found = loaded.get(path);
    if (!found) throw new Error(`${path} not loaded`);
    return found;
  };
  const urlOf = (path: string) => {
    const f = file(path);
    return `/api/dicomweb/studies/${f.study}/series/${f.series}/instances/${f.sop}`;
  };
  return { group, centerA, centerB, staff: await callerFor(staff), file, urlOf };
}

const LIVER = [
  'ct/study_liver/ct_liver_01.dcm',
  'ct/study_liver/ct_liver_02.dcm',
  'ct/study_liver/ct_liver_03.dcm',
  'ct/study_liver/seg_liver_3frames.dcm',
];
const MR4 = [
  'mr/series_ge_4slices/IM-0001-0112-0001.dcm',
  'mr/series_ge_4slices/IM-0001-0113-0001.dcm',
  'mr/series_ge_4slices/IM-0001-0114-0001.dcm',
  'mr/series_ge_4slices/IM-0001-0115-0001.dcm',
];
const XA = 'nm_pt_xa/xa_96frames_jpeg_baseline.dcm';
const US30 = 'us/us_multiframe_30f_ybr_full_422_jpeg_baseline.dcm';
const ENHANCED_CT = 'ct/enhanced_ct_2frames_jpeg_lossless_sv1_fragmented_no_bot.dcm';
const CT_SMALL = 'ct/ct_small_128x128_explicit_le.dcm';
const FRENCH = 'charset/latin1_iso_ir_100_french.dcm';
const CHINESE = 'charset/utf8_iso_ir_192_chinese.dcm';
const ECG = 'special/ecg_12lead_waveform.dcm';
const DX_MONO1 = 'cr_dx/dx_fujifilm_for_presentation.dcm';
const US_RGB = 'us/us_rgb_640x480_explicit_le.dcm';
const PALETTE = 'special/no_preamble_ot_palette_implicit.dcm';
const SEGMENTED_PALETTE = 'us/us_palette_color_16bit_lut_implicit_le.dcm';
const CORPUS = [
  ...LIVER,
  ...MR4,
  XA,
  US30,
  ENHANCED_CT,
  CT_SMALL,
  FRENCH,
  CHINESE,
  ECG,
  DX_MONO1,
  US_RGB,
  PALETTE,
  SEGMENTED_PALETTE,
];

describe('DICOMweb for a group: QIDO-RS', () => {
  let a: Awaited<ReturnType<typeof createArchive>>;
  let all: TDataset[];
  beforeAll(async () => {
    a = await createArchive(CORPUS);
    all = await a.staff.json('/api/dicomweb/studies');
  });

  it('lists every study of the group once, newest study date first, with the study attributes', () => {
    const studyUids = new Set(CORPUS.map((p) => a.file(p).study));
    expect(new Set(uidsOf(all, '0020000D'))).toEqual(studyUids);
    expect(all).toHaveLength(studyUids.size);
    const dates = all.map((d) => String(value(d, '00080020') ?? ''));
    expect(dates).toEqual([...dates].sort().reverse());
    const liver = all.find((d) => value(d, '0020000D') === a.file(LIVER[0] as string).study);
    expect(liver?.['00201206']?.Value).toEqual([2]);
    expect(liver?.['00201208']?.Value).toEqual([4]);
    expect(liver?.['00080061']?.Value).toEqual(['CT', 'SEG']);
    expect(value(liver, '00100010')).toEqual({ Alphabetic: 'JANCT000' });
    expect(String(value(liver, '00081190'))).toMatch(
      new RegExp(`^http://localhost(:\\d+)?/api/dicomweb/studies/${a.file(LIVER[0] as string).study}$`),
    );
  });

  it('matches PatientName case-insensitively with * and ? wildcards, and the alphabetic group exactly', async () => {
    const liverStudy = a.file(LIVER[0] as string).study;
    expect(uidsOf(await a.staff.json('/api/dicomweb/studies?PatientName=janct*'), '0020000D')).toEqual([
      liverStudy,
    ]);
    expect(uidsOf(await a.staff.json('/api/dicomweb/studies?PatientName=JANCT00%3F'), '0020000D')).toEqual([
      liverStudy,
    ]);
    expect(uidsOf(await a.staff.json('/api/dicomweb/studies?00100010=*jér*'), '0020000D')).toEqual([
      a.file(FRENCH).study,
    ]);
    // 'Wang^XiaoDong=王^小東': the alphabetic group alone matches.
    expect(uidsOf(await a.staff.json('/api/dicomweb/studies?PatientName=wang^xiaodong'), '0020000D')).toEqual(
      [a.file(CHINESE).study],
    );
    expect(await a.staff.json('/api/dicomweb/studies?PatientName=JANCT')).toEqual([]);
  });

  it('matches PatientID, AccessionNumber, StudyInstanceUID lists and ModalitiesInStudy', async () => {
    const liver = all.find((d) => value(d, '0020000D') === a.file(LIVER[0] as string).study) as TDataset;
    const patientId = String(value(liver, '00100020'));
    const byId = await a.staff.json(`/api/dicomweb/studies?PatientID=${encodeURIComponent(patientId)}`);
    expect(byId.every((d) => value(d, '00100020') === patientId)).toBe(true);
    expect(uidsOf(byId, '0020000D')).toContain(liver['0020000D']?.Value?.[0]);

    const withAccession = all.find((d) => value(d, '00080050')) as TDataset;
    const accession = String(value(withAccession, '00080050'));
    const byAccession = await a.staff.json(`/api/dicomweb/studies?00080050=${encodeURIComponent(accession)}`);
    expect(byAccession.map((d) => value(d, '00080050'))).toEqual(byAccession.map(() => accession));
    expect(byAccession.length).toBeGreaterThan(0);

    const two = [a.file(XA).study, a.file(US30).study];
    const byUids = await a.staff.json(`/api/dicomweb/studies?StudyInstanceUID=${two.join(',')}`);
    expect(new Set(uidsOf(byUids, '0020000D'))).toEqual(new Set(two));

    const seg = await a.staff.json('/api/dicomweb/studies?ModalitiesInStudy=SEG');
    expect(uidsOf(seg, '0020000D')).toEqual([a.file(LIVER[0] as string).study]);
    const xaOrUs = await a.staff.json('/api/dicomweb/studies?ModalitiesInStudy=XA,US');
    expect(new Set(uidsOf(xaOrUs, '0020000D'))).toEqual(
      new Set([a.file(XA).study, a.file(US30).study, a.file(US_RGB).study, a.file(SEGMENTED_PALETTE).study]),
    );
  });

  it('matches StudyDate on a day and on ranges with open ends, and refuses a malformed date', async () => {
    const dated = all.map((d) => String(value(d, '00080020') ?? '')).filter(Boolean);
    const day = dated[Math.floor(dated.length / 2)] as string;
    const countWhere = (f: (d: string) => boolean) => dated.filter(f).length;
    expect(await a.staff.json(`/api/dicomweb/studies?StudyDate=${day}`)).toHaveLength(
      countWhere((d) => d === day),
    );
    expect(await a.staff.json(`/api/dicomweb/studies?StudyDate=${day}-`)).toHaveLength(
      countWhere((d) => d >= day),
    );
    expect(await a.staff.json(`/api/dicomweb/studies?StudyDate=-${day}`)).toHaveLength(
      countWhere((d) => d <= day),
    );
    expect(await a.staff.json(`/api/dicomweb/studies?StudyDate=19000101-${day}`)).toHaveLength(
      countWhere((d) => d <= day),
    );
    const bad = await a.staff.get('/api/dicomweb/studies?StudyDate=2024-01-01');
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ errorStatusCode: 400, additionalInfo: 'StudyDate' });
    expect(bad.json().errorDescription).toContain('StudyDate');
  });

  it('pages with limit and offset, refuses a limit that is not a number, and ignores unknown keys with a warning', async () => {
    const page = await a.staff.json('/api/dicomweb/studies?limit=2&offset=1');
    expect(uidsOf(page, '0020000D')).toEqual(uidsOf(all.slice(1, 3), '0020000D'));
    const bad = await a.staff.get('/api/dicomweb/studies?limit=ten');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errorDescription).toContain('limit');
    const ignored = await a.staff.get('/api/dicomweb/studies?fuzzymatching=true&SliceThickness=5&limit=1');
    expect(ignored.statusCode).toBe(200);
    expect(ignored.headers.warning).toContain('SliceThickness');
  });

  it('adds includefield attributes from the stored metadata, and refuses an unknown keyword', async () => {
    const [study] = await a.staff.json(
      `/api/dicomweb/studies?StudyInstanceUID=${a.file(CT_SMALL).study}&includefield=00080070,StudyID`,
    );
    expect(study?.['00080070']).toBeDefined(); // Manufacturer, from an instance
    const [instance] = await a.staff.json(
      `/api/dicomweb/studies/${a.file(CT_SMALL).study}/instances?includefield=all`,
    );
    expect(value(instance, '00280100')).toBe(16); // Bits Allocated from the metadata
    expect(instance?.['7FE00010']?.BulkDataURI).toBeDefined();
    const bad = await a.staff.get('/api/dicomweb/studies?includefield=NoSuchKeyword');
    expect(bad.statusCode).toBe(400);
  });

  it('searches series of a study, of all studies, and instances at each level', async () => {
    const liver = a.file(LIVER[0] as string);
    const series = await a.staff.json(`/api/dicomweb/studies/${liver.study}/series`);
    expect(series.map((s) => value(s, '00080060')).sort()).toEqual(['CT', 'SEG']);
    const ct = series.find((s) => value(s, '00080060') === 'CT');
    expect(value(ct, '00201209')).toBe(3);
    expect(await a.staff.json(`/api/dicomweb/studies/${liver.study}/series?Modality=SEG`)).toHaveLength(1);

    const mr = await a.staff.json(
      `/api/dicomweb/series?Modality=MR&SeriesInstanceUID=${a.file(MR4[0] as string).series}`,
    );
    expect(mr).toHaveLength(1);
    expect(value(mr[0], '00100010')).toBeDefined(); // study attributes at the all-studies level

    const instances = await a.staff.json(
      `/api/dicomweb/studies/${liver.study}/series/${liver.series}/instances`,
    );
    expect(instances).toHaveLength(3);
    expect(instances.map((i) => value(i, '00200013'))).toEqual([1, 2, 3]);
    expect(value(instances[0], '00280010')).toBe(512);
    expect(value(instances[0], '00280011')).toBe(512);
    expect(value(instances[0], '00080016')).toBe('1.2.840.10008.5.1.4.1.1.2');

    expect(await a.staff.json(`/api/dicomweb/studies/${liver.study}/instances`)).toHaveLength(4);
    const xa = await a.staff.json(`/api/dicomweb/instances?SOPInstanceUID=${a.file(XA).sop}`);
    expect(value(xa[0], '00280008')).toBe(96);
    expect(value(xa[0], '0020000D')).toBe(a.file(XA).study);
    expect(await a.staff.json(`/api/dicomweb/studies/${liver.study}/instances?Modality=MR`)).toEqual([]);
  });
});

describe('DICOMweb for a group: WADO-RS', () => {
  let a: Awaited<ReturnType<typeof createArchive>>;
  beforeAll(async () => {
    a = await createArchive(CORPUS);
  });

  it('retrieves a study, a series and an instance as the stored files byte-for-byte', async () => {
    const liver = a.file(LIVER[0] as string);
    const res = await a.staff.get(`/api/dicomweb/studies/${liver.study}`, {
      accept: 'multipart/related; type="application/dicom"; transfer-syntax=*',
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^multipart\/related; type="application\/dicom"; boundary=/);
    const parts = parseMultipart(res.rawPayload, String(res.headers['content-type']));
    expect(new Set(parts.map((p) => sha256(p.body)))).toEqual(
      new Set(LIVER.map((p) => sha256(a.file(p).bytes))),
    );

    const series = await a.staff.get(
      `/api/dicomweb/studies/${a.file(MR4[0] as string).study}/series/${a.file(MR4[0] as string).series}`,
    );
    const mrParts = parseMultipart(series.rawPayload, String(series.headers['content-type']));
    expect(mrParts.map((p) => sha256(p.body))).toEqual(MR4.map((p) => sha256(a.file(p).bytes)));

    const one = await a.staff.get(a.urlOf(XA));
    const [xaPart] = parseMultipart(one.rawPayload, String(one.headers['content-type']));
    expect(Buffer.compare(xaPart?.body ?? Buffer.alloc(0), Buffer.from(a.file(XA).bytes))).toBe(0);
    expect(xaPart?.headers['content-type']).toBe('application/dicom; transfer-syntax=1.2.840.10008.1.2.4.50');
  });

  it('refuses a transfer syntax it would have to transcode to (406), with the error body', async () => {
    const res = await a.staff.get(a.urlOf(XA), {
      accept: 'multipart/related; type="application/dicom"; transfer-syntax=1.2.840.10008.1.2.1',
    });
    expect(res.statusCode).toBe(406);
    expect(res.json()).toMatchObject({ errorStatusCode: 406, txnId: expect.any(String) });
  });

  it('answers metadata for every instance, each series in instance order and each study, from the index', async () => {
    for (const path of CORPUS) {
      const [metadata] = await a.staff.json(`${a.urlOf(path)}/metadata`);
      expect(value(metadata, '00080018')).toBe(a.file(path).sop);
      expect(metadata?.['00020010']).toBeUndefined();
    }
    const first = a.file(MR4[0] as string);
    const series = await a.staff.json(`/api/dicomweb/studies/${first.study}/series/${first.series}/metadata`);
    expect(series.map((m) => value(m, '00080018'))).toEqual(MR4.map((p) => a.file(p).sop));
    const study = await a.staff.json(`/api/dicomweb/studies/${a.file(LIVER[0] as string).study}/metadata`);
    expect(study).toHaveLength(4);
  });

  it('answers frames of a native single-frame image as its pixel bytes', async () => {
    const res = await a.staff.get(`${a.urlOf(CT_SMALL)}/frames/1`, {
      accept: 'multipart/related; type="application/octet-stream"; transfer-syntax=*',
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('transfer-syntax=1.2.840.10008.1.2.1');
    const [frame] = parseMultipart(res.rawPayload, String(res.headers['content-type']));
    const bytes = a.file(CT_SMALL).bytes;
    const [expected] = extractFrames(bytes, parseInstance(bytes));
    expect(frame?.body.length).toBe(128 * 128 * 2);
    expect(sha256(frame?.body ?? Buffer.alloc(0))).toBe(sha256(expected as Uint8Array));
  });

  it('answers frames of multi-frame JPEG baseline images, each a whole JPEG', async () => {
    for (const [path, list] of [
      [XA, [1, 48, 96]],
      [US30, [1, 2, 30]],
    ] as const) {
      const res = await a.staff.get(`${a.urlOf(path)}/frames/${list.join(',')}`);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toContain('transfer-syntax=1.2.840.10008.1.2.4.50');
      const parts = parseMultipart(res.rawPayload, String(res.headers['content-type']));
      const expected = extractFrames(a.file(path).bytes, parseInstance(a.file(path).bytes));
      expect(parts).toHaveLength(list.length);
      parts.forEach((part, i) => {
        const body = part.body;
        expect([body[0], body[1]]).toEqual([0xff, 0xd8]);
        // The corpus XA's frames carry no EOI marker (a quirk of that file, kept byte-for-byte).
        if (path === US30) {
          const end = body[body.length - 1] === 0 ? body.length - 1 : body.length;
          expect([body[end - 2], body[end - 1]]).toEqual([0xff, 0xd9]);
        }
        expect(sha256(body)).toBe(sha256(expected[(list[i] as number) - 1] as Uint8Array));
      });
    }
  });

  it('answers frames of a fragmented enhanced CT without offset table, cut from the file', async () => {
    const path = ENHANCED_CT;
    const res = await a.staff.get(`${a.urlOf(path)}/frames/2,1`);
    expect(res.statusCode).toBe(200);
    const parts = parseMultipart(res.rawPayload, String(res.headers['content-type']));
    const expected = extractFrames(a.file(path).bytes, parseInstance(a.file(path).bytes));
    expect(parts.map((p) => sha256(p.body))).toEqual([
      sha256(expected[1] as Uint8Array),
      sha256(expected[0] as Uint8Array),
    ]);
  });

  it('refuses bad frame numbers and a transfer syntax it cannot give', async () => {
    expect((await a.staff.get(`${a.urlOf(XA)}/frames/0`)).statusCode).toBe(400);
    expect((await a.staff.get(`${a.urlOf(XA)}/frames/1,x`)).statusCode).toBe(400);
    expect((await a.staff.get(`${a.urlOf(XA)}/frames/97`)).statusCode).toBe(404);
    const res = await a.staff.get(`${a.urlOf(XA)}/frames/1`, {
      accept: 'multipart/related; type="application/octet-stream"; transfer-syntax=1.2.840.10008.1.2.1',
    });
    expect(res.statusCode).toBe(406);
    expect(res.json().errorDescription).toContain('1.2.840.10008.1.2.4.50');
    expect((await a.staff.get(`${a.urlOf(ECG)}/frames/1`)).statusCode).toBe(404);
  });

  it('answers the BulkDataURIs of the metadata: pixel data and a nested waveform value', async () => {
    const [ct] = await a.staff.json(`${a.urlOf(CT_SMALL)}/metadata`);
    const pixelUri = String(ct?.['7FE00010']?.BulkDataURI);
    expect(pixelUri).toMatch(/\/bulk\/7FE00010$/);
    const pixels = await a.staff.get(pixelUri);
    expect(pixels.statusCode).toBe(200);
    const [pixelPart] = parseMultipart(pixels.rawPayload, String(pixels.headers['content-type']));
    expect(pixelPart?.body.length).toBe(128 * 128 * 2);

    const [ecg] = await a.staff.json(`${a.urlOf(ECG)}/metadata`);
    const waveform = ecg?.['54000100']?.Value?.[0] as TDataset;
    const uri = String(waveform['54001010']?.BulkDataURI);
    expect(uri).toMatch(/\/bulk\/54000100\.0\.54001010$/);
    const res = await a.staff.get(uri);
    expect(res.statusCode).toBe(200);
    const [part] = parseMultipart(res.rawPayload, String(res.headers['content-type']));
    const parsed = parseInstance(a.file(ECG).bytes);
    const element = parsed.dataSet.elements.x54000100?.items?.[0]?.dataSet?.elements.x54001010;
    expect(part?.body.length).toBe(element?.length);
    expect(sha256(part?.body ?? Buffer.alloc(0))).toBe(
      sha256(
        parsed.datasetBytes.subarray(
          element?.dataOffset,
          (element?.dataOffset ?? 0) + (element?.length ?? 0),
        ),
      ),
    );
    expect((await a.staff.get(`${a.urlOf(ECG)}/bulk/00100010`)).statusCode).toBe(404);
  });

  it('renders images as PNG and JPEG of their size, and thumbnails, and refuses an instance without pixels', async () => {
    const png = await a.staff.get(`${a.urlOf(LIVER[0] as string)}/rendered`, { accept: 'image/png' });
    expect(png.statusCode).toBe(200);
    expect(png.headers['content-type']).toBe('image/png');
    expect(png.rawPayload.subarray(0, 8)).toEqual(
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    );
    expect(await sharp(png.rawPayload).metadata()).toMatchObject({ width: 512, height: 512, format: 'png' });

    for (const path of [CT_SMALL, DX_MONO1, US_RGB, PALETTE, XA]) {
      const jpeg = await a.staff.get(`${a.urlOf(path)}/frames/1/rendered`);
      expect(jpeg.statusCode, `${path}: ${jpeg.body.slice(0, 200)}`).toBe(200);
      expect([jpeg.rawPayload[0], jpeg.rawPayload[1], jpeg.rawPayload[2]]).toEqual([0xff, 0xd8, 0xff]);
      const meta = await sharp(jpeg.rawPayload).metadata();
      const [instance] = await a.staff.json(`${a.urlOf(path)}/metadata`);
      expect([meta.width, meta.height]).toEqual([value(instance, '00280011'), value(instance, '00280010')]);
    }

    const thumb = await a.staff.get(
      `/api/dicomweb/studies/${a.file(MR4[0] as string).study}/series/${a.file(MR4[0] as string).series}/thumbnail`,
    );
    expect(thumb.statusCode).toBe(200);
    expect(thumb.headers['content-type']).toBe('image/jpeg');
    expect(Math.max((await sharp(thumb.rawPayload).metadata()).width ?? 0)).toBeLessThanOrEqual(256);
    const again = await a.staff.get(`/api/dicomweb/studies/${a.file(MR4[0] as string).study}/thumbnail`);
    expect(again.statusCode).toBe(200);

    // Compressed frames and segmented palettes are decoded too (every file: dicomweb-render.int.test.ts).
    expect((await a.staff.get(`${a.urlOf(ENHANCED_CT)}/rendered`)).statusCode).toBe(200);
    expect((await a.staff.get(`${a.urlOf(SEGMENTED_PALETTE)}/rendered`)).statusCode).toBe(200);
    expect((await a.staff.get(`${a.urlOf(ECG)}/rendered`)).statusCode).toBe(406);
    expect((await a.staff.get(`${a.urlOf(CT_SMALL)}/rendered`, { accept: 'image/gif' })).statusCode).toBe(
      406,
    );
  });

  it('answers WADO-URI with the file or a rendered JPEG', async () => {
    const f = a.file(CT_SMALL);
    const base = `/api/dicomweb/wado?requestType=WADO&studyUID=${f.study}&seriesUID=${f.series}&objectUID=${f.sop}`;
    const file = await a.staff.get(`${base}&contentType=application%2Fdicom`);
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('application/dicom');
    expect(sha256(file.rawPayload)).toBe(sha256(f.bytes));
    const jpeg = await a.staff.get(base);
    expect(jpeg.headers['content-type']).toBe('image/jpeg');
    expect((await sharp(jpeg.rawPayload).metadata()).width).toBe(128);
    expect((await a.staff.get(base.replace('requestType=WADO', 'requestType=X'))).statusCode).toBe(400);
    expect((await a.staff.get(base.replace(f.sop, '1.2.3'))).statusCode).toBe(404);
  });
});

describe('Every transfer syntax of the corpus: frames as stored', () => {
  const FILES = [
    'transfer_syntax/ct_implicit_vr_le.dcm',
    'transfer_syntax/ct_explicit_vr_be.dcm',
    'transfer_syntax/ct_deflated_explicit_vr_le.dcm',
    'transfer_syntax/ct_jpeg_baseline_process1.dcm',
    'transfer_syntax/ct_jpeg_lossless_process14_sv1.dcm',
    'transfer_syntax/ct_jpegls_lossless.dcm',
    'transfer_syntax/ct_jpeg2000.dcm',
    'transfer_syntax/ct_rle_lossless.dcm',
    'us/us_palette_color_2frames_rle.dcm',
  ];

  it('cuts every frame like packages/dicom does, and labels its syntax', async () => {
    for (const path of FILES) {
      // One group per file: several share a SOP Instance UID.
      const a = await createArchive([path]);
      const bytes = a.file(path).bytes;
      const parsed = parseInstance(bytes);
      const expected = extractFrames(bytes, parsed);
      const list = expected.map((_, i) => i + 1).join(',');
      const res = await a.staff.get(`${a.urlOf(path)}/frames/${list}`);
      expect(res.statusCode, path).toBe(200);
      const parts = parseMultipart(res.rawPayload, String(res.headers['content-type']));
      const isBigEndian = parsed.transferSyntaxUid === '1.2.840.10008.1.2.2';
      const want = expected.map((f) => (isBigEndian ? Buffer.from(f).swap16() : Buffer.from(f)));
      expect(
        parts.map((p) => sha256(p.body)),
        path,
      ).toEqual(want.map((f) => sha256(f)));
      const label = parsed.transferSyntax.isEncapsulated ? parsed.transferSyntaxUid : '1.2.840.10008.1.2.1';
      expect(parts[0]?.headers['content-type'], path).toBe(
        `application/octet-stream; transfer-syntax=${label}`,
      );
      const rendered = await a.staff.get(`${a.urlOf(path)}/rendered`);
      expect(rendered.statusCode, path).toBeLessThan(500);
      expect([200, 406], path).toContain(rendered.statusCode);
    }
  });
});

describe('Who sees what', () => {
  let a: Awaited<ReturnType<typeof createArchive>>;
  beforeAll(async () => {
    a = await createArchive([CT_SMALL, FRENCH]);
  });

  it('lets the center that sent the studies see them, with a session cookie too', async () => {
    const centerUser = await createTestUser(t.db, {
      groupId: a.group.id,
      centerId: a.centerA.id,
      roles: ['ROLE_CENTER'],
    });
    const browser = await signInAs(t, centerUser);
    const viaCookie = new Caller(null, browser);
    expect(await viaCookie.json('/api/dicomweb/studies')).toHaveLength(2);
    expect((await viaCookie.get(a.urlOf(CT_SMALL))).statusCode).toBe(200);
    const viaToken = await callerFor(centerUser);
    expect(await viaToken.json('/api/dicomweb/series')).toHaveLength(2);
  });

  it('hides them from another center of the group, a referring doctor, a viewer and another group: 404 and empty lists', async () => {
    const other = await createTestGroup(t.db);
    const outsiders = await Promise.all([
      createTestUser(t.db, { groupId: a.group.id, centerId: a.centerB.id, roles: ['ROLE_CENTER'] }),
      createTestUser(t.db, { groupId: a.group.id, roles: ['ROLE_REFERRING_DOCTOR'] }),
      createTestUser(t.db, { groupId: a.group.id, roles: ['ROLE_VIEWER'] }),
      createTestUser(t.db, { groupId: a.group.id, roles: ['ROLE_CUSTOMER'] }),
      createTestUser(t.db, { groupId: other.id, roles: ['ROLE_ADMIN'] }),
    ]);
    const f = a.file(CT_SMALL);
    const studyUrl = `/api/dicomweb/studies/${f.study}`;
    for (const user of outsiders) {
      // Viewers and customers hold no API token (core canUseApiToken): they read through a session.
      let caller: Caller;
      if (canUseApiToken(user.roles.filter(isRole))) caller = await callerFor(user);
      else {
        caller = new Caller(null, await signInAs(t, user));
      }
      expect(await caller.json('/api/dicomweb/studies')).toEqual([]);
      expect(await caller.json(`/api/dicomweb/instances?SOPInstanceUID=${f.sop}`)).toEqual([]);
      for (const url of [
        studyUrl,
        `${studyUrl}/metadata`,
        `${studyUrl}/series`,
        `${a.urlOf(CT_SMALL)}/frames/1`,
        `${a.urlOf(CT_SMALL)}/rendered`,
        `${a.urlOf(CT_SMALL)}/bulk/7FE00010`,
        `${studyUrl}/thumbnail`,
        `/api/dicomweb/wado?requestType=WADO&studyUID=${f.study}&seriesUID=${f.series}&objectUID=${f.sop}&contentType=application/dicom`,
      ]) {
        const res = await caller.get(url);
        expect(res.statusCode, `${user.roles.join()} ${url}`).toBe(404);
      }
    }
  });

  it('answers 401 without a session or with a bad token', async () => {
    const f = a.file(CT_SMALL);
    for (const url of [
      '/api/dicomweb/studies',
      `/api/dicomweb/studies/${f.study}/metadata`,
      `${a.urlOf(CT_SMALL)}/frames/1`,
    ]) {
      expect((await new Caller(null).get(url)).statusCode).toBe(401);
      expect((await new Caller('not-a-token').get(url)).statusCode).toBe(401);
    }
  });
});
