import { ageStringOf } from '@radflow/core';
import type { Tx } from '../../db/client.js';
import { labPatients, labPrefixes, labReferringDoctors, labTests } from '../../db/schema.js';

/**
 * The demo center's front desk (issue 25): a test catalogue a radiology center bills every day, three
 * referring doctors, a few registered patients and the center's invoice and UHID numbering, so the
 * demo receptionist can bill at once. Prices in rupees here, paise in the table.
 */
export const DEMO_LAB_PREFIX = { prefix: 'INV-', uhidPrefix: 'DIC-' };

export const DEMO_LAB_TESTS = [
  { testCode: 'CT001', testName: 'CT Brain Plain', labModality: 'CT', rupees: 2500 },
  { testCode: 'CT002', testName: 'CT Chest HRCT', labModality: 'CT', rupees: 4000 },
  { testCode: 'CT003', testName: 'CT Abdomen Contrast', labModality: 'CT', rupees: 6500 },
  { testCode: 'MR001', testName: 'MRI Brain Plain', labModality: 'MR', rupees: 6000 },
  { testCode: 'MR002', testName: 'MRI Knee', labModality: 'MR', rupees: 5500 },
  { testCode: 'MR003', testName: 'MRI Lumbar Spine', labModality: 'MR', rupees: 5800 },
  { testCode: 'DX001', testName: 'X-Ray Chest PA', labModality: 'DX', rupees: 400 },
  { testCode: 'DX002', testName: 'X-Ray Knee AP/LAT', labModality: 'DX', rupees: 500 },
  { testCode: 'US001', testName: 'USG Abdomen', labModality: 'US', rupees: 1200 },
  { testCode: 'US002', testName: 'USG Pelvis', labModality: 'US', rupees: 1000 },
  { testCode: 'MG001', testName: 'Mammography Bilateral', labModality: 'MG', rupees: 2200 },
] as const;

export const DEMO_REFERRING_DOCTORS = [
  { name: 'Dr. Anjali Mehta', mobileNumber: '9812345601' },
  { name: 'Dr. Rakesh Iyer', mobileNumber: '9812345602' },
  { name: 'Dr. Farhan Qureshi', mobileNumber: '9812345603' },
] as const;

export const DEMO_LAB_PATIENTS = [
  { name: 'Priya Sharma', designation: 'MRS', gender: 'F', ageYears: 34, mobileNumber: '9876543210' },
  { name: 'Rahul Verma', designation: 'MR', gender: 'M', ageYears: 52, mobileNumber: '9123456780' },
  { name: 'Sneha Patil', designation: 'MISS', gender: 'F', ageYears: 19, mobileNumber: '8765432109' },
  { name: 'Arjun Nair', designation: 'MASTER', gender: 'M', ageYears: 9, mobileNumber: '7654321098' },
] as const;

export async function seedDemoLab(
  tx: Tx,
  owner: { groupId: number; centerId: number; createdBy: string },
): Promise<void> {
  const lab = { groupId: owner.groupId, labScope: 'CENTER' as const, labOwnerId: owner.centerId };
  await tx.insert(labTests).values(
    DEMO_LAB_TESTS.map((t) => ({
      ...lab,
      testCode: t.testCode,
      testName: t.testName,
      testType: 'NORMAL' as const,
      labModality: t.labModality,
      priceMinor: t.rupees * 100,
      createdBy: owner.createdBy,
    })),
  );
  await tx
    .insert(labReferringDoctors)
    .values(DEMO_REFERRING_DOCTORS.map((d) => ({ ...lab, ...d, createdBy: owner.createdBy })));
  await tx.insert(labPatients).values(
    DEMO_LAB_PATIENTS.map((p, i) => ({
      ...lab,
      ...p,
      uhidNumber: `${DEMO_LAB_PREFIX.uhidPrefix}${i + 1}`,
      ageString: ageStringOf({ years: p.ageYears, months: 0, days: 0 }),
      createdBy: owner.createdBy,
    })),
  );
  await tx.insert(labPrefixes).values({
    scope: 'CENTER',
    ownerId: owner.centerId,
    prefix: DEMO_LAB_PREFIX.prefix,
    sequence: 1,
    uhidPrefix: DEMO_LAB_PREFIX.uhidPrefix,
    uhidSequence: DEMO_LAB_PATIENTS.length + 1,
    updatedBy: owner.createdBy,
  });
}
