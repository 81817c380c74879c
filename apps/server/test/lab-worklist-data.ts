import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { DicomJsonDataset } from '@radflow/dicom';
import { runTool } from '@radflow/dicom/test-support';
import type { TBillStatus, TSettlementStatus } from '@radflow/core';
import type { Db } from '../src/db/client.js';
import { TEST_CALLED_AET } from './archive/helpers.js';
import { labBillTests, labBills, labPatients, labReferringDoctors, labTests } from '../src/db/schema.js';

/**
 * Lab rows written straight into their tables (patients, doctors, tests and bills are other parts
 * of issue 25): what the worklist, the ingest link and the test-level dashboard read. Every row
 * belongs to one lab: `{ groupId, labScope, labOwnerId }` (CENTER scope: the center's id).
 */
export interface TTestLab {
  groupId: number;
  labScope: 'CENTER' | 'GROUP';
  labOwnerId: number;
}

export const centerLab = (groupId: number, centerId: number): TTestLab => ({
  groupId,
  labScope: 'CENTER',
  labOwnerId: centerId,
});

let serial = 0;
const next = () =>
  `${Date.now().toString(36)}${(++serial).toString(36)}${Math.random().toString(36).slice(2, 6)}`;

export async function insertLabPatient(
  db: Db,
  lab: TTestLab,
  opts: Partial<{ name: string; uhidNumber: string; gender: 'M' | 'F' | 'O'; dateBirth: string | null }> = {},
) {
  const [row] = await db
    .insert(labPatients)
    .values({
      ...lab,
      uhidNumber: opts.uhidNumber ?? `UH${next()}`.toUpperCase(),
      name: opts.name ?? 'Test Patient',
      gender: opts.gender ?? 'M',
      designation: 'MR',
      dateBirth: opts.dateBirth === undefined ? '1980-04-02' : opts.dateBirth,
      createdBy: 'test@radflow',
    })
    .returning();
  return row!;
}

export async function insertLabDoctor(
  db: Db,
  lab: TTestLab,
  opts: Partial<{ name: string; mobileNumber: string | null }> = {},
) {
  const [row] = await db
    .insert(labReferringDoctors)
    .values({
      ...lab,
      name: opts.name ?? 'Dr Referrer',
      mobileNumber: opts.mobileNumber === undefined ? '9876543210' : opts.mobileNumber,
      createdBy: 'test@radflow',
    })
    .returning();
  return row!;
}

export async function insertLabTest(
  db: Db,
  lab: TTestLab,
  opts: Partial<{ testName: string; labModality: string; priceMinor: number }> = {},
) {
  const [row] = await db
    .insert(labTests)
    .values({
      ...lab,
      testCode: `T${next()}`,
      testName: opts.testName ?? 'CT Head Plain',
      testType: 'NORMAL',
      labModality: opts.labModality ?? 'CT',
      priceMinor: opts.priceMinor ?? 150_000,
      createdBy: 'test@radflow',
    })
    .returning();
  return row!;
}

export interface TTestBillLine {
  test: { id: number; testName: string; labModality: string; testCode?: string };
  accessionNumber?: string;
  settlementStatus?: TSettlementStatus;
  appointment?: { name: string; start: Date; end: Date } | null;
}

/** A bill with its lines, as the bill save would leave it (totals are not checked by the readers). */
export async function insertLabBill(
  db: Db,
  lab: TTestLab,
  opts: {
    patientId: number;
    referringDoctorId?: number | null;
    status?: TBillStatus;
    billDate?: Date;
    dueMinor?: number;
    categories?: { name: string; type: 'PATIENT_CATEGORY' | 'PRIORITY'; discount: number }[];
    lines: TTestBillLine[];
  },
) {
  const billDate = opts.billDate ?? new Date();
  const [bill] = await db
    .insert(labBills)
    .values({
      ...lab,
      invoiceNumber: `INV${next()}`.toUpperCase(),
      status: opts.status ?? 'OPEN',
      billDate,
      initialBillDate: billDate,
      patientId: opts.patientId,
      referringDoctorId: opts.referringDoctorId ?? null,
      categories: opts.categories ?? [],
      totalMinor: 150_000,
      finalMinor: 150_000,
      dueMinor: opts.dueMinor ?? 0,
      paymentMethod: 'UPI',
      createdBy: 'test@radflow',
    })
    .returning();
  const lines = await db
    .insert(labBillTests)
    .values(
      opts.lines.map((line, position) => ({
        billId: bill!.id,
        position,
        labTestId: line.test.id,
        testCode: line.test.testCode ?? 'CODE',
        testName: line.test.testName,
        labModality: line.test.labModality,
        department: 'RADIOLOGY',
        originalPriceMinor: 150_000,
        priceMinor: 150_000,
        settlementStatus: line.settlementStatus ?? 'FULL_PRICE',
        appointmentName: line.appointment?.name ?? null,
        startTimeOfAppointment: line.appointment?.start ?? null,
        endTimeOfAppointment: line.appointment?.end ?? null,
        accessionNumber: line.accessionNumber ?? `ACC${next()}`.toUpperCase().slice(0, 16),
      })),
    )
    .returning();
  return { bill: bill!, lines };
}

export interface FindRun {
  exitCode: number | null;
  output: string;
  matches: DicomJsonDataset[];
}

/** `findscu -W -X -k …` against our port; each pending response read back with dcm2json. */
export async function findWorklist(port: number, callingAet: string, keys: string[]): Promise<FindRun> {
  const dir = await mkdtemp(path.join(tmpdir(), 'radflow-mwl-'));
  try {
    const run = await runTool('findscu', [
      '-W',
      '-v',
      '-X',
      '-od',
      dir,
      ...keys.flatMap((key) => ['-k', key]),
      '-aet',
      callingAet,
      '-aec',
      TEST_CALLED_AET,
      '127.0.0.1',
      String(port),
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
