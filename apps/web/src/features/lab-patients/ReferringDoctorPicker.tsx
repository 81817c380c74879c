import Autocomplete from '@mui/material/Autocomplete';
import TextField from '@mui/material/TextField';
import { MESSAGES, type TBillDoctor, type TReferringDoctor, referringDoctorLabel } from '@radflow/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useDebouncedValue } from '../../lib/useDebouncedValue';
import { LAB_DOCTORS_QUERY_ROOT, searchReferringDoctors } from './lab-patients-api';
import { TYPEAHEAD_DEBOUNCE_MS } from './lab-form';

export const DOCTOR_PICKER_HINT = 'Type a name or mobile number';

/**
 * Pick an active referring doctor as you type (POST /api/lab/referring-doctor/search with active
 * true, reading `content`; spec-lab §7). Blank text asks nothing (spec-lab §5).
 */
export function ReferringDoctorPicker<D extends TBillDoctor = TReferringDoctor>({
  value,
  onChange,
  label = 'Referring doctor',
  error,
  disabled = false,
}: {
  /** A found doctor, or (the bill screen) the doctor a saved bill names. */
  value: D | null;
  onChange: (doctor: D | TReferringDoctor | null) => void;
  label?: string;
  error?: string;
  disabled?: boolean;
}) {
  const [input, setInput] = useState('');
  const typed = useDebouncedValue(input.trim(), TYPEAHEAD_DEBOUNCE_MS);
  const text = value && typed === referringDoctorLabel(value) ? '' : typed;
  const query = useQuery({
    queryKey: [...LAB_DOCTORS_QUERY_ROOT, 'picker', text],
    queryFn: async ({ signal }) =>
      (await searchReferringDoctors({ mobileOrName: text, active: true, criteria: { size: 20 } }, signal))
        .content,
    enabled: text !== '',
    placeholderData: keepPreviousData,
    staleTime: 10_000,
  });
  const options: (D | TReferringDoctor)[] = text ? (query.data ?? []) : value ? [value] : [];
  return (
    <Autocomplete<D | TReferringDoctor>
      options={options}
      value={value}
      onChange={(_e, next) => onChange(next)}
      inputValue={input}
      onInputChange={(_e, next) => setInput(next)}
      getOptionLabel={referringDoctorLabel}
      isOptionEqualToValue={(a, b) => a.id === b.id}
      filterOptions={(all) => all}
      noOptionsText={input.trim() ? MESSAGES.noResultFound : DOCTOR_PICKER_HINT}
      loading={query.isFetching}
      disabled={disabled}
      renderOption={(props, option) => (
        <li {...props} key={option.id}>
          {referringDoctorLabel(option)}
        </li>
      )}
      renderInput={(params) => (
        <TextField {...params} label={label} error={Boolean(error)} helperText={error} />
      )}
    />
  );
}
