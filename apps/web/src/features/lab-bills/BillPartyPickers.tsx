import Autocomplete from '@mui/material/Autocomplete';
import TextField from '@mui/material/TextField';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { apiRequest } from '../../api/client';
import { useDebouncedValue } from '../../lib/useDebouncedValue';

/**
 * The bill's patient and referring-doctor pickers (spec-lab §2 Bill screen, §5 "Patient and doctor
 * search return nothing for empty text", §7: the picker forces active doctors and reads `content`).
 * Small stand-ins kept in this one file: at merge the lead swaps them for the lab-patients module's
 * shared PatientPicker / ReferringDoctorPicker, which take the same value/onChange.
 */

export interface TBillPatient {
  id: number;
  uhidNumber: string;
  name: string;
  mobileNumber: string | null;
  gender?: string;
  designation?: string;
  ageString?: string;
}

export interface TBillDoctor {
  id: number;
  name: string;
  mobileNumber: string | null;
  department: string | null;
}

export const PATIENT_PICKER_LABEL = 'Patient';
export const DOCTOR_PICKER_LABEL = 'Referring Doctor';
const SEARCH_DELAY_MS = 300;

/** Digits search the mobile number, anything else the name; blank searches nothing. */
export function patientSearchBody(text: string): { mobileNumber?: string; name?: string } | null {
  const value = text.trim();
  if (!value) return null;
  return /^\d+$/.test(value) ? { mobileNumber: value.slice(0, 10) } : { name: value };
}

export function patientOptionLabel(p: TBillPatient): string {
  return [
    p.designation ? `${p.designation} ${p.name}` : p.name,
    p.ageString,
    p.gender,
    p.mobileNumber,
    p.uhidNumber,
  ]
    .filter(Boolean)
    .join(' · ');
}

export function doctorOptionLabel(d: TBillDoctor): string {
  return [d.name, d.department, d.mobileNumber].filter(Boolean).join(' · ');
}

async function searchPatients(text: string, signal: AbortSignal): Promise<TBillPatient[]> {
  const body = patientSearchBody(text);
  if (!body) return [];
  const answer = await apiRequest<TBillPatient[] | { content: TBillPatient[] }>(
    '/api/lab/register-patient/search',
    { json: body, signal },
  );
  return Array.isArray(answer) ? answer : (answer?.content ?? []);
}

async function searchDoctors(text: string, signal: AbortSignal): Promise<TBillDoctor[]> {
  const mobileOrName = text.trim();
  if (!mobileOrName) return [];
  const answer = await apiRequest<{ content: TBillDoctor[] }>('/api/lab/referring-doctor/search', {
    json: { mobileOrName, active: true },
    signal,
  });
  return answer?.content ?? [];
}

function usePartySearch<T>(kind: string, text: string, search: (t: string, s: AbortSignal) => Promise<T[]>) {
  const settled = useDebouncedValue(text.trim(), SEARCH_DELAY_MS);
  return useQuery({
    queryKey: ['lab', 'bill-party', kind, settled],
    queryFn: ({ signal }) => search(settled, signal),
    enabled: settled.length > 0,
    staleTime: 30_000,
  });
}

export function BillPatientPicker({
  value,
  onChange,
  disabled,
}: {
  value: TBillPatient | null;
  onChange(patient: TBillPatient | null): void;
  disabled?: boolean;
}) {
  const [text, setText] = useState('');
  const query = usePartySearch('patient', text, searchPatients);
  return (
    <Autocomplete
      options={query.data ?? []}
      value={value}
      disabled={disabled}
      onChange={(_, next) => onChange(next)}
      inputValue={text}
      onInputChange={(_, next) => setText(next)}
      filterOptions={(options) => options}
      getOptionLabel={patientOptionLabel}
      isOptionEqualToValue={(a, b) => a.id === b.id}
      loading={query.isFetching}
      noOptionsText={text.trim() ? 'No patient found' : 'Type a name or mobile number'}
      renderInput={(params) => <TextField {...params} label={PATIENT_PICKER_LABEL} required />}
      sx={{ minWidth: 320, flex: 1 }}
    />
  );
}

export function BillDoctorPicker({
  value,
  onChange,
}: {
  value: TBillDoctor | null;
  onChange(doctor: TBillDoctor | null): void;
}) {
  const [text, setText] = useState('');
  const query = usePartySearch('doctor', text, searchDoctors);
  return (
    <Autocomplete
      options={query.data ?? []}
      value={value}
      onChange={(_, next) => onChange(next)}
      inputValue={text}
      onInputChange={(_, next) => setText(next)}
      filterOptions={(options) => options}
      getOptionLabel={doctorOptionLabel}
      isOptionEqualToValue={(a, b) => a.id === b.id}
      loading={query.isFetching}
      noOptionsText={text.trim() ? 'No referring doctor found' : 'Type a name or mobile number'}
      renderInput={(params) => <TextField {...params} label={DOCTOR_PICKER_LABEL} />}
      sx={{ minWidth: 280, flex: 1 }}
    />
  );
}

/** The patient named by ?patientId= (the registration screen sends it): GET /api/lab/register-patient/{id}. */
export function fetchPatientById(id: number, signal?: AbortSignal): Promise<TBillPatient> {
  return apiRequest<TBillPatient>(`/api/lab/register-patient/${id}`, { signal });
}
