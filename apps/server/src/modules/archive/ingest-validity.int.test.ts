import { readFileSync } from 'node:fs';
import { copyFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, inArray } from 'drizzle-orm';
import { createFileMetaHeader, parseInstance } from '@radflow/dicom';
import { DimseStatus, cStore } from '@radflow/dicom/dimse';
import { runStorescu, runTool } from '@radflow/dicom/test-support';
import { studies } from '../../db/schema.js';
import type { DicomServices } from './dicom-services.js';
import { type TestApp, createTestApp } from '../../../test/test-app.js';
import { setAeTitles, fixturePath, readFixture } from '../../../test/archive/fixtures.js';
import { createArchiveWorld, formBody, stowBody, startTestDicomPort } from '../../../test/archive/helpers.js';

/**
 * Bad DICOM is never acknowledged, whichever way it comes in: a data set not in the transfer
 * syntax it goes with (implicit VR sent on an explicit VR context, or in a file whose meta says
 * explicit), and Study, Series or SOP Instance UIDs outside the UID grammar (PS3.5 §9.1: digits
 * and dots, no empty component, no leading zero but a lone 0, at most 64 characters). C-STORE
 * answers a failure with an Error Comment, STOW-RS a failure (0xC000), the browser upload a 400
 * naming the file; nothing is stored.
 */

let t: TestApp;
let world: Awaited<ReturnType<typeof createArchiveWorld>>;
let dicom: DicomServices;
let work: string;
const AET = `BAD${Math.random().toString(36).slice(2, 8).toUpperCase()}`;
const CR = 'cr_dx/cr_tiny_16x16.dcm';

/** Bad files by name, and the Study UID each carries (to show nothing of it was stored). */
const bad: Record<string, { file: string; studyUid: string; reason: RegExp }> = {};
let goodFile: string;

/** A copy of the CR fixture with new UIDs (dcmodify -g…), then these attributes set. */
async function modified(name: string, values: Record<string, string>): Promise<string> {
  const file = path.join(work, name);
  await copyFile(fixturePath(CR), file);
  const edits = Object.entries(values).flatMap(([tag, value]) => ['-m', `${tag}=${value}`]);
  const run = await runTool('dcmodify', ['-nb', '-gst', '-gse', '-gin', ...edits, file]);
  if (run.exitCode !== 0) throw new Error(`dcmodify failed: ${run.stderr}`);
  return file;
}

const studyUidOf = (file: string) => parseInstance(new Uint8Array(readFileSync(file))).studyInstanceUid;

beforeAll(async () => {
  t = await createTestApp();
  world = await createArchiveWorld(t);
  await setAeTitles(t.db, world.centerA.id, [AET]);
  dicom = await startTestDicomPort(t);
  work = await mkdtemp(path.join(tmpdir(), 'radflow-bad-'));
  goodFile = await modified('good.dcm', {});
  const twoHundredDigits = `1${'2'.repeat(199)}`;
  const withUid = async (name: string, tag: string, uid: string, reason: RegExp) => {
    const file = await modified(name, { [tag]: uid });
    bad[name] = { file, studyUid: tag === '(0020,000d)' ? uid : studyUidOf(file), reason };
  };
  await withUid('study-dots.dcm', '(0020,000d)', '..', /Study Instance UID/);
  await withUid('study-200-digits.dcm', '(0020,000d)', twoHundredDigits, /Study Instance UID/);
  await withUid('series-leading-zero.dcm', '(0020,000e)', '1.2.03.4', /Series Instance UID/);
  await withUid('sop-trailing-dot.dcm', '(0008,0018)', '1.2.3.', /SOP Instance UID/);
  await withUid('study-letters.dcm', '(0020,000d)', '1.2.abc', /Study Instance UID/);
  // An implicit VR data set behind a file meta (the C-STORE SCP writes one from the negotiated
  // context) that says explicit VR little endian.
  const implicit = parseInstance(readFixture('mr/mr_small_64x64_implicit_le.dcm'));
  const mismatched = path.join(work, 'implicit-as-explicit.dcm');
  await writeFile(
    mismatched,
    Buffer.concat([
      createFileMetaHeader({
        sopClassUid: implicit.sopClassUid,
        sopInstanceUid: implicit.sopInstanceUid,
        transferSyntaxUid: '1.2.840.10008.1.2.1',
      }),
      implicit.datasetBytes.subarray(implicit.datasetOffset),
    ]),
  );
  bad['implicit-as-explicit.dcm'] = {
    file: mismatched,
    studyUid: implicit.studyInstanceUid,
    reason: /implicit VR/,
  };
});
afterAll(async () => {
  await dicom?.close();
  await t?.close();
  if (work) await rm(work, { recursive: true, force: true });
});

