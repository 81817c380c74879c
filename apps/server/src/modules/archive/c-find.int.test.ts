import { startTestDicomPort } from '../../../test/archive/helpers.js';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import type { DicomJsonDataset } from '@radflow/dicom';
import { QUERY_RETRIEVE_FIND } from '@radflow/dicom/dimse';
import { runStorescu, runTool } from '@radflow/dicom/test-support';
import { reportStatuses, studies } from '../../db/schema.js';
import { createFindService } from './c-find.js';
import { createAeTitleLookup } from './ae-titles.js';
import { type DicomServices, startDicomServices } from './dicom-services.js';
import { type TestApp, createTestApp, createTestCenter, createTestGroup } from '../../../test/test-app.js';
import { FIXTURES_DIR, LIVER, corpus, fixturePath, setAeTitles } from '../../../test/archive/fixtures.js';

// The C-FIND SCP proven with DCMTK: storescu puts studies in, findscu asks, dcm2json reads the answers.

let t: TestApp;
let dicom: DicomServices;
let groupId: number;
const suffix = Math.random().toString(36).slice(2, 7).toUpperCase();
const AET_A = `FINDA${suffix}`;
const AET_B = `FINDB${suffix}`;

const uidOf = (file: string) => corpus.find((f) => f.path === file)!.study_instance_uid!;
const seriesUidOf = (file: string) => corpus.find((f) => f.path === file)!.series_instance_uid!;
const sopUidOf = (file: string) => corpus.find((f) => f.path === file)!.sop_instance_uid!;
const MR = 'mr/mr_small_64x64_explicit_le.dcm';
const CR = 'cr_dx/cr_tiny_16x16.dcm';
const CYRILLIC = 'charset/cyrillic_iso_ir_144_russian.dcm';
const GREEK = 'charset/greek_iso_ir_126.dcm';
const CHINESE = 'charset/utf8_iso_ir_192_chinese.dcm';

beforeAll(async () => {
  t = await createTestApp();
  const group = await createTestGroup(t.db);
  groupId = group.id;
  const centerA = await createTestCenter(t.db, { groupId: group.id });
  const centerB = await createTestCenter(t.db, { groupId: group.id });
  await setAeTitles(t.db, centerA.id, [AET_A]);
  await setAeTitles(t.db, centerB.id, [AET_B]);
  dicom = await startTestDicomPort(t);
  const send = async (callingAet: string, files: string[]) => {
    // The committed profile proposes every SOP class of the corpus (storescu alone: images only).
    const configFile = path.join(FIXTURES_DIR, '..', 'dcmtk', 'storescu-all-syntaxes.cfg');
    const run = await runStorescu({ ...peer(), callingAet, files: files.map(fixturePath), configFile });
    if (run.exitCode !== 0) throw new Error(`storescu failed: ${run.stderr}`);
  };
  await send(AET_A, [...LIVER, MR, CR, CYRILLIC, GREEK]);
  await send(AET_B, [CHINESE]);
});
afterAll(async () => {
  await dicom?.close();
  await t?.close();
});

const peer = () => ({ host: '127.0.0.1', port: dicom.port, calledAet: 'RADFLOW' });

interface FindRun {
  exitCode: number | null;
  output: string;
  matches: DicomJsonDataset[];
}

/**
 * `findscu -S|-P -v -X -k …`: every pending response written to a file (unless `extract: false`),
 * read back with dcm2json; `output` has findscu's log of each response.
 */
