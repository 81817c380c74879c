import TextField from '@mui/material/TextField';

/** The accessible names of the two date inputs (the tests and e2e stories find them by these). */
export const START_DATE_LABEL = 'Start date';
export const END_DATE_LABEL = 'End date';

/**
 * The date range of a study table (spec-core §3 search-table request startTime/endTime; §9 date
 * format yyyy-MM-dd): two native date inputs, which give exactly that format (no date-picker
 * library: the study list's bundle budget, issue 4 §5). The list calls read both bounds as whole
 * days, the end included. Each bound limits the other's picker so a range cannot be reversed there.
 */
export function DateRangeFilter({
  startTime,
  endTime,
  onChange,
}: {
  startTime: string | null | undefined;
  endTime: string | null | undefined;
  /** One bound at a time, as the input gives it: 'yyyy-MM-dd', or '' when emptied. */
  onChange(range: { startTime?: string; endTime?: string }): void;
}) {
  return (
    <>
      <TextField
        type="date"
        size="small"
        label={START_DATE_LABEL}
        value={startTime ?? ''}
        onChange={(e) => onChange({ startTime: e.target.value })}
        slotProps={{ inputLabel: { shrink: true }, htmlInput: { max: endTime ?? undefined } }}
        sx={{ width: 160 }}
      />
      <TextField
        type="date"
        size="small"
        label={END_DATE_LABEL}
        value={endTime ?? ''}
        onChange={(e) => onChange({ endTime: e.target.value })}
        slotProps={{ inputLabel: { shrink: true }, htmlInput: { min: startTime ?? undefined } }}
        sx={{ width: 160 }}
      />
    </>
  );
}
