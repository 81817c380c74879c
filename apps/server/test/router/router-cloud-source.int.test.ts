// Issue 27 §3: the router's send-job fetches a study from the cloud (WADO-RS Retrieve Study with the
// center's API token) and C-STOREs it to the center's PACS. The router's code against this server
// over HTTP; the PACS is DCMTK storescp.
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseInstance } from '@radflow/dicom';
import { type RunningPeer, startStorescp } from '@radflow/dicom/test-support';
import { readFixture } from '../../../../packages/dicom/src/test-fixtures.js';
import {
  CloudSourceError,
  CloudStudySource,
  SendJobs,
  StudyNotFoundError,
} from '../../../router/src/forward/index.js';
import { ingestInstance } from '../../src/modules/archive/ingest.js';
import { apiTokenFor } from '../api-token.helpers.js';
import {
  type TestApp,
  createTestApp,
  createTestCenter,
  createTestGroup,
  createTestUser,
} from '../test-app.js';

const FILES = [
  'mr/series_ge_4slices/IM-0001-0112-0001.dcm',
  'mr/series_ge_4slices/IM-0001-0113-0001.dcm',
  'mr/series_ge_4slices/IM-0001-0114-0001.dcm',
];
const sha = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

let t: TestApp;
let serverUrl: string;
let token: string;
let studyUid: string;
let storescp: RunningPeer;
let work: string;
const originals = new Map<string, string>();

beforeAll(async () => {
  t = await createTestApp();
  const group = await createTestGroup(t.db);
  const center = await createTestCenter(t.db, { groupId: group.id });
  const user = await createTestUser(t.db, { groupId: group.id, centerId: center.id, roles: ['ROLE_CENTER'] });
  for (const file of FILES) {
    const bytes = readFixture(file);
    const result = await ingestInstance(t.app.ctx, { bytes }, { centerId: center.id, source: 'UPLOAD' });
    if (!result.ok) throw new Error(`${file}: ${result.reason}`);
    originals.set(result.sopInstanceUid, sha(bytes));
    studyUid = result.studyInstanceUid;
  }
  serverUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
  token = await apiTokenFor(t, user);
  storescp = await startStorescp({ aeTitle: 'CENTERPACS' });
  work = await mkdtemp(path.join(tmpdir(), 'radflow-router-cloud-'));
});

afterAll(async () => {
  await Promise.all([t?.close(), storescp?.stop()]);
  if (work) await rm(work, { recursive: true, force: true });
});

describe('the router fetches a study from the cloud', () => {
  it('writes each stored file byte-for-byte into a temp folder that release removes', async () => {
    const source = new CloudStudySource({ serverUrl, token: () => token, tempRoot: work });
    const study = await source.open(studyUid);
    const got = new Map<string, string>();
    for (const file of study.files) {
      const bytes = new Uint8Array(await readFile(file));
      got.set(parseInstance(bytes).sopInstanceUid, sha(bytes));
    }
    expect(got).toEqual(originals);
    await study.release();
    expect(study.files.some((f) => existsSync(f))).toBe(false);
  });

  it('a study the token cannot see is not found; a wrong token is the cloud refusing it', async () => {
    const source = new CloudStudySource({ serverUrl, token: () => token, tempRoot: work });
    await expect(source.open('1.2.826.0.1.3680043.99.1')).rejects.toBeInstanceOf(StudyNotFoundError);
    const wrong = new CloudStudySource({ serverUrl, token: () => 'rft_wrong', tempRoot: work });
    await expect(wrong.open(studyUid)).rejects.toThrow(CloudSourceError);
    await expect(wrong.open(studyUid)).rejects.toThrow(/401/);
    expect(await readdir(work)).toEqual([]);
  });

  it('send-job from the cloud source: every instance reaches the PACS, the record is SEND', async () => {
    const jobs = await SendJobs.open({
      dataDir: path.join(work, 'data'),
      source: new CloudStudySource({ serverUrl, token: () => token, tempRoot: work }),
      callingAet: 'RADROUTER',
      retryDelaysMs: [],
    });
    try {
      const started = await jobs.run({
        studyId: studyUid,
        aeTitle: 'CENTERPACS',
        destination: `127.0.0.1:${storescp.port}`,
      });
      const record = await jobs.settled(started.id);
      expect(record.status, record.lastError ?? '').toBe('SEND');
      expect(record.instanceSendStatuses.map((i) => i.sopInstanceUid).sort()).toEqual(
        [...originals.keys()].sort(),
      );
      const received = await readdir(storescp.dir);
      expect(received).toHaveLength(FILES.length);
    } finally {
      await jobs.close();
    }
    // The fetched copy is gone once the send finished; only the records stay.
    expect((await readdir(work)).sort()).toEqual(['data']);
  });
});