async function findscu(
  callingAet: string,
  keys: string[],
  model: '-S' | '-P' = '-S',
  options: { extract?: boolean; extraArgs?: string[]; port?: number } = {},
): Promise<FindRun> {
  const dir = await mkdtemp(path.join(tmpdir(), 'radflow-findscu-'));
  try {
    const extract = options.extract === false ? [] : ['-X', '-od', dir];
    const args = [
      model,
      '-v',
      ...extract,
      ...(options.extraArgs ?? []),
      ...keys.flatMap((key) => ['-k', key]),
    ];
    const run = await runTool('findscu', [
      ...args,
      '-aet',
      callingAet,
      '-aec',
      'RADFLOW',
      '127.0.0.1',
      String(options.port ?? dicom.port),
    ]);
    const files = (await readdir(dir)).filter((name) => name.startsWith('rsp')).sort();
    const matches: DicomJsonDataset[] = [];
    for (const file of files) {
      const json = await runTool('dcm2json', [path.join(dir, file)]);
      matches.push(JSON.parse(json.stdout) as DicomJsonDataset);
    }
    return { exitCode: run.exitCode, output: run.stdout + run.stderr, matches };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const value = (match: DicomJsonDataset, tag: string) => match[tag]?.Value?.[0];
const values = (run: FindRun, tag: string) => run.matches.map((m) => value(m, tag)).sort();
const studyUids = (run: FindRun) => values(run, '0020000D');

describe('C-FIND SCP with DCMTK findscu', () => {
  it('matches a wildcard patient name case-insensitively and returns the asked keys with the counts', async () => {
    const run = await findscu(AET_A, [
      'QueryRetrieveLevel=STUDY',
      'PatientName=doe^arch*',
      'StudyInstanceUID',
      'StudyDate',
      'ModalitiesInStudy',
      'NumberOfStudyRelatedSeries',
      'NumberOfStudyRelatedInstances',
      'PatientBirthTime',
    ]);
    expect(run.exitCode, run.output).toBe(0);
    expect(run.matches).toHaveLength(1);
    const [match] = run.matches as [DicomJsonDataset];
    expect(value(match, '00080005')).toBe('ISO_IR 192');
    expect(value(match, '00080052')).toBe('STUDY');
    expect(value(match, '0020000D')).toBe(uidOf(CR));
    expect(value(match, '00100010')).toEqual({ Alphabetic: 'Doe^Archibald' });
    expect(value(match, '00080020')).toBe('20010101');
    expect(match['00080061']?.Value).toEqual(['CR']);
    expect(Number(value(match, '00201206'))).toBe(1);
    expect(Number(value(match, '00201208'))).toBe(1);
    // Asked for, not known: sent back empty; not asked for: not sent.
    expect(match['00100032']).toEqual({ vr: 'TM' });
    expect(match['00080050']).toBeUndefined();
  });

  it('matches study date ranges: closed, open at either end, and a single date', async () => {
    const keys = (date: string) => ['QueryRetrieveLevel=STUDY', `StudyDate=${date}`, 'StudyInstanceUID'];
    expect(studyUids(await findscu(AET_A, keys('20030101-20041231')))).toEqual(
      [uidOf(LIVER[0]!), uidOf(MR)].sort(),
    );
    expect(studyUids(await findscu(AET_A, keys('-20020101')))).toEqual([uidOf(CR)]);
    expect(studyUids(await findscu(AET_A, keys('20040101-')))).toEqual([uidOf(MR)]);
    expect(studyUids(await findscu(AET_A, keys('20030417')))).toEqual([uidOf(LIVER[0]!)]);
  });

  it('matches a list of study UIDs, and modalities in study', async () => {
    const list = await findscu(AET_A, [
      'QueryRetrieveLevel=STUDY',
      `StudyInstanceUID=${uidOf(MR)}\\${uidOf(CR)}\\1.2.3.4.5.6.7`,
    ]);
    expect(studyUids(list)).toEqual([uidOf(MR), uidOf(CR)].sort());
    const segs = await findscu(AET_A, [
      'QueryRetrieveLevel=STUDY',
      'ModalitiesInStudy=SEG',
      'StudyInstanceUID',
    ]);
    expect(studyUids(segs)).toEqual([uidOf(LIVER[0]!)]);
  });

  it('lists the series of a study, and the images of a series by SOP Instance UID', async () => {
    const seriesRun = await findscu(AET_A, [
      'QueryRetrieveLevel=SERIES',
      `StudyInstanceUID=${uidOf(LIVER[0]!)}`,
      'SeriesInstanceUID',
      'Modality',
      'NumberOfSeriesRelatedInstances',
    ]);
    expect(seriesRun.exitCode, seriesRun.output).toBe(0);
    const byModality = Object.fromEntries(
      seriesRun.matches.map((m) => [value(m, '00080060'), Number(value(m, '00201209'))]),
    );
    expect(byModality).toEqual({ CT: 3, SEG: 1 });
    expect(values(seriesRun, '0020000E')).toContain(seriesUidOf(LIVER[0]!));

    const imageRun = await findscu(AET_A, [
      'QueryRetrieveLevel=IMAGE',
      `StudyInstanceUID=${uidOf(LIVER[0]!)}`,
      `SeriesInstanceUID=${seriesUidOf(LIVER[0]!)}`,
      `SOPInstanceUID=${sopUidOf(LIVER[0]!)}\\${sopUidOf(LIVER[2]!)}`,
    ]);
    expect(values(imageRun, '00080018')).toEqual([sopUidOf(LIVER[0]!), sopUidOf(LIVER[2]!)].sort());
  });

  it('answers Patient Root at patient level with the patient counts', async () => {
    const run = await findscu(
      AET_A,
      ['QueryRetrieveLevel=PATIENT', 'PatientID=99000', 'PatientName', 'NumberOfPatientRelatedStudies'],
      '-P',
    );
    expect(run.exitCode, run.output).toBe(0);
    expect(run.matches).toHaveLength(1);
    expect(value(run.matches[0]!, '00100010')).toEqual({ Alphabetic: 'JANCT000' });
    expect(Number(value(run.matches[0]!, '00201200'))).toBe(1);
  });

  it('sends non-Latin names back intact (Cyrillic, Greek, Chinese ideographic)', async () => {
    const names = async (aet: string, patientId: string) => {
      const run = await findscu(aet, ['QueryRetrieveLevel=STUDY', `PatientID=${patientId}`, 'PatientName']);
      expect(run.matches).toHaveLength(1);
      return value(run.matches[0]!, '00100010');
    };
    const stored = async (file: string) => {
      const [row] = await t.db
        .select({ name: studies.patientName })
        .from(studies)
        .where(and(eq(studies.groupId, groupId), eq(studies.studyInstanceUid, uidOf(file))));
      return row!.name;
    };
    expect(await stored(CYRILLIC)).toMatch(/^Люк/);
    expect(await names(AET_A, 'SCSRUSS')).toEqual({ Alphabetic: await stored(CYRILLIC) });
    expect(await names(AET_A, 'SCSGREEK')).toEqual({ Alphabetic: 'Διονυσιος' });
    expect(await names(AET_B, 'X1EXAMPLE')).toMatchObject({
      Alphabetic: 'Wang^XiaoDong',
      Ideographic: '王^小東',
    });
  });

  it("shows a center's AE only its own center's studies", async () => {
    const fromB = await findscu(AET_B, ['QueryRetrieveLevel=STUDY', 'PatientName=*', 'StudyInstanceUID']);
    expect(fromB.exitCode, fromB.output).toBe(0);
    expect(studyUids(fromB)).toEqual([uidOf(CHINESE)]);
    const fromA = await findscu(AET_A, ['QueryRetrieveLevel=STUDY', 'StudyInstanceUID']);
    expect(studyUids(fromA)).toHaveLength(5);
    expect(studyUids(fromA)).not.toContain(uidOf(CHINESE));
    const seriesOfA = await findscu(AET_B, [
      'QueryRetrieveLevel=SERIES',
      `StudyInstanceUID=${uidOf(LIVER[0]!)}`,
      'SeriesInstanceUID',
    ]);
    expect(seriesOfA.matches).toHaveLength(0);
  });

  it('rejects an unknown calling AE at association, and refuses a level the model does not have', async () => {
    const stranger = await findscu('STRANGER', ['QueryRetrieveLevel=STUDY', 'PatientName=*']);
    expect(stranger.exitCode).not.toBe(0);
    expect(stranger.output).toMatch(/Calling AE Title Not Recognized/i);
    expect(stranger.matches).toHaveLength(0);

    const patientInStudyRoot = await findscu(AET_A, ['QueryRetrieveLevel=PATIENT', 'PatientName=*']);
    expect(patientInStudyRoot.matches).toHaveLength(0);
    expect(patientInStudyRoot.output).toMatch(/Final Find Response \(Error: DataSetDoesNotMatchSOPClass\)/);
  });
});

describe('C-FIND of a center with many studies', () => {
  const AET_C = `FINDC${suffix}`;
  const BULK = 300;
  const CAP = 40;
  let capped: DicomServices;

  /** A center of the AE title with `count` studies. Index rows only: matching reads nothing else,
   * and storescu sends would take minutes. */
  async function centerWithStudies(aeTitle: string, count: number) {
    const center = await createTestCenter(t.db, { groupId });
    await setAeTitles(t.db, center.id, [aeTitle]);
    const stamp = `${Date.now()}${Math.floor(Math.random() * 1000)}`;
    const inserted = await t.db
      .insert(studies)
      .values(
        Array.from({ length: count }, (_, i) => ({
          groupId,
          centerId: center.id,
          studyInstanceUid: `2.25.${stamp}.${i}`,
          patientName: `BULK^${i}`,
          patientId: `BULK${i}`,
          studyDate: '20250101',
          modalities: ['CT'],
          seriesCount: 1,
          instanceCount: 1,
        })),
      )
      .returning({ id: studies.id });
    await t.db.insert(reportStatuses).values(
      inserted.map(({ id }) => ({
        studyId: id,
        groupId,
        centerId: center.id,
        patientName: '',
        patientId: '',
      })),
    );
  }

  beforeAll(async () => {
    await centerWithStudies(AET_C, BULK);
    // The production cap (C_FIND_MAX_MATCHES, 1000) costs seconds of encoding; the rule is the same.
    capped = await startDicomServices(t.app.ctx, {
      DICOM_PORT: 0,
      DICOM_AET: 'RADFLOW',
      HOST: '127.0.0.1',
      C_FIND_MAX_MATCHES: CAP,
    });
  });
  afterAll(async () => {
    await capped?.close();
  });

  const pendingCount = (run: FindRun) => run.output.match(/Find Response: \d+ \(Pending\)/g)?.length ?? 0;
  const keys = ['QueryRetrieveLevel=STUDY', 'PatientName=bulk^*', 'StudyInstanceUID'];

  it('sends at most the configured number of matches, then Success', async () => {
    const run = await findscu(AET_C, keys, '-S', { extract: false, port: capped.port });
    expect(pendingCount(run), run.output.slice(-2000)).toBe(CAP);
    expect(run.output).toMatch(/Received Final Find Response \(Success\)/);
  });

  it('answers at most 1000 matches with no cap configured (the production default), then Success', async () => {
    const AET_D = `FINDD${suffix}`;
    await centerWithStudies(AET_D, 1001);
    // The service as startDicomServices builds it when C_FIND_MAX_MATCHES is not set; asked
    // directly, as encoding 1000 responses over the wire costs seconds and tests nothing more.
    const find = createFindService(t.app.ctx, createAeTitleLookup(t.app.ctx));
    const answer = await find.onFind(
      {
        sopClassUid: QUERY_RETRIEVE_FIND.studyRoot,
        identifier: { '00080052': { vr: 'CS', Value: ['STUDY'] }, '0020000D': { vr: 'UI' } },
        callingAet: AET_D,
        calledAet: 'RADFLOW',
        associationId: 'default-cap',
      },
      new AbortController().signal,
    );
    expect(answer.status).toBeUndefined();
    expect('matches' in answer ? answer.matches.length : -1).toBe(1000);
  });

  it('stops at a C-CANCEL and ends with status Cancel', async () => {
    const run = await findscu(AET_C, keys, '-S', { extract: false, extraArgs: ['--cancel', '5'] });
    expect(run.exitCode, run.output.slice(-2000)).toBe(0);
    expect(pendingCount(run)).toBeGreaterThanOrEqual(5);
    expect(pendingCount(run)).toBeLessThan(BULK);
    expect(run.output).toMatch(/Received Final Find Response \(Cancel/);
  });
});
