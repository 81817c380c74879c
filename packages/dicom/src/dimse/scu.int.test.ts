// Our C-ECHO / C-STORE SCU against DCMTK storescp and Orthanc (own config, DICOMweb plugin), on
// 127.0.0.1 with TCP_NODELAY=1; files sent as stored, errors typed.
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseInstance } from '../parse.js';
import {
  datasetBytes,
  expectedSentDataset,
  firstDifference,
  fixturePath,
  sendableFixtures,
} from './corpus.test-helpers.js';
import { cEcho, cStore, DimseError, type CStoreProgress } from './index.js';
import {
  freePort,
  startOrthanc,
  startStorescp,
  type OrthancPeer,
  type RunningPeer,
} from '../test-support/index.js';

const OUR_AET = 'RADFLOW';
let storescp: RunningPeer;
let orthanc: OrthancPeer;
let strictOrthanc: OrthancPeer;

beforeAll(async () => {
  [storescp, orthanc, strictOrthanc] = await Promise.all([
    startStorescp({ aeTitle: 'STORESCP', extraArgs: ['+B', '+uf'] }),
    startOrthanc({ modalities: { radflow: [OUR_AET, '127.0.0.1', 11112] } }),
    startOrthanc({ aeTitle: 'STRICT', checkCalledAet: true }),
  ]);
}, 60_000);

afterAll(async () => {
  await Promise.all([storescp?.stop(), orthanc?.stop(), strictOrthanc?.stop()]);
});

describe('SCU → DCMTK storescp', () => {
  const peer = () => ({ host: '127.0.0.1', port: storescp.port, callingAet: OUR_AET, calledAet: 'STORESCP' });

  it('C-ECHO succeeds', async () => {
    const result = await cEcho(peer());
    expect(result.status).toBe(0);
  });

  it('C-STORE sends the corpus, each data set exactly as stored in the file', async () => {
    // storescp +xa does not accept JPEG Lossless process 14 (non-SV1); everything else it takes.
    const files = sendableFixtures.filter((f) => f.transfer_syntax_uid !== '1.2.840.10008.1.2.4.57');
    const progress: CStoreProgress[] = [];
    const outcome = await cStore({
      ...peer(),
      files: files.map(fixturePath),
      onProgress: (p) => progress.push(p),
    });
    expect(outcome.failed, JSON.stringify(outcome.results.filter((r) => r.status !== 'SEND'))).toBe(0);
    expect(outcome.sent).toBe(files.length);
    expect(progress.map((p) => p.done)).toEqual(files.map((_, i) => i + 1));
    const received = new Map<string, Uint8Array[]>();
    for (const name of await readdir(storescp.dir)) {
      const bytes = new Uint8Array(await readFile(join(storescp.dir, name)));
      const parsed = parseInstance(bytes, { requireUids: false });
      const key = `${parsed.sopInstanceUid}|${parsed.transferSyntaxUid}`;
      received.set(key, [...(received.get(key) ?? []), datasetBytes(bytes)]);
    }
    for (const [index, file] of files.entries()) {
      const result = outcome.results[index]!;
      expect(result.status, file.path).toBe('SEND');
      const arrived = received.get(`${result.sopInstanceUid}|${result.transferSyntaxUid}`) ?? [];
      expect(arrived.length, file.path).toBeGreaterThan(0);
      if (result.reencoded) continue;
      const original = expectedSentDataset(fixturePath(file));
      expect(
        arrived.some((bytes) => firstDifference(bytes, original) === -1),
        `${file.path} arrived bit-exact`,
      ).toBe(true);
    }
  }, 120_000);

  it('a file that is not DICOM is FAILED without stopping the others', async () => {
    const outcome = await cStore({
      ...peer(),
      files: [fixturePath({ path: 'bad/not_dicom_text.dcm' } as never), fixturePath(sendableFixtures[0]!)],
    });
    expect(outcome.results.map((r) => r.status)).toEqual(['FAILED', 'SEND']);
    expect(outcome.results[0]!.error).toMatch(/Not readable as DICOM/);
  });

  it('takes an async iterable of paths', async () => {
    async function* paths() {
      for (const file of sendableFixtures.slice(0, 3)) yield fixturePath(file);
    }
    const outcome = await cStore({ ...peer(), files: paths() });
    expect(outcome.sent).toBe(3);
  });
});

describe('SCU → Orthanc', () => {
  const peer = () => ({ host: '127.0.0.1', port: orthanc.port, callingAet: OUR_AET, calledAet: 'ORTHANC' });

  it('C-ECHO succeeds', async () => {
    expect((await cEcho(peer())).status).toBe(0);
  });

  it('C-STORE of the corpus shows up in GET /instances', async () => {
    const files = sendableFixtures.map(fixturePath);
    const outcome = await cStore({ ...peer(), files });
    const failed = outcome.results.filter((r) => r.status !== 'SEND');
    expect(failed, JSON.stringify(failed)).toEqual([]);
    const instances = await orthanc.get<string[]>('/instances');
    // Orthanc keys instances by patient/study/series/SOP instance UIDs: files that share them count once.
    const distinct = new Set(outcome.results.map((r) => r.sopInstanceUid));
    expect(instances.length).toBe(distinct.size);
    const stored = await Promise.all(
      instances.map((id) => orthanc.get<{ MainDicomTags: { SOPInstanceUID: string } }>(`/instances/${id}`)),
    );
    expect(new Set(stored.map((i) => i.MainDicomTags.SOPInstanceUID))).toEqual(distinct);
  }, 120_000);
});

describe('SCU errors', () => {
  const one = [fixturePath(sendableFixtures[0]!)];

  it('a wrong called AE title is a typed association rejection', async () => {
    const peer = {
      host: '127.0.0.1',
      port: strictOrthanc.port,
      callingAet: OUR_AET,
      calledAet: 'NOT-STRICT',
    };
    const error = await cStore({ ...peer, files: one }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DimseError);
    expect(error).toMatchObject({
      code: 'ASSOCIATION_REJECTED',
      reject: { result: 1, source: 1, reason: 7 },
    });
    await expect(cEcho(peer)).rejects.toMatchObject({ code: 'ASSOCIATION_REJECTED' });
    expect((await cEcho({ ...peer, calledAet: 'STRICT' })).status).toBe(0);
  });

  it('connection refused is typed', async () => {
    const port = await freePort();
    const peer = { host: '127.0.0.1', port, callingAet: OUR_AET, calledAet: 'NOBODY' };
    await expect(cEcho(peer)).rejects.toMatchObject({ name: 'DimseError', code: 'CONNECTION_REFUSED' });
    await expect(cStore({ ...peer, files: one })).rejects.toMatchObject({ code: 'CONNECTION_REFUSED' });
  });
});
