import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFixture } from '../../../packages/dicom/src/test-fixtures.js';
import { ingestInstance } from '../src/modules/archive/ingest.js';
import { deriveApiToken } from '../src/modules/auth/api-token.js';
import {
  type TestApp,
  createTestApp,
  createTestCenter,
  createTestGroup,
  createTestUser,
} from './test-app.js';
import { sha256 } from './wado-multipart.js';

/**
 * Issue 3 §7: Orthanc (Debian package, its DICOMweb plugin) as a DICOMweb client of our server. It
 * lists our studies through QIDO-RS and pulls one into its own store through WADO-RS, with the
 * user's API token; the files it then holds are the ones we were sent.
 */

const ORTHANC = '/usr/sbin/Orthanc';
const PLUGIN = '/usr/share/orthanc/plugins/libOrthancDicomWeb.so';
const hasOrthanc = existsSync(ORTHANC) && existsSync(PLUGIN);

const FILES = [
  'mr/series_ge_4slices/IM-0001-0112-0001.dcm',
  'mr/series_ge_4slices/IM-0001-0113-0001.dcm',
  'mr/series_ge_4slices/IM-0001-0114-0001.dcm',
  'mr/series_ge_4slices/IM-0001-0115-0001.dcm',
  'ct/ct_small_128x128_explicit_le.dcm',
];

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** Orthanc on 127.0.0.1 with its own temp storage and config, stopped by `stop()`. */
async function startOrthanc(radflowUrl: string, token: string) {
  const dir = await mkdtemp(path.join(tmpdir(), 'radflow-orthanc-'));
  const httpPort = await freePort();
  const config = {
    Name: 'radflow-test',
    HttpPort: httpPort,
    DicomPort: await freePort(),
    RemoteAccessAllowed: false,
    AuthenticationEnabled: false,
    StorageDirectory: path.join(dir, 'storage'),
    IndexDirectory: path.join(dir, 'index'),
    Plugins: [PLUGIN],
    DicomWeb: {
      Enable: true,
      Servers: { radflow: { Url: radflowUrl, HttpHeaders: { Authorization: `Bearer ${token}` } } },
    },
  };
  const configPath = path.join(dir, 'orthanc.json');
  await writeFile(configPath, JSON.stringify(config));
  const process: ChildProcess = spawn(ORTHANC, [configPath], {
    env: { ...globalThis.process.env, TCP_NODELAY: '1' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let log = '';
  process.stderr?.on('data', (chunk: Buffer) => {
    log = (log + chunk.toString()).slice(-4000);
  });
  const base = `http://127.0.0.1:${httpPort}`;
  const deadline = Date.now() + 20_000;
  for (;;) {
    try {
      if ((await fetch(`${base}/system`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline || process.exitCode !== null) throw new Error(`Orthanc did not start: ${log}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    base,
    log: () => log,
    async stop() {
      process.kill('SIGTERM');
      await new Promise((resolve) =>
        process.exitCode !== null ? resolve(null) : process.once('exit', resolve),
      );
      await rm(dir, { recursive: true, force: true });
    },
  };
}

describe.runIf(hasOrthanc)('Orthanc as a DICOMweb client of /api/dicomweb', () => {
  let t: TestApp;
  let orthanc: Awaited<ReturnType<typeof startOrthanc>>;
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
    const token = await deriveApiToken(t.app.ctx.secrets, staff.id, staff.tokenVersion);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const address = t.app.server.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    orthanc = await startOrthanc(`http://127.0.0.1:${port}/api/dicomweb/`, token);
  });

  afterAll(async () => {
    await orthanc?.stop();
    await t?.close();
  });

  const post = async (url: string, body: unknown) => {
    const res = await fetch(`${orthanc.base}${url}`, { method: 'POST', body: JSON.stringify(body) });
    const text = await res.text();
    expect(res.status, `${url}: ${text} ${orthanc.log()}`).toBe(200);
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
    const ids = (await (await fetch(`${orthanc.base}/instances`)).json()) as string[];
    expect(ids).toHaveLength(FILES.length);
    for (const id of ids) {
      const tags = (await (await fetch(`${orthanc.base}/instances/${id}/simplified-tags`)).json()) as Record<
        string,
        string
      >;
      const file = Buffer.from(await (await fetch(`${orthanc.base}/instances/${id}/file`)).arrayBuffer());
      expect(sha256(file)).toBe(sent.get(tags.SOPInstanceUID as string));
    }
  });
});
