import type { TLabPatient, TReferringDoctor } from '@radflow/core';
import { toPageResponse } from '@radflow/core';

let counter = 0;

/** A patient as the lab calls answer it; unique id and UHID per call. */
export function buildPatient(overrides: Partial<TLabPatient> = {}): TLabPatient {
  counter += 1;
  return {
    id: 500 + counter,
    uhidNumber: `UH${1000 + counter}`,
    name: `Patient ${counter}`,
    mobileNumber: '9876543210',
    email: null,
    address: null,
    gender: 'M',
    designation: 'MR',
    weight: null,
    dateBirth: null,
    ageString: '34Y',
    ageYears: 34,
    ageMonths: 0,
    ageDays: 0,
    createdAt: '2026-11-27T10:00:00.000Z',
    version: 1,
    ...overrides,
  };
}

export function buildDoctor(overrides: Partial<TReferringDoctor> = {}): TReferringDoctor {
  counter += 1;
  return {
    id: 700 + counter,
    name: `Dr Doctor ${counter}`,
    mobileNumber: null,
    department: null,
    active: true,
    createdAt: '2026-11-27T10:00:00.000Z',
    version: 1,
    ...overrides,
  };
}

export const pageOf = <T>(rows: T[], total = rows.length, page = 0, size = 20) =>
  toPageResponse(rows, total, page, size);

export const LAB_PREFERENCES = {
  LAB_SLOTS: { slots: [] },
  LAB_CATEGORY_PRIORITY: { categoriesAndPriorities: [] },
  LAB_TEST_ATTRIBUTES: { data: [] },
  LAB_DEPARTMENTS: {
    labDepartmentList: ['RADIOLOGY'],
    referringDoctorDepartmentList: ['CARDIOLOGY', 'ORTHOPAEDICS'],
  },
};
