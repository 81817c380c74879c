import Autocomplete from '@mui/material/Autocomplete';
import TextField from '@mui/material/TextField';
import { MESSAGES } from '@radflow/core';
import { useState } from 'react';
import { useDebouncedValue } from '../../lib/useDebouncedValue';
import { filterUserOptions } from './picker-filter';

/** spec-core §9: the search of a single-choice dropdown is debounced 100 ms. */
export const SINGLE_SEARCH_DEBOUNCE_MS = 100;

/**
 * A single-choice dropdown of users by e-mail with a debounced search and 'No result found' when
 * nothing matches (spec-core §8, §9).
 */
export function UserPicker({
  label,
  options,
  value,
  onChange,
  loading = false,
  disabled = false,
  error,
}: {
  label: string;
  options: readonly string[];
  value: string | null;
  onChange: (email: string | null) => void;
  loading?: boolean;
  disabled?: boolean;
  error?: string;
}) {
  const [input, setInput] = useState('');
  const search = useDebouncedValue(input, SINGLE_SEARCH_DEBOUNCE_MS);
  return (
    <Autocomplete
      options={options as string[]}
      value={value}
      onChange={(_e, next) => onChange(next)}
      inputValue={input}
      onInputChange={(_e, next) => setInput(next)}
      // The typed text filters once it settles; a chosen value shows every option again.
      filterOptions={(all) => (search === value ? all : filterUserOptions(all, search))}
      noOptionsText={MESSAGES.noResultFound}
      loading={loading}
      disabled={disabled}
      renderInput={(params) => (
        <TextField {...params} label={label} error={Boolean(error)} helperText={error} />
      )}
    />
  );
}
