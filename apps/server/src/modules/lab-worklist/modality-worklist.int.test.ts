import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { DicomJsonDataset } from '@radflow/dicom';
import { labBillTests } from '../../db/schema.js';
import type { DicomServices } from '../archive/dicom-services.js';
import { startTestDicomPort } from '../../../test/archive/helpers.js';
import { setAeTitles } from '../../../test/archive/fixtures.js';
import { type TestApp, createTestApp, createTestCenter, createTestGroup } from '../../../test/test-app.js';
import {
  type FindRun,
  centerLab,
  findWorklist,
  insertLabBill,
  insertLabDoctor,
  insertLabPatient,
  insertLabTest,
} from '../../../test/lab-worklist-data.js';

/**
 * The Modality Worklist SCP (PS3.4 K) proven with DCMTK `findscu -W`: a center's scanner sees its
 * own lab's scheduled procedures of a day (by modality, station, patient name), each with the keys
 * it asked, and never another center's or another group's.
 */

let t: TestApp;
let dicom: DicomServices;
const suffix = Math.random().toString(36).slice(2, 7).toUpperCase();
const AE_A = `MWLA${suffix}`;
const AE_A2 = `MWLC${suffix}`;
const AE_B = `MWLB${suffix}`;
const AE_OTHER_GROUP = `MWLG${suffix}`;

// The group's display time zone is the default, +05:30: 10:30 there is 05:00 UTC.
const DAY = '20260310';
const at = (iso: string) => new Date(iso);
const ids: Record<string, { accession: string; uid: string; lineId: number }> = {};

beforeAll(async () => {
  t = await createTestApp();
  const group = await createTestGroup(t.db);
  const centerA = await createTestCenter(t.db, { groupId: group.id });
  const centerB = await createTestCenter(t.db, { groupId: group.id });
  const otherGroup = await createTestGroup(t.db);
  const centerC = await createTestCenter(t.db, { groupId: otherGroup.id });
  await setAeTitles(t.db, centerA.id, [AE_A, AE_A2]);
  await setAeTitles(t.db, centerB.id, [AE_B]);
  await setAeTitles(t.db, centerC.id, [AE_OTHER_GROUP]);

  const labA = centerLab(group.id, centerA.id);
  const ravi = await insertLabPatient(t.db, labA, {
    name: 'Ravi Kumar',
    uhidNumber: `UHA${suffix}`,
    gender: 'M',
    dateBirth: '1979-02-14',
  });
  const doctor = await insertLabDoctor(t.db, labA, { name: 'Anil Mehta' });
  const ct = await insertLabTest(t.db, labA, { testName: 'CT Brain Plain', labModality: 'CT' });
  const mr = await insertLabTest(t.db, labA, { testName: 'MRI Knee', labModality: 'MR' });
  const dx = await insertLabTest(t.db, labA, { testName: 'X-Ray Chest PA', labModality: 'DX' });
  const keep = (name: string, line: { id: number; accessionNumber: string; studyInstanceUid: string }) =>
    (ids[name] = { accession: line.accessionNumber, uid: line.studyInstanceUid, lineId: line.id });

  // Scheduled: CT with an appointment at 10:30 (+05:30) on the day, and an MR billed that day at 09:15.
  const scheduled = await insertLabBill(t.db, labA, {
    patientId: ravi.id,
    referringDoctorId: doctor.id,
    status: 'SCHEDULED',
    billDate: at('2026-03-08T06:00:00Z'),
    lines: [
      {
        test: ct,
        appointment: { name: 'CT slot', start: at('2026-03-10T05:00:00Z'), end: at('2026-03-10T05:20:00Z') },
      },
    ],
  });
  keep('ct', scheduled.lines[0]!);
  const billed = await insertLabBill(t.db, labA, {
    patientId: ravi.id,
    billDate: at('2026-03-10T03:45:00Z'),
    lines: [{ test: mr }, { test: ct, settlementStatus: 'CANCEL' }],
  });
  keep('mr', billed.lines[0]!);
  keep('cancelledLine', billed.lines[1]!);
  // The next day, and a cancelled bill on the day.
  keep(
    'nextDay',
    (
      await insertLabBill(t.db, labA, {
        patientId: ravi.id,
        billDate: at('2026-03-11T04:00:00Z'),
        lines: [{ test: dx }],
      })
    ).lines[0]!,
  );
  keep(
    'cancelledBill',
    (
      await insertLabBill(t.db, labA, {
        patientId: ravi.id,
        status: 'CANCELLED',
        billDate: at('2026-03-10T04:00:00Z'),
        lines: [{ test: ct }],
      })
    ).lines[0]!,
  );
  // Just before the day begins in +05:30 (18:29 UTC the evening before): the 9th there.
  keep(
    'dayBefore',
    (
      await insertLabBill(t.db, labA, {
        patientId: ravi.id,
        billDate: at('2026-03-09T18:29:00Z'),
        lines: [{ test: mr }],
      })
    ).lines[0]!,
  );

  // Center B of the same group, and a center of another group: a Ravi each, the same day.
  const labB = centerLab(group.id, centerB.id);
  const raviB = await insertLabPatient(t.db, labB, { name: 'Ravi Shankar' });
  const ctB = await insertLabTest(t.db, labB, { labModality: 'CT' });
  keep(
    'centerB',
    (
      await insertLabBill(t.db, labB, {
        patientId: raviB.id,
        billDate: at('2026-03-10T05:00:00Z'),
        lines: [{ test: ctB }],
      })
    ).lines[0]!,
  );
  const labC = centerLab(otherGroup.id, centerC.id);
  const raviC = await insertLabPatient(t.db, labC, { name: 'Ravi Verma' });
  const ctC = await insertLabTest(t.db, labC, { labModality: 'CT' });
  keep(
    'otherGroup',
    (
      await insertLabBill(t.db, labC, {
        patientId: raviC.id,
        billDate: at('2026-03-10T05:00:00Z'),
        lines: [{ test: ctC }],
      })
    ).lines[0]!,
  );

  dicom = await startTestDicomPort(t);
});
afterAll(async () => {
  await dicom?.close();
  await t?.close();
});

