import DownloadIcon from '@mui/icons-material/FileDownloadOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import Link from '@mui/material/Link';
import { BarChart } from '@mui/x-charts/BarChart';
import { useId, useState } from 'react';
import { saveFile } from '../report-documents/report-documents.api';
import { csvFileName, toCsv } from './dashboard-csv';
import { type TChartSpec, drillTargetOf } from './dashboard-charts';
import type { TDashboardRange, TDrillDownTarget } from './dashboards.api';

/** Bars per category before a chart grows taller (horizontal charts list centers and doctors). */
const ROW_HEIGHT = 34;

/**
 * One chart of a dashboard: its bars (click one for the studies behind it), the same numbers as a
 * table (each a link to the same list), and 'Export CSV' of exactly those numbers.
 */
export function ChartCard({
  spec,
  range,
  onDrill,
}: {
  spec: TChartSpec;
  range: TDashboardRange;
  onDrill: (target: TDrillDownTarget) => void;
}) {
  const [view, setView] = useState<'chart' | 'table'>('chart');
  const titleId = useId();
  const header = [
    spec.categoryLabel,
    ...spec.series.map((s) => s.label),
    ...spec.extraColumns.map((c) => c.label),
  ];
  const rows = spec.categories.map((category, i) => [
    category,
    ...spec.series.map((s) => s.values[i] ?? 0),
    ...spec.extraColumns.map((c) => c.values[i] ?? null),
  ]);
  const exportCsv = () =>
    saveFile(
      new Blob([toCsv(header, rows)], { type: 'text/csv;charset=utf-8' }),
      csvFileName(spec.title, range.startTime, range.endTime),
    );
  const drill = (s: number, i: number) => {
    const target = drillTargetOf(spec, s, i);
    if (target) onDrill(target);
  };
  const isEmpty = spec.series.every((s) => s.values.every((v) => v === 0));
  const dataset = spec.categories.map((category, i) => ({
    category,
    ...Object.fromEntries(spec.series.map((s) => [s.id, s.values[i] ?? 0])),
  }));
  const band = { scaleType: 'band' as const, dataKey: 'category' };
  const height = spec.horizontal ? Math.max(160, 60 + spec.categories.length * ROW_HEIGHT) : 260;

  return (
    <Paper
      component="section"
      aria-labelledby={titleId}
      data-chart={spec.id}
      variant="outlined"
      sx={{ p: 2, display: 'flex', flexDirection: 'column', gap: 1, minWidth: 0 }}
    >
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
        <Typography id={titleId} variant="h2" sx={{ flex: 1, fontSize: '1.05rem' }}>
          {spec.title}
        </Typography>
        <ToggleButtonGroup
          size="small"
          exclusive
          value={view}
          onChange={(_, v: 'chart' | 'table' | null) => v && setView(v)}
          aria-label={`${spec.title}: show as`}
        >
          <ToggleButton value="chart">Chart</ToggleButton>
          <ToggleButton value="table">Table</ToggleButton>
        </ToggleButtonGroup>
        <Button size="small" startIcon={<DownloadIcon />} onClick={exportCsv}>
          Export CSV
        </Button>
      </Box>
      <Typography variant="body2" color="text.secondary">
        {spec.caption}
      </Typography>
      {view === 'chart' ? (
        isEmpty ? (
          <Typography sx={{ py: 4, textAlign: 'center' }} color="text.secondary">
            Nothing in this range
          </Typography>
        ) : (
          <BarChart
            dataset={dataset}
            height={height}
            layout={spec.horizontal ? 'horizontal' : 'vertical'}
            // Counts: whole-number ticks on the value axis.
            {...(spec.horizontal
              ? { yAxis: [{ ...band, width: 140 }], xAxis: [{ tickMinStep: 1 }] }
              : { xAxis: [band], yAxis: [{ tickMinStep: 1 }] })}
            series={spec.series.map((s) => ({ id: s.id, dataKey: s.id, label: s.label }))}
            hideLegend={spec.series.length < 2}
            onItemClick={(_, item) =>
              drill(
                spec.series.findIndex((s) => s.id === item.seriesId),
                item.dataIndex,
              )
            }
            skipAnimation
          />
        )
      ) : (
        <Box sx={{ overflowX: 'auto' }}>
          <Table size="small" aria-label={spec.title}>
            <TableHead>
              <TableRow>
                {header.map((h) => (
                  <TableCell key={h}>{h}</TableCell>
                ))}
              </TableRow>
            </TableHead>
            <TableBody>
              {spec.categories.map((category, i) => (
                <TableRow key={`${category}-${spec.keys[i] ?? i}`}>
                  <TableCell component="th" scope="row">
                    {category}
                  </TableCell>
                  {spec.series.map((s, si) => (
                    <TableCell key={s.id}>
                      <Link
                        component="button"
                        type="button"
                        aria-label={`${s.label}, ${category}: ${s.values[i] ?? 0}`}
                        onClick={() => drill(si, i)}
                      >
                        {s.values[i] ?? 0}
                      </Link>
                    </TableCell>
                  ))}
                  {spec.extraColumns.map((c) => (
                    <TableCell key={c.label}>{c.values[i] ?? '—'}</TableCell>
                  ))}
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </Box>
      )}
    </Paper>
  );
}
