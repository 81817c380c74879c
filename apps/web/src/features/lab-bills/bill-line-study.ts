import {
  PATIENT_AGE_MAX,
  PATIENT_SEXES,
  UHID_MAX,
  billLineStudyRefusal,
  type TBill,
  type TBillLine,
} from '@radflow/core';
import { EMPTY_CREATE_STUDY_FORM, type TCreateStudyForm } from '../create-study/create-study-form';

/** A bill's test line that may still get a study (issue 25 §6 "Create Study from a bill"; core's rule). */
export function canCreateStudyForLine(bill: TBill, line: TBillLine): boolean {
  return billLineStudyRefusal(bill.status, line) === null;
}

const isSex = (value: string): boolean => (PATIENT_SEXES as readonly string[]).includes(value);

/**
 * The Create Study form for a line, from what the bill already knows: the patient (name, UHID as
 * UHID and patient id, age, sex), the test (modality, name as the study name), the referring doctor
 * and the lab's center. Cut to the form's limits; what the bill lacks (or a modality Create Study
 * does not offer) stays empty for the dialog to ask.
 */
export function createStudyFormOfLine(
  bill: TBill,
  line: TBillLine,
  centerId: number,
  /** What Create Study offers (core modalities, the extra ones under showExtraModalityType). */
  modalities: readonly string[],
): TCreateStudyForm {
  const { patient } = bill;
  return {
    ...EMPTY_CREATE_STUDY_FORM,
    patientName: patient.name.slice(0, 64),
    uhid: patient.uhidNumber.slice(0, UHID_MAX),
    patientId: patient.uhidNumber.slice(0, 64),
    labModality: modalities.includes(line.labModality) ? line.labModality : '',
    patientAge: patient.ageString.slice(0, PATIENT_AGE_MAX),
    patientSex: isSex(patient.gender) ? patient.gender : '',
    center: String(centerId),
    studyName: line.testName.slice(0, 64),
    referringPhysicianName: bill.referringDoctor?.name.slice(0, 64) ?? '',
  };
}
