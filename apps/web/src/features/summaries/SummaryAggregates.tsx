import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import {
  SUMMARY_WINDOW_LABELS,
  TIMELY_SIGN_OFF_MINUTES,
  type TSummaryAggregate,
  type TSummaryWindow,
} from '@radflow/core';

const COLUMNS: Array<[keyof TSummaryAggregate, string]> = [
  ['totalCases', 'Total cases'],
  ['completedCases', 'Completed'],
  ['signedOffWithinLimit', `Signed off within ${TIMELY_SIGN_OFF_MINUTES} min`],
  ['uniquePatients', 'Unique patients'],
];

/**
 * The aggregates of the Advanced Search Report Summary (spec-core §7 /query/report-summary): one
 * table per window (the selected range, today, the last 7 and 30 days), a row per center e-mail and
 * the caller's total.
 */
export function SummaryAggregates({ windows }: { windows: readonly TSummaryWindow[] }) {
  return (
    <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: 'repeat(auto-fit, minmax(420px, 1fr))', mb: 2 }}>
      {windows.map((w) => (
        <Paper key={w.key} variant="outlined" sx={{ p: 1.5 }} data-testid={`summary-window-${w.key}`}>
          <Typography variant="subtitle2" component="h2">
            {SUMMARY_WINDOW_LABELS[w.key]}{' '}
            <Typography component="span" variant="caption" color="textSecondary">
              {w.startTime === w.endTime ? w.startTime : `${w.startTime} – ${w.endTime}`}
            </Typography>
          </Typography>
          <Table size="small" aria-label={`${SUMMARY_WINDOW_LABELS[w.key]} by center`}>
            <TableHead>
              <TableRow>
                <TableCell>Center</TableCell>
                {COLUMNS.map(([key, label]) => (
                  <TableCell key={key} align="right">
                    {label}
                  </TableCell>
                ))}
              </TableRow>
            </TableHead>
            <TableBody>
              {w.centers.map((c) => (
                <TableRow key={c.centerEmail}>
                  <TableCell title={c.centerEmail}>{c.centerName || c.centerEmail}</TableCell>
                  {COLUMNS.map(([key]) => (
                    <TableCell key={key} align="right">
                      {c[key]}
                    </TableCell>
                  ))}
                </TableRow>
              ))}
              <TableRow data-testid={`summary-window-${w.key}-total`}>
                <TableCell sx={{ fontWeight: 600 }}>Total</TableCell>
                {COLUMNS.map(([key]) => (
                  <TableCell key={key} align="right" sx={{ fontWeight: 600 }}>
                    {w.group[key]}
                  </TableCell>
                ))}
              </TableRow>
            </TableBody>
          </Table>
        </Paper>
      ))}
    </Box>
  );
}
