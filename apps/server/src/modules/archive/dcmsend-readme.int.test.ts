import { copyFile, mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { runTool } from '@radflow/dicom/test-support';
import { parseInstance } from '@radflow/dicom/ingest';
import { instances, studies } from '../../db/schema.js';
import type { DicomServices } from './dicom-services.js';
import { type TestApp, createTestApp } from '../../../test/test-app.js';
import { fixturePath } from '../../../test/archive/fixtures.js';
import { createArchiveWorldWithAeTitles, startTestDicomPort } from '../../../test/archive/helpers.js';

/**
 * The README's DIMSE line (issue 21 §8): storescu proposes only uncompressed syntaxes, or, with the
 * former `-xf storescu-all-syntaxes.cfg` profile, only the (SOP class, syntax) pairs of our own
 * corpus, so a real file in another pair fails. DCMTK's dcmsend proposes each file's own pair (and
 * more associations when they do not fit in one): every file of a folder in every syntax family is
 * stored, each compressed one in its own syntax.
 */

let t: TestApp;
let dicom: DicomServices;
let tmp: string;
beforeAll(async () => {
  t = await createTestApp();
  dicom = await startTestDicomPort(t);
  tmp = await mkdtemp(path.join(os.tmpdir(), 'dcmsend-'));
});
afterAll(async () => {
  await dicom?.close();
  await t.close();
  await rm(tmp, { recursive: true, force: true });
});

/** One file per syntax family (distinct SOP instances), and a few non-CT SOP classes. */
const FILES = [
  'ct/study_liver/ct_liver_01.dcm', // Implicit VR LE
  'ct/ct_small_128x128_explicit_le.dcm', // Explicit VR LE
  'mr/mr_small_64x64_explicit_be.dcm', // Explicit VR BE
  'special/deflated_sc_image.dcm', // Deflated
  'transfer_syntax/ct_jpeg_baseline_process1.dcm',
  'transfer_syntax/ct_jpeg_extended_process2_4.dcm',
  'nm_pt_xa/pt_ge_jpeg_lossless_sv1.dcm',
  'transfer_syntax/ct_jpegls_lossless.dcm',
  'transfer_syntax/ct_jpegls_near_lossless.dcm',
  'transfer_syntax/ct_jpeg2000.dcm',
  'us/us_palette_color_2frames_rle.dcm',
  'ct/study_liver/seg_liver_3frames.dcm', // SEG
  'special/sr_comprehensive.dcm', // SR
];

async function world() {
  const w = await createArchiveWorldWithAeTitles(t);
  return { ...w, ae: w.aeA };
}

const storedSyntaxes = async (groupId: number) =>
  (
    await t.db
      .select({ sop: instances.sopInstanceUid, ts: instances.transferSyntaxUid })
      .from(instances)
      .innerJoin(studies, eq(studies.id, instances.studyId))
      .where(eq(studies.groupId, groupId))
  ).sort((a, b) => a.sop.localeCompare(b.sop));

describe("the README's DIMSE sender", () => {
  it('the former storescu profile fails a file whose (SOP class, syntax) pair it lacks', async () => {
    const w = await world();
    // An MR image in JPEG Lossless SV1: not a pair of our corpus, common in real archives.
    const mrJpeg = path.join(tmp, 'mr-jpeg-lossless.dcm');
    const made = await runTool('dcmcjpeg', [fixturePath('mr/mr_small_64x64_explicit_le.dcm'), mrJpeg]);
    expect(made.exitCode, made.stderr).toBe(0);
    const profile = path.resolve(
      import.meta.dirname,
      '../../../../../packages/dicom/dcmtk/storescu-all-syntaxes.cfg',
    );
    const storescu = await runTool('storescu', [
      '-xf',
      profile,
      'RadflowAllSyntaxes',
      '-aet',
      w.ae,
      '-aec',
      'RADFLOW',
      '127.0.0.1',
      String(dicom.port),
      mrJpeg,
    ]);
    expect(storescu.stderr).toMatch(/No presentation context|Store Failed|unable to convert/);
    expect(await storedSyntaxes(w.group.id)).toEqual([]);

    const dcmsend = await runTool('dcmsend', [
      '-aet',
      w.ae,
      '-aec',
      'RADFLOW',
      '127.0.0.1',
      String(dicom.port),
      mrJpeg,
    ]);
    expect(dcmsend.exitCode, dcmsend.stderr).toBe(0);
    expect(await storedSyntaxes(w.group.id)).toEqual([
      {
        sop: parseInstance(new Uint8Array(await readFile(mrJpeg))).sopInstanceUid,
        ts: '1.2.840.10008.1.2.4.70',
      },
    ]);
  });

  it('storescu -R sends an uncompressed file of a SOP class missing from its own list', async () => {
    const w = await world();
    const seg = fixturePath('ct/study_liver/seg_liver_3frames.dcm');
    const args = ['-aet', w.ae, '-aec', 'RADFLOW', '127.0.0.1', String(dicom.port), seg];
    const plain = await runTool('storescu', args);
    expect(plain.stderr).toMatch(/No presentation context/);
    const required = await runTool('storescu', ['-R', ...args]);
    expect(required.exitCode, required.stderr).toBe(0);
    expect((await storedSyntaxes(w.group.id)).map((row) => row.sop)).toEqual([
      parseInstance(new Uint8Array(await readFile(seg))).sopInstanceUid,
    ]);
  });

  it('dcmsend stores a folder holding every syntax family, each file in its own syntax', async () => {
    const w = await world();
    const folder = path.join(tmp, 'study-folder');
    await mkdir(path.join(folder, 'sub'), { recursive: true });
    const expected: Array<{ sop: string; ts: string }> = [];
    for (const [i, file] of FILES.entries()) {
      await copyFile(fixturePath(file), path.join(folder, i % 2 ? 'sub' : '', `${i}.dcm`));
      const parsed = parseInstance(new Uint8Array(await readFile(fixturePath(file))));
      // dcmsend proposes the uncompressed syntaxes together, explicit VR little endian first, and
      // our SCP takes the first it knows: those arrive as explicit VR LE (same pixels); every
      // compressed or deflated file keeps its own syntax.
      const uncompressed = ['1.2.840.10008.1.2', '1.2.840.10008.1.2.2'].includes(parsed.transferSyntaxUid);
      expected.push({
        sop: parsed.sopInstanceUid,
        ts: uncompressed ? '1.2.840.10008.1.2.1' : parsed.transferSyntaxUid,
      });
    }
    const report = path.join(tmp, 'report.txt');
    // The README's line: scan the folder and its subfolders, carry on past a bad file.
    const run = await runTool('dcmsend', [
      '-aet',
      w.ae,
      '-aec',
      'RADFLOW',
      '+sd',
      '+r',
      '-nh',
      '+crf',
      report,
      '127.0.0.1',
      String(dicom.port),
      folder,
    ]);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(await readFile(report, 'utf8')).toContain(`with status SUCCESS  : ${FILES.length}`);
    expect(await storedSyntaxes(w.group.id)).toEqual(expected.sort((a, b) => a.sop.localeCompare(b.sop)));
  });
});
