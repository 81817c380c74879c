import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { runStorescu } from '@radflow/dicom/test-support';
import { instances, studies } from '../../db/schema.js';
import type { DicomServices } from './dicom-services.js';
import { type TestApp, createTestApp } from '../../../test/test-app.js';
import { parseMultipart } from '../../../test/wado-multipart.js';
import { withPrivateUnSequence } from '../../../../../packages/dicom/src/test-builders.js';
import { LIVER, corpus, fixturePath, setAeTitles } from '../../../test/archive/fixtures.js';
import { createArchiveWorld, formBody, stowBody, startTestDicomPort } from '../../../test/archive/helpers.js';

/**
 * Issue 21 §2: Explicit VR Big Endian with undefined-length sequences and items, as DCMTK writes
 * it (`dcmconv +tb -e`), is stored and indexed through STOW-RS, the browser upload and C-STORE,
 * and its frames reach the viewer as the same little-endian pixels as the original's.
 */

const hasDcmtk = (() => {
  try {
    execFileSync('dcmconv', ['--version'], { stdio: 'ignore' });
    execFileSync('storescu', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

const BIG_ENDIAN = '1.2.840.10008.1.2.2';
/** The CT (one frame, signed 16-bit) and the SEG (three 1-bit frames, nested sequences). */
const SOURCES = [LIVER[0]!, LIVER[3]!, LIVER[1]!];
/** The second CT slice also gets a private UN sequence of undefined length (CP-246 content). */
const WITH_UN = LIVER[1]!;

let t: TestApp;
let dicom: DicomServices;
let dir: string;
const converted = new Map<string, Uint8Array>();

beforeAll(async () => {
  if (!hasDcmtk) return;
  t = await createTestApp();
  dicom = await startTestDicomPort(t);
  dir = mkdtempSync(path.join(tmpdir(), 'radflow-be-'));
  for (const source of SOURCES) {
    const out = path.join(dir, path.basename(source));
    execFileSync('dcmconv', ['+tb', '-e', fixturePath(source), out], { stdio: 'pipe' });
    let bytes: Uint8Array = new Uint8Array(readFileSync(out));
    if (source === WITH_UN) {
      bytes = withPrivateUnSequence(bytes);
      writeFileSync(out, bytes);
    }
    converted.set(source, bytes);
  }
});
afterAll(async () => {
  await dicom?.close();
  await t?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** The generated files really are big endian with undefined-length sequences and items. */
function assertGeneratedShape(bytes: Uint8Array) {
  const text = Buffer.from(bytes).toString('latin1');
  expect(text).toContain(BIG_ENDIAN);
  // An SQ header with undefined length in big endian: "SQ" 00 00 FF FF FF FF, then an item FFFE,E000 FFFFFFFF.
  expect(
    Buffer.from(bytes).indexOf(Buffer.from('5351' + '0000' + 'ffffffff' + 'fffee000ffffffff', 'hex')),
  ).toBeGreaterThan(0);
}

type World = Awaited<ReturnType<typeof createArchiveWorld>>;

/** What the archive holds for one source after it arrived in a world's center A. */
async function expectStoredAndReadable(world: World, source: string) {
  const meta = corpus.find((f) => f.path === source)!;
  const [study] = await t.db
    .select()
    .from(studies)
    .where(and(eq(studies.groupId, world.group.id), eq(studies.studyInstanceUid, meta.study_instance_uid!)));
  expect(study, source).toBeDefined();
  const [row] = await t.db
    .select()
    .from(instances)
    .where(and(eq(instances.studyId, study!.id), eq(instances.sopInstanceUid, meta.sop_instance_uid!)));
  expect(row, source).toMatchObject({ transferSyntaxUid: BIG_ENDIAN });

  // Indexed: QIDO-RS finds it, its metadata carries the nested sequences' values.
  const client = world.admin.client;
  const base = `/api/dicomweb/studies/${meta.study_instance_uid}/series/${meta.series_instance_uid}`;
  const qido = await client.request({ method: 'GET', url: `${base}/instances` });
  expect(qido.statusCode, qido.body).toBe(200);
  expect(qido.body).toContain(meta.sop_instance_uid!);
  const metadata = await client.request({
    method: 'GET',
    url: `${base}/instances/${meta.sop_instance_uid}/metadata`,
  });
  expect(metadata.statusCode, metadata.body).toBe(200);
  const [json] = metadata.json() as Array<Record<string, { Value?: unknown[] }>>;
  expect(json!['00100020']?.Value).toEqual([expect.any(String)]);
  if (meta.modality === 'SEG') {
    // Segment Sequence (0062,0002) read through undefined-length items in big endian.
    const segment = json!['00620002']?.Value?.[0] as Record<string, { Value?: unknown[] }>;
    expect(segment['00620004']?.Value).toEqual([1]);
  }

  // The viewer's frames: little endian, equal to the original little-endian file's frame.
  const frame = await client.request({
    method: 'GET',
    url: `${base}/instances/${meta.sop_instance_uid}/frames/1`,
    headers: { accept: 'multipart/related; type="application/octet-stream"; transfer-syntax=*' },
  });
  expect(frame.statusCode, frame.body).toBe(200);
  const [part] = parseMultipart(frame.rawPayload, frame.headers['content-type'] as string);
  // 16-bit words are swapped to little endian; 1-bit (OB) frames are the same bytes in both orders.
  const bitsAllocated = (json!['00280100']?.Value?.[0] as number) ?? 0;
  if (bitsAllocated > 8)
    expect(part!.headers['content-type']).toMatch(/transfer-syntax=1\.2\.840\.10008\.1\.2\.1$/);
  const originalFrame = await originalFrameOf(world, source);
  expect(Buffer.compare(Buffer.from(part!.body), Buffer.from(originalFrame))).toBe(0);
}

/** Frame 1 of the original (little-endian) file, stored in center B of the same world. */
async function originalFrameOf(world: World, source: string): Promise<Uint8Array> {
  const meta = corpus.find((f) => f.path === source)!;
  const other = await createArchiveWorld(t);
  const { payload, contentType } = stowBody([new Uint8Array(readFileSync(fixturePath(source)))]);
  const stored = await other.center.client.request({
    method: 'POST',
    url: '/api/dicomweb/studies',
    payload,
    headers: { 'content-type': contentType, accept: 'application/dicom+json' },
  });
  expect(stored.statusCode, stored.body).toBe(200);
  const res = await other.admin.client.request({
    method: 'GET',
    url: `/api/dicomweb/studies/${meta.study_instance_uid}/series/${meta.series_instance_uid}/instances/${meta.sop_instance_uid}/frames/1`,
    headers: { accept: 'multipart/related; type="application/octet-stream"; transfer-syntax=*' },
  });
  expect(res.statusCode, res.body).toBe(200);
  void world;
  return parseMultipart(res.rawPayload, res.headers['content-type'] as string)[0]!.body;
}

describe.skipIf(!hasDcmtk)('Explicit VR Big Endian with undefined-length sequences (dcmconv +tb -e)', () => {
  it('the generated SEG has undefined-length sequences and items in big endian', () => {
    assertGeneratedShape(converted.get(LIVER[3]!)!);
  });

  it('STOW-RS stores and indexes them; the viewer gets their frames', async () => {
    const world = await createArchiveWorld(t);
    const { payload, contentType } = stowBody(SOURCES.map((s) => converted.get(s)!));
    const res = await world.center.client.request({
      method: 'POST',
      url: '/api/dicomweb/studies',
      payload,
      headers: { 'content-type': contentType, accept: 'application/dicom+json' },
    });
    expect(res.statusCode, res.body).toBe(200);
    for (const source of SOURCES) await expectStoredAndReadable(world, source);
  });

  it('the browser upload stores and indexes them', async () => {
    const world = await createArchiveWorld(t);
    const { payload, contentType } = formBody(
      {},
      SOURCES.map((s) => ({ name: path.basename(s), bytes: converted.get(s)! })),
    );
    const res = await world.center.client.request({
      method: 'POST',
      url: '/api/dicom-web/upload',
      payload,
      headers: { 'content-type': contentType },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json(), res.body).toMatchObject({ stored: SOURCES.length, failed: 0 });
    for (const source of SOURCES) await expectStoredAndReadable(world, source);
  });

  it('storescu (C-STORE in explicit VR big endian) stores and indexes them', async () => {
    const world = await createArchiveWorld(t);
    const aet = `BE${Math.random().toString(36).slice(2, 8).toUpperCase()}`;
    await setAeTitles(t.db, world.centerA.id, [aet]);
    const run = await runStorescu({
      host: '127.0.0.1',
      port: dicom.port,
      calledAet: 'RADFLOW',
      callingAet: aet,
      // Propose explicit VR big endian only, for the files' own SOP classes: what is stored is what was sent.
      extraArgs: ['-R', '-xb'],
      files: SOURCES.map((s) => path.join(dir, path.basename(s))),
    });
    expect(run.exitCode, run.stderr).toBe(0);
    for (const source of SOURCES) await expectStoredAndReadable(world, source);
  });
});
