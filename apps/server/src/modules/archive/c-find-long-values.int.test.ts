import { startTestDicomPort } from '../../../test/archive/helpers.js';
import { copyFile, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DicomJsonDataset } from '@radflow/dicom';
import { runStorescu, runTool } from '@radflow/dicom/test-support';
import type { DicomServices } from './dicom-services.js';
import { type TestApp, createTestApp, createTestCenter, createTestGroup } from '../../../test/test-app.js';
import { fixturePath, setAeTitles } from '../../../test/archive/fixtures.js';

/**
 * One stored value must never break a center's queries: a study whose patient name is 191 or
 * 10,000 characters long (and other values past their VR's maximum) used to abort every C-FIND of
 * the center once its answers reached it ('Value exceeds max length, vr: PN'). Answers are cut to
 * what their VR allows. Proven with DCMTK: dcmodify makes the studies, storescu sends them,
 * findscu asks.
 */

let t: TestApp;
let dicom: DicomServices;
let work: string;
const AET = `LONG${Math.random().toString(36).slice(2, 8).toUpperCase()}`;
const NAME_191 = `LONGNAME^${'A'.repeat(182)}`;
const NAME_10K = `HUGENAME^${'B'.repeat(9991)}`;
const CR = 'cr_dx/cr_tiny_16x16.dcm';

/** A copy of the CR fixture as a new study, with these attributes set (dcmodify -m). */
async function makeStudy(name: string, values: Record<string, string>): Promise<string> {
  const file = path.join(work, `${name}.dcm`);
  await copyFile(fixturePath(CR), file);
  const edits = Object.entries(values).flatMap(([tag, value]) => ['-m', `${tag}=${value}`]);
  const run = await runTool('dcmodify', ['-nb', '-gst', '-gse', '-gin', ...edits, file]);
  if (run.exitCode !== 0) throw new Error(`dcmodify failed: ${run.stderr}`);
  return file;
}

beforeAll(async () => {
  t = await createTestApp();
  const group = await createTestGroup(t.db);
  const center = await createTestCenter(t.db, { groupId: group.id });
  await setAeTitles(t.db, center.id, [AET]);
  dicom = await startTestDicomPort(t);
  work = await mkdtemp(path.join(tmpdir(), 'radflow-long-'));
  const files = [
    await makeStudy('n191', { '(0010,0010)': NAME_191 }),
    await makeStudy('n10k', {
      '(0010,0010)': NAME_10K,
      '(0010,0020)': `PID${'7'.repeat(200)}`,
      '(0008,0050)': `ACC${'9'.repeat(40)}`,
      '(0008,1030)': 'D'.repeat(500),
      '(0008,103e)': 'S'.repeat(300),
      '(0008,0090)': `REF^${'R'.repeat(100)}`,
    }),
    await makeStudy('plain', { '(0010,0010)': 'PLAIN^PATIENT' }),
  ];
  const run = await runStorescu({
    host: '127.0.0.1',
    port: dicom.port,
    callingAet: AET,
    calledAet: 'RADFLOW',
    files,
  });
  if (run.exitCode !== 0) throw new Error(`storescu failed: ${run.stderr}`);
});
afterAll(async () => {
  await dicom?.close();
  await t?.close();
  if (work) await rm(work, { recursive: true, force: true });
});

/** `findscu -S|-P -X -k …`; each answer read back with dcm2json. */
async function findscu(keys: string[], model: '-S' | '-P' = '-S') {
  const dir = await mkdtemp(path.join(work, 'rsp-'));
  const run = await runTool('findscu', [
    model,
    '-X',
    '-od',
    dir,
    ...keys.flatMap((key) => ['-k', key]),
    '-aet',
    AET,
    '-aec',
    'RADFLOW',
    '127.0.0.1',
    String(dicom.port),
  ]);
  const matches: DicomJsonDataset[] = [];
  for (const file of (await readdir(dir)).sort()) {
    const json = await runTool('dcm2json', [path.join(dir, file)]);
    matches.push(JSON.parse(json.stdout) as DicomJsonDataset);
  }
  return { exitCode: run.exitCode, output: run.stdout + run.stderr, matches };
}