const SPS = 'ScheduledProcedureStepSequence[0]';
const dayKeys = (day: string, extra: string[] = []) => [
  `${SPS}.ScheduledProcedureStepStartDate=${day}`,
  'AccessionNumber',
  ...extra,
];
const value = (match: DicomJsonDataset, tag: string) => match[tag]?.Value?.[0];
const step = (match: DicomJsonDataset) => (match['00400100']?.Value?.[0] ?? {}) as DicomJsonDataset;
const accessions = (run: FindRun) => run.matches.map((m) => String(value(m, '00080050'))).sort();
const expected = (...names: string[]) => names.map((n) => ids[n]!.accession).sort();

describe('Modality Worklist SCP with DCMTK findscu -W', () => {
  it("answers a day's scheduled procedures of the caller's center with every asked key", async () => {
    const run = await findWorklist(dicom.port, AE_A, [
      'PatientName',
      'PatientID',
      'PatientBirthDate',
      'PatientSex',
      'AccessionNumber',
      'ReferringPhysicianName',
      'RequestedProcedureDescription',
      'RequestedProcedureID',
      'StudyInstanceUID',
      `${SPS}.Modality`,
      `${SPS}.ScheduledStationAETitle`,
      `${SPS}.ScheduledProcedureStepStartDate=${DAY}`,
      `${SPS}.ScheduledProcedureStepStartTime`,
      `${SPS}.ScheduledProcedureStepDescription`,
      `${SPS}.ScheduledProcedureStepID`,
      `${SPS}.ScheduledPerformingPhysicianName`,
    ]);
    expect(run.exitCode, run.output).toBe(0);
    // Not the cancelled line, the cancelled bill, the next day, the evening before, nor B's or C's.
    expect(accessions(run)).toEqual(expected('ct', 'mr'));
    const ct = run.matches.find((m) => value(m, '00080050') === ids.ct!.accession)!;
    expect(value(ct, '00080005')).toBe('ISO_IR 192');
    expect(value(ct, '00100010')).toEqual({ Alphabetic: 'Ravi Kumar' });
    expect(value(ct, '00100020')).toBe(`UHA${suffix}`);
    expect(value(ct, '00100030')).toBe('19790214');
    expect(value(ct, '00100040')).toBe('M');
    expect(value(ct, '00080090')).toEqual({ Alphabetic: 'Anil Mehta' });
    expect(value(ct, '00321060')).toBe('CT Brain Plain');
    expect(value(ct, '00401001')).toBe(ids.ct!.accession);
    expect(value(ct, '0020000D')).toBe(ids.ct!.uid);
    expect(ids.ct!.uid).toMatch(/^2\.25\.[1-9]\d*$/);
    const sps = step(ct);
    expect(value(sps, '00080060')).toBe('CT');
    expect(value(sps, '00400001')).toBe(AE_A);
    expect(value(sps, '00400002')).toBe(DAY);
    expect(value(sps, '00400003')).toBe('103000');
    expect(value(sps, '00400007')).toBe('CT Brain Plain');
    expect(value(sps, '00400009')).toBe(ids.ct!.accession);
    // Asked for, not known: sent back empty.
    expect(sps['00400006']).toEqual({ vr: 'PN' });
    // The line without an appointment is scheduled at its bill's date: 09:15 there.
    const mr = run.matches.find((m) => value(m, '00080050') === ids.mr!.accession)!;
    expect(value(step(mr), '00400003')).toBe('091500');
    expect(value(step(mr), '00080060')).toBe('MR');
  });

  it('returns only the keys asked', async () => {
    const run = await findWorklist(dicom.port, AE_A, dayKeys(DAY, ['PatientName']));
    expect(run.exitCode, run.output).toBe(0);
    expect(run.matches.length).toBe(2);
    for (const match of run.matches) {
      expect(Object.keys(match).sort()).toEqual(['00080005', '00080050', '00100010', '00400100']);
      expect(Object.keys(step(match))).toEqual(['00400002']);
    }
  });

  it('matches the modality, the station AE title and a date range', async () => {
    const ct = await findWorklist(dicom.port, AE_A, dayKeys(DAY, [`${SPS}.Modality=CT`]));
    expect(accessions(ct)).toEqual(expected('ct'));
    const range = await findWorklist(dicom.port, AE_A, dayKeys('20260309-20260311'));
    expect(accessions(range)).toEqual(expected('ct', 'mr', 'nextDay', 'dayBefore'));
    const openEnded = await findWorklist(dicom.port, AE_A, dayKeys('20260311-'));
    expect(accessions(openEnded)).toEqual(expected('nextDay'));
    // Every station of the center is scheduled; a station of another center is none of ours.
    const station = await findWorklist(
      dicom.port,
      AE_A,
      dayKeys(DAY, [`${SPS}.ScheduledStationAETitle=${AE_A2}`]),
    );
    expect(accessions(station)).toEqual(expected('ct', 'mr'));
    expect(value(step(station.matches[0]!), '00400001')).toBe(AE_A2);
    const foreign = await findWorklist(
      dicom.port,
      AE_A,
      dayKeys(DAY, [`${SPS}.ScheduledStationAETitle=${AE_B}`]),
    );
    expect(foreign.exitCode, foreign.output).toBe(0);
    expect(foreign.matches).toEqual([]);
  });

  it('matches a patient name with wildcards case-insensitively, the patient id and the accession number', async () => {
    const wildcard = await findWorklist(dicom.port, AE_A, dayKeys('20260301-20260331', ['PatientName=rav*']));
    // Ravi Shankar (center B) and Ravi Verma (another group) are never the caller's.
    expect(accessions(wildcard)).toEqual(expected('ct', 'mr', 'nextDay', 'dayBefore'));
    const none = await findWorklist(dicom.port, AE_A, dayKeys('20260301-20260331', ['PatientName=shank*']));
    expect(none.matches).toEqual([]);
    const single = await findWorklist(dicom.port, AE_A, [
      `PatientName=R?vi K*`,
      `AccessionNumber=${ids.mr!.accession}`,
    ]);
    expect(accessions(single)).toEqual(expected('mr'));
    const byId = await findWorklist(dicom.port, AE_A, [`PatientID=UHA${suffix}`, 'AccessionNumber']);
    expect(accessions(byId)).toEqual(expected('ct', 'mr', 'nextDay', 'dayBefore'));
  });

  it("another center's scanner, and another group's, see only their own", async () => {
    const b = await findWorklist(dicom.port, AE_B, dayKeys(DAY, ['PatientName']));
    expect(accessions(b)).toEqual(expected('centerB'));
    const c = await findWorklist(dicom.port, AE_OTHER_GROUP, dayKeys(DAY));
    expect(accessions(c)).toEqual(expected('otherGroup'));
    // A's accession number asked by B matches nothing.
    const probe = await findWorklist(dicom.port, AE_B, [`AccessionNumber=${ids.ct!.accession}`]);
    expect(probe.matches).toEqual([]);
  });

  it('refuses a malformed date with 0xC000 (Unable to process)', async () => {
    const run = await findWorklist(dicom.port, AE_A, dayKeys('2026-03-10'));
    expect(run.matches).toEqual([]);
    expect(run.output).toContain('Failed: UnableToProcess');
  });

  it('the line keeps the Study Instance UID it was handed out with', async () => {
    const [row] = await t.db
      .select({ uid: labBillTests.studyInstanceUid })
      .from(labBillTests)
      .where(eq(labBillTests.id, ids.ct!.lineId));
    expect(row!.uid).toBe(ids.ct!.uid);
    const again = await findWorklist(dicom.port, AE_A, dayKeys(DAY, ['StudyInstanceUID']));
    expect(again.matches.map((m) => value(m, '0020000D')).sort()).toEqual([ids.ct!.uid, ids.mr!.uid].sort());
  });
});
