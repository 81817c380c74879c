import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ORTHANC_DICOMWEB_PLUGIN,
  ORTHANC_EXECUTABLE,
  type OrthancPeer,
  startOrthanc,
} from '@radflow/dicom/test-support';
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
 * Issue 3 §7: Orthanc (Debian package, its DICOMweb plugin) as a DICOMweb client of our server. It
 * lists our studies through QIDO-RS and pulls one into its own store through WADO-RS, with the
 * user's API token; the files it then holds are the ones we were sent.
 */

const hasOrthanc = existsSync(ORTHANC_EXECUTABLE) && existsSync(ORTHANC_DICOMWEB_PLUGIN);

const FILES = [
  'mr/series_ge_4slices/IM-0001-0112-0001.dcm',
  'mr/series_ge_4slices/IM-0001-0113-0001.dcm',
  'mr/series_ge_4slices/IM-0001-0114-0001.dcm',
  'mr/series_ge_4slices/IM-0001-0115-0001.dcm',
  'ct/ct_small_128x128_explicit_le.dcm',
];

describe.runIf(hasOrthanc)('Orthanc as a DICOMweb client of /api/dicomweb', () => {
  let t: TestApp;
  let orthanc: OrthancPeer;
  const studyUids = new Set<string>();
  const sent = new Map<string, string>();

  beforeAll(async () => {
    t = await createTestApp();
    const group = await createTestGroup(t.db);
    const center = await createTestCenter(t.db, { groupId: group.id });
    for (const file of FILES) {
      const bytes = readFixture(file);
      const result = await ingestInstance(t.app.ctx, { bytes }, { centerId: center.id, source: 'STOW' });
      if (!result.ok) throw new Error(`${file}: ${result.reason}`);
      studyUids.add(result.studyInstanceUid);
      sent.set(result.sopInstanceUid, sha256(bytes));
    }
    const staff = await createTestUser(t.db, { groupId: group.id, roles: ['ROLE_ASSIGNOR'] });
    const token = await apiTokenFor(t, staff);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const address = t.app.server.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    orthanc = await startOrthanc({
      config: {
        DicomWeb: {
          Enable: true,
          Root: '/dicom-web/',
          Servers: {
            radflow: {
              Url: `http://127.0.0.1:${port}/api/dicomweb/`,
              HttpHeaders: { Authorization: `Bearer ${token}` },
            },
          },
        },
      },
    });
  });

  afterAll(async () => {
    await orthanc?.stop();
    await t?.close();
  });

  const post = async (url: string, body: unknown) => {
    const res = await fetch(`${orthanc.baseUrl}${url}`, { method: 'POST', body: JSON.stringify(body) });
    const text = await res.text();
    expect(res.status, `${url}: ${text} ${orthanc.output()}`).toBe(200);
    return JSON.parse(text) as unknown;
  };

  it('lists our studies through QIDO-RS', async () => {
    const studies = (await post('/dicom-web/servers/radflow/get', { Uri: '/studies' })) as Array<
      Record<string, { Value?: unknown[] }>
    >;
    expect(new Set(studies.map((s) => s['0020000D']?.Value?.[0]))).toEqual(studyUids);
  });

  it('retrieves a study through WADO-RS into its own store, byte-for-byte', async () => {
    for (const uid of studyUids)
      await post('/dicom-web/servers/radflow/retrieve', { Resources: [{ Study: uid }] });
    const ids = (await (await fetch(`${orthanc.baseUrl}/instances`)).json()) as string[];
    expect(ids).toHaveLength(FILES.length);
    for (const id of ids) {
      const tags = (await (
        await fetch(`${orthanc.baseUrl}/instances/${id}/simplified-tags`)
      ).json()) as Record<string, string>;
      const file = Buffer.from(await (await fetch(`${orthanc.baseUrl}/instances/${id}/file`)).arrayBuffer());
      expect(sha256(file)).toBe(sent.get(tags.SOPInstanceUID as string));
    }
  });
});
