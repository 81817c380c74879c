import Autocomplete from '@mui/material/Autocomplete';
import TextField from '@mui/material/TextField';
import { MESSAGES, type TBillPatient, type TLabPatient, patientLabel, patientSearchOf } from '@radflow/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useDebouncedValue } from '../../lib/useDebouncedValue';
import { LAB_PATIENTS_QUERY_ROOT, searchPatients } from './lab-patients-api';
import { TYPEAHEAD_DEBOUNCE_MS } from './lab-form';

export const PATIENT_PICKER_HINT = 'Type a name or mobile number';

/**
 * Find a patient as you type (POST /api/lab/register-patient/search): digits search the mobile
 * prefix, other text the name; blank text asks nothing (spec-lab §5). Used by the registration
 * screen and the bill screen. `onInputChange` hands the typed text out (to prefill a new patient).
 */
export function PatientPicker<P extends TBillPatient = TLabPatient>({
  value,
  onChange,
  label = 'Patient',
  onInputChange,
  error,
  disabled = false,
  autoFocus = false,
}: {
  /** A found patient, or (the bill screen) the patient a saved bill names. */
  value: P | null;
  onChange: (patient: P | TLabPatient | null) => void;
  label?: string;
  onInputChange?: (text: string) => void;
  error?: string;
  disabled?: boolean;
  autoFocus?: boolean;
}) {
  const [input, setInput] = useState('');
  const typed = useDebouncedValue(input, TYPEAHEAD_DEBOUNCE_MS);
  // A chosen patient's label in the box is not a search.
  const body = value && typed === patientLabel(value) ? null : patientSearchOf(typed);
  const query = useQuery({
    queryKey: [...LAB_PATIENTS_QUERY_ROOT, 'typeahead', body],
    queryFn: ({ signal }) => searchPatients(body!, signal),
    enabled: body !== null,
    placeholderData: keepPreviousData,
    staleTime: 10_000,
  });
  const options: (P | TLabPatient)[] = body ? (query.data ?? []) : value ? [value] : [];
  return (
    <Autocomplete<P | TLabPatient>
      options={options}
      value={value}
      onChange={(_e, next) => onChange(next)}
      inputValue={input}
      onInputChange={(_e, next) => {
        setInput(next);
        onInputChange?.(next);
      }}
      getOptionLabel={patientLabel}
      isOptionEqualToValue={(a, b) => a.id === b.id}
      // The server filters; the options are its answer.
      filterOptions={(all) => all}
      noOptionsText={input.trim() ? MESSAGES.noResultFound : PATIENT_PICKER_HINT}
      loading={query.isFetching}
      disabled={disabled}
      renderOption={(props, option) => (
        <li {...props} key={option.id}>
          {patientLabel(option)}
        </li>
      )}
      renderInput={(params) => (
        <TextField
          {...params}
          label={label}
          autoFocus={autoFocus}
          placeholder={PATIENT_PICKER_HINT}
          error={Boolean(error)}
          helperText={error}
        />
      )}
    />
  );
}