async function storedStudies(uids: string[]) {
  return t.db
    .select({ uid: studies.studyInstanceUid })
    .from(studies)
    .where(and(eq(studies.groupId, world.group.id), inArray(studies.studyInstanceUid, uids)));
}

describe('bad DICOM is not acknowledged', () => {
  it('C-STORE: each bad instance gets 0xC000 with an Error Comment saying why; the good one is stored', async () => {
    const names = Object.keys(bad);
    const outcome = await cStore({
      host: '127.0.0.1',
      port: dicom.port,
      callingAet: AET,
      calledAet: 'RADFLOW',
      files: [...names.map((name) => bad[name]!.file), goodFile],
    });
    names.forEach((name, i) => {
      const result = outcome.results[i]!;
      expect(result.status, name).toBe('FAILED');
      expect(result.dimseStatus, name).toBe(DimseStatus.CannotUnderstand);
      expect(result.error, name).toMatch(bad[name]!.reason);
    });
    // The mismatched instance went as it is, on a context of the syntax its meta names.
    expect(outcome.results[names.indexOf('implicit-as-explicit.dcm')]!.transferSyntaxUid).toBe(
      '1.2.840.10008.1.2.1',
    );
    expect(outcome.results.at(-1)!.status).toBe('SEND');
    expect(await storedStudies(names.map((name) => bad[name]!.studyUid))).toEqual([]);
  });

  it('C-STORE from DCMTK storescu: the invalid Study UID is refused with its reason', async () => {
    const run = await runStorescu({
      host: '127.0.0.1',
      port: dicom.port,
      callingAet: AET,
      calledAet: 'RADFLOW',
      files: [bad['study-dots.dcm']!.file],
      extraArgs: ['-d'],
    });
    const output = run.stdout + run.stderr;
    expect(output).toMatch(/Status\s*:\s*0xc000/i);
    expect(output).toMatch(/Invalid Study Instance UID: an empty component/);
    expect(await storedStudies(['..'])).toEqual([]);
  });

  it('STOW-RS: each bad part fails with 0xC000 and nothing of it is stored', async () => {
    for (const [name, { file, studyUid }] of Object.entries(bad)) {
      const { payload, contentType } = stowBody([new Uint8Array(await readFile(file))]);
      const res = await world.center.client.request({
        method: 'POST',
        url: '/api/dicomweb/studies',
        payload,
        headers: { 'content-type': contentType },
      });
      expect(res.statusCode, `${name}: ${res.body}`).toBe(409);
      const failed = (res.json()['00081198']?.Value ?? []) as Array<Record<string, { Value?: unknown[] }>>;
      expect(failed[0]?.['00081197']?.Value, name).toEqual([0xc000]);
      expect(await storedStudies([studyUid]), name).toEqual([]);
    }
  });

  it('browser upload: a bad file is a 400 naming the file and why', async () => {
    for (const [name, { file, studyUid, reason }] of Object.entries(bad)) {
      const { payload, contentType } = formBody({}, [{ name, bytes: new Uint8Array(await readFile(file)) }]);
      const res = await world.center.client.request({
        method: 'POST',
        url: '/api/dicom-web/upload',
        payload,
        headers: { 'content-type': contentType },
      });
      expect(res.statusCode, `${name}: ${res.body}`).toBe(400);
      expect(res.json().errorDescription, name).toContain(name);
      expect(res.json().errorDescription, name).toMatch(reason);
      expect(await storedStudies([studyUid]), name).toEqual([]);
    }
  });
});
