import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';

/**
 * A list filter that is 'All' or one of its options (a modality, a report status): the lab lists'
 * and the bill screen's one way to draw it. '' stands for All.
 */
export function AllOrOneSelect<T extends string>({
  label,
  value,
  options,
  onChange,
  size,
  minWidth,
}: {
  label: string;
  value: T | '';
  options: readonly T[];
  onChange: (value: T | '') => void;
  size?: 'small' | 'medium';
  minWidth: number;
}) {
  return (
    <TextField
      select
      size={size}
      label={label}
      value={value}
      onChange={(e) => onChange(e.target.value as T | '')}
      sx={{ minWidth }}
    >
      <MenuItem value="">All</MenuItem>
      {options.map((option) => (
        <MenuItem key={option} value={option}>
          {option}
        </MenuItem>
      ))}
    </TextField>
  );
}
