import {
  ZLabPatient,
  ZLabPatientPage,
  ZReferringDoctor,
  ZReferringDoctorPage,
  ZRegisterPatientSearchAnswer,
  type TAllPatientSearch,
  type TLabPatient,
  type TLabPatientInput,
  type TLabPatientPage,
  type TReferringDoctor,
  type TReferringDoctorInput,
  type TReferringDoctorPage,
  type TReferringDoctorSearchInput,
  type TReferringDoctorUpdate,
  type TRegisterPatientSearch,
} from '@radflow/core';
import { apiRequest } from '../../api/client';

/** The patient and referring doctor calls of spec-lab §7 Lab. */

/** The root of every query key here: a save refetches the lists and the pickers together. */
export const LAB_PATIENTS_QUERY_ROOT = ['lab-patients'] as const;
export const LAB_DOCTORS_QUERY_ROOT = ['lab-referring-doctors'] as const;

/** POST (new) or PUT (with id and version) /api/lab/register-patient. Failures are the caller's to show. */
export function savePatient(
  patient: TLabPatientInput,
  existing: Pick<TLabPatient, 'id' | 'version'> | null,
): Promise<TLabPatient> {
  return apiRequest('/api/lab/register-patient', {
    method: existing ? 'PUT' : 'POST',
    json: existing ? { ...patient, id: existing.id, version: existing.version } : patient,
    schema: ZLabPatient,
    quiet: true,
  });
}

export function fetchPatient(id: number, signal?: AbortSignal): Promise<TLabPatient> {
  return apiRequest(`/api/lab/register-patient/${id}`, { schema: ZLabPatient, signal });
}

/** The search as you type (name or mobile prefix). */
export function searchPatients(body: TRegisterPatientSearch, signal?: AbortSignal): Promise<TLabPatient[]> {
  return apiRequest('/api/lab/register-patient/search', {
    json: body,
    schema: ZRegisterPatientSearchAnswer,
    signal,
  });
}

export function searchAllPatients(
  body: Partial<TAllPatientSearch>,
  signal?: AbortSignal,
): Promise<TLabPatientPage> {
  return apiRequest('/api/lab/all-patient/search', { json: body, schema: ZLabPatientPage, signal });
}

/** POST (new) or PUT (with id, version, active) /api/lab/referring-doctor. Failures are the caller's. */
export function saveReferringDoctor(
  doctor: TReferringDoctorInput | TReferringDoctorUpdate,
): Promise<TReferringDoctor> {
  return apiRequest('/api/lab/referring-doctor', {
    method: 'id' in doctor ? 'PUT' : 'POST',
    json: doctor,
    schema: ZReferringDoctor,
    quiet: true,
  });
}

export function searchReferringDoctors(
  body: TReferringDoctorSearchInput,
  signal?: AbortSignal,
): Promise<TReferringDoctorPage> {
  return apiRequest('/api/lab/referring-doctor/search', { json: body, schema: ZReferringDoctorPage, signal });
}
