import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseInstance } from '@radflow/dicom';
import { api } from 'dicomweb-client';
// dicomweb-client speaks XMLHttpRequest; Node has none, xhr2 provides it.
import XMLHttpRequest from 'xhr2';
import { readFixture } from '../../../../../packages/dicom/src/test-fixtures.js';
import { ingestInstance } from '../archive/ingest.js';
import { apiTokenFor } from '../../../test/api-token.helpers.js';
import {
  type TestApp,
  createTestApp,
  createTestCenter,
  createTestGroup,
  createTestUser,
} from '../../../test/test-app.js';
import { sha256 } from '../../../test/wado-multipart.js';

/**
 * Issue 3 §7: dicomweb-client (the DICOMweb client library OHIF and many viewers use) from Node,
 * against our server over HTTP with a user's API token: search, series metadata, a frame and a
 * whole instance, exactly as a viewer would ask for them.
 */

/**
 * The methods used here. The library's own declarations (generated from its JSDoc) mark optional
 * options such as `request` and `mediaTypes` as required, so the tests speak through this view.
 */
interface TDicomwebClient {
  baseURL: string;
  searchForStudies(options?: { queryParams?: Record<string, string> }): Promise<unknown>;
  searchForSeries(options: { studyInstanceUID: string }): Promise<unknown>;
  retrieveSeriesMetadata(options: { studyInstanceUID: string; seriesInstanceUID: string }): Promise<unknown>;
  retrieveInstanceFrames(options: {
    studyInstanceUID: string;
    seriesInstanceUID: string;
    sopInstanceUID: string;
    frameNumbers: number[];
  }): Promise<unknown>;
  retrieveInstance(options: {
    studyInstanceUID: string;
    seriesInstanceUID: string;
    sopInstanceUID: string;
  }): Promise<unknown>;
}

function newClient(url: string, headers?: Record<string, string>): TDicomwebClient {
  return new api.DICOMwebClient({
    url,
    singlepart: false,
    ...(headers ? { headers } : {}),
  }) as unknown as TDicomwebClient;
}

const FILES = [
  'mr/series_ge_4slices/IM-0001-0112-0001.dcm',
  'mr/series_ge_4slices/IM-0001-0113-0001.dcm',
  'mr/series_ge_4slices/IM-0001-0114-0001.dcm',
  'mr/series_ge_4slices/IM-0001-0115-0001.dcm',
];

describe('dicomweb-client from Node reads our archive', () => {
  let t: TestApp;
  let client: TDicomwebClient;
  const originals = new Map<string, Buffer>();
  let studyUid = '';
  let seriesUid = '';

  beforeAll(async () => {
    (globalThis as { XMLHttpRequest?: unknown }).XMLHttpRequest = XMLHttpRequest;
    t = await createTestApp();
    const group = await createTestGroup(t.db);
    const center = await createTestCenter(t.db, { groupId: group.id });
    const user = await createTestUser(t.db, { groupId: group.id, roles: ['ROLE_ADMIN'] });
    for (const file of FILES) {
      const bytes = await readFixture(file);
      const result = await ingestInstance(t.app.ctx, { bytes }, { centerId: center.id, source: 'UPLOAD' });
      if (!result.ok) throw new Error(`${file}: ${result.reason}`);
      originals.set(result.sopInstanceUid, Buffer.from(bytes));
      studyUid = result.studyInstanceUid;
      seriesUid = result.seriesInstanceUid;
    }
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const token = await apiTokenFor(t, user);
    client = newClient(`${address}/api/dicomweb`, { Authorization: `Bearer ${token}` });
  });

  afterAll(async () => {
    await t?.close();
  });

  it('finds the study and its series', async () => {
    const studies = (await client.searchForStudies({ queryParams: { PatientID: '*' } })) as Array<
      Record<string, { Value?: unknown[] }>
    >;
    expect(studies.map((s) => s['0020000D']?.Value?.[0])).toEqual([studyUid]);
    expect(studies[0]?.['00201208']?.Value?.[0]).toBe(FILES.length);
    const series = (await client.searchForSeries({ studyInstanceUID: studyUid })) as Array<
      Record<string, { Value?: unknown[] }>
    >;
    expect(series.map((s) => s['0020000E']?.Value?.[0])).toEqual([seriesUid]);
  });

  it('reads series metadata, one frame and a whole instance byte-for-byte', async () => {
    const metadata = (await client.retrieveSeriesMetadata({
      studyInstanceUID: studyUid,
      seriesInstanceUID: seriesUid,
    })) as Array<Record<string, { Value?: unknown[] }>>;
    expect(metadata).toHaveLength(FILES.length);
    const [first] = metadata;
    const sopUid = first?.['00080018']?.Value?.[0] as string;
    const original = originals.get(sopUid);
    if (!original) throw new Error('metadata names an instance we did not send');
    const parsed = parseInstance(new Uint8Array(original));

    const frames = (await client.retrieveInstanceFrames({
      studyInstanceUID: studyUid,
      seriesInstanceUID: seriesUid,
      sopInstanceUID: sopUid,
      frameNumbers: [1],
    })) as ArrayBuffer[];
    expect(frames).toHaveLength(1);
    const rows = Number(first?.['00280010']?.Value?.[0]);
    const columns = Number(first?.['00280011']?.Value?.[0]);
    const bytesPerSample = Number(first?.['00280100']?.Value?.[0]) / 8;
    expect(frames[0]?.byteLength).toBe(rows * columns * bytesPerSample);
    expect(parsed.sopInstanceUid).toBe(sopUid);

    const instance = (await client.retrieveInstance({
      studyInstanceUID: studyUid,
      seriesInstanceUID: seriesUid,
      sopInstanceUID: sopUid,
    })) as ArrayBuffer;
    expect(sha256(Buffer.from(instance))).toBe(sha256(original));
  });

  it('gets nothing without the token', async () => {
    const anonymous = newClient(client.baseURL);
    await expect(anonymous.searchForStudies()).rejects.toBeTruthy();
  });
});