const text = (match: DicomJsonDataset, tag: string): string => {
  const value = match[tag]?.Value?.[0];
  return typeof value === 'object' && value !== null && 'Alphabetic' in value
    ? String(value.Alphabetic)
    : String(value ?? '');
};
const byName = (matches: DicomJsonDataset[], prefix: string) =>
  matches.find((match) => text(match, '00100010').startsWith(prefix));

describe('C-FIND answers whatever was stored', () => {
  it('a study level query answers every study, over-long values cut to their VR’s maximum', async () => {
    const run = await findscu([
      'QueryRetrieveLevel=STUDY',
      'PatientName',
      'PatientID',
      'AccessionNumber',
      'StudyDescription',
      'ReferringPhysicianName',
      'StudyInstanceUID',
    ]);
    expect(run.exitCode, run.output).toBe(0);
    expect(run.matches, run.output).toHaveLength(3);
    expect(text(byName(run.matches, 'LONGNAME^')!, '00100010')).toBe(NAME_191.slice(0, 64));
    const huge = byName(run.matches, 'HUGENAME^')!;
    expect(text(huge, '00100010')).toBe(NAME_10K.slice(0, 64));
    expect(text(huge, '00100020')).toBe(`PID${'7'.repeat(61)}`); // LO: 64
    expect(text(huge, '00080050')).toBe(`ACC${'9'.repeat(13)}`); // SH: 16
    expect(text(huge, '00081030')).toBe('D'.repeat(64)); // LO: 64
    expect(text(huge, '00080090')).toBe(`REF^${'R'.repeat(60)}`); // PN: 64 per group
    expect(text(byName(run.matches, 'PLAIN^')!, '00100010')).toBe('PLAIN^PATIENT');
  });

  it('a patient name match still finds the long names (the index keeps them whole)', async () => {
    const run = await findscu(['QueryRetrieveLevel=STUDY', 'PatientName=HUGENAME*', 'StudyInstanceUID']);
    expect(run.exitCode, run.output).toBe(0);
    expect(run.matches, run.output).toHaveLength(1);
  });

  it('patient, series and image levels answer too', async () => {
    const patients = await findscu(['QueryRetrieveLevel=PATIENT', 'PatientName', 'PatientID'], '-P');
    expect(patients.exitCode, patients.output).toBe(0);
    expect(patients.matches, patients.output).toHaveLength(3);
    expect(text(byName(patients.matches, 'HUGENAME^')!, '00100010')).toHaveLength(64);

    const study = byName(
      (await findscu(['QueryRetrieveLevel=STUDY', 'PatientName', 'StudyInstanceUID'])).matches,
      'HUGENAME^',
    )!;
    const studyUid = text(study, '0020000D');
    const series = await findscu([
      'QueryRetrieveLevel=SERIES',
      `StudyInstanceUID=${studyUid}`,
      'SeriesInstanceUID',
      'SeriesDescription',
      'PatientName',
    ]);
    expect(series.exitCode, series.output).toBe(0);
    expect(series.matches).toHaveLength(1);
    expect(text(series.matches[0]!, '0008103E')).toBe('S'.repeat(64));
    const images = await findscu([
      'QueryRetrieveLevel=IMAGE',
      `StudyInstanceUID=${studyUid}`,
      `SeriesInstanceUID=${text(series.matches[0]!, '0020000E')}`,
      'SOPInstanceUID',
      'PatientName',
    ]);
    expect(images.exitCode, images.output).toBe(0);
    expect(images.matches).toHaveLength(1);
    expect(text(images.matches[0]!, '00100010')).toHaveLength(64);
  });
});
