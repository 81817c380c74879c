import {
  NO_REGION_LABEL,
  OPEN_AGE_BUCKETS,
  type TDashboard,
  type TDashboardMetric,
  withinLimitShare,
} from '@radflow/core';
import type { TDrillDownTarget } from './dashboards.api';

/**
 * What each chart of a dashboard shows, from the one answer of GET /api/dashboard: its bars, the
 * list behind each bar (the metric and key the server counts it by) and the columns of its export.
 * Pure, so the charts, their tables and their CSV can never disagree.
 */

export type TDashboardVariant = 'detailed' | 'viewer' | 'region';

export interface TChartSeries {
  id: string;
  label: string;
  values: number[];
  metric: TDashboardMetric;
}

export interface TChartSpec {
  id: string;
  title: string;
  caption: string;
  /** The heading of the category column ('Day', 'Center', ...). */
  categoryLabel: string;
  categories: string[];
  /** The drill-down key of each category, for every series. */
  keys: string[];
  series: TChartSeries[];
  /** Numbers shown in the table and the export beside the bars, not drillable. */
  extraColumns: Array<{ label: string; values: Array<string | number | null> }>;
  /** Bars along the y axis (long names: centers, doctors). */
  horizontal: boolean;
}

/** Minutes as '45 min' or '26 h 5 min'; '—' when there is nothing to measure. */
export function formatMinutes(minutes: number | null): string {
  if (minutes === null) return '—';
  const whole = Math.round(minutes);
  if (whole < 60) return `${whole} min`;
  const h = Math.floor(whole / 60);
  const m = whole % 60;
  return m === 0 ? `${h} h` : `${h} h ${m} min`;
}

/** A share 0..1 as a whole percentage; '—' when there is none. */
export function formatShare(share: number | null): string {
  return share === null ? '—' : `${Math.round(share * 100)} %`;
}

const regionName = (region: string) => region || NO_REGION_LABEL;

/** The list behind one bar: series `s`, category `i`. */
function drillTarget(spec: TChartSpec, s: number, i: number): TDrillDownTarget | null {
  const series = spec.series[s];
  const key = spec.keys[i];
  const category = spec.categories[i];
  if (!series || key === undefined || category === undefined) return null;
  return { metric: series.metric, key, title: `${series.label} — ${category}` };
}

function volumesByDay(d: TDashboard): TChartSpec {
  return {
    id: 'volumes-by-day',
    title: 'Volumes by day',
    caption: 'Studies uploaded and signed off on each day of the range.',
    categoryLabel: 'Day',
    categories: d.byDay.map((r) => r.day),
    keys: d.byDay.map((r) => r.day),
    series: [
      { id: 'uploaded', label: 'Uploaded', values: d.byDay.map((r) => r.uploaded), metric: 'UPLOADED_DAY' },
      {
        id: 'signedOff',
        label: 'Signed off',
        values: d.byDay.map((r) => r.signedOff),
        metric: 'SIGNED_OFF_DAY',
      },
    ],
    extraColumns: [],
    horizontal: false,
  };
}

function byModality(d: TDashboard): TChartSpec {
  return {
    id: 'by-modality',
    title: 'Uploaded by modality',
    caption: 'Studies uploaded in the range, by the modalities the study list shows.',
    categoryLabel: 'Modality',
    categories: d.byModality.map((r) => r.modality || 'Unknown'),
    keys: d.byModality.map((r) => r.modality),
    series: [
      { id: 'uploaded', label: 'Uploaded', values: d.byModality.map((r) => r.uploaded), metric: 'MODALITY' },
    ],
    extraColumns: [],
    horizontal: false,
  };
}

function byCenter(d: TDashboard, withRegion: boolean): TChartSpec {
  const rows = withRegion
    ? [...d.byCenter].sort(
        (a, b) =>
          Number(a.region === '') - Number(b.region === '') ||
          a.region.localeCompare(b.region) ||
          a.centerName.localeCompare(b.centerName),
      )
    : d.byCenter;
  return {
    id: withRegion ? 'centers-by-region' : 'by-center',
    title: withRegion ? 'Centers by region' : 'By center',
    caption: 'Uploaded and signed off in the range, with the turnaround from upload to sign-off.',
    categoryLabel: 'Center',
    categories: rows.map((r) => (withRegion ? `${regionName(r.region)} · ${r.centerName}` : r.centerName)),
    keys: rows.map((r) => String(r.centerId)),
    series: [
      { id: 'uploaded', label: 'Uploaded', values: rows.map((r) => r.uploaded), metric: 'CENTER' },
      {
        id: 'signedOff',
        label: 'Signed off',
        values: rows.map((r) => r.signedOff),
        metric: 'CENTER_SIGNED_OFF',
      },
    ],
    extraColumns: [
      ...(withRegion ? [{ label: 'Region', values: rows.map((r) => regionName(r.region)) }] : []),
      { label: 'Open', values: rows.map((r) => r.open) },
      { label: 'Median turnaround', values: rows.map((r) => formatMinutes(r.medianMinutes)) },
      { label: '90th percentile', values: rows.map((r) => formatMinutes(r.p90Minutes)) },
      { label: 'Within limit', values: rows.map((r) => formatShare(withinLimitShare(r))) },
    ],
    horizontal: true,
  };
}

function byRegion(d: TDashboard): TChartSpec {
  return {
    id: 'by-region',
    title: 'By region',
    caption: 'Uploaded and signed off in the range by the region of each center.',
    categoryLabel: 'Region',
    categories: d.byRegion.map((r) => regionName(r.region)),
    keys: d.byRegion.map((r) => r.region),
    series: [
      { id: 'uploaded', label: 'Uploaded', values: d.byRegion.map((r) => r.uploaded), metric: 'REGION' },
      {
        id: 'signedOff',
        label: 'Signed off',
        values: d.byRegion.map((r) => r.signedOff),
        metric: 'REGION_SIGNED_OFF',
      },
    ],
    extraColumns: [
      { label: 'Open', values: d.byRegion.map((r) => r.open) },
      { label: 'Median turnaround', values: d.byRegion.map((r) => formatMinutes(r.medianMinutes)) },
      { label: 'Within limit', values: d.byRegion.map((r) => formatShare(withinLimitShare(r))) },
    ],
    horizontal: false,
  };
}

function turnaround(d: TDashboard): TChartSpec {
  const t = d.turnaround;
  return {
    id: 'turnaround',
    title: 'Turnaround',
    caption: `Signed off in the range within ${formatMinutes(d.signOffLimitMinutes)} of upload, and after. Median ${formatMinutes(t.medianMinutes)}, 90th percentile ${formatMinutes(t.p90Minutes)}.`,
    categoryLabel: 'Sign-off',
    categories: ['Within limit', 'Over limit'],
    keys: ['', ''],
    series: [
      {
        id: 'signedOff',
        label: 'Signed off',
        values: [t.withinLimit, t.signedOff - t.withinLimit],
        // Which list a bar opens depends on the bar: see drillTarget's caller.
        metric: 'WITHIN_LIMIT',
      },
    ],
    extraColumns: [],
    horizontal: false,
  };
}

function doctorThroughput(d: TDashboard): TChartSpec {
  return {
    id: 'doctor-throughput',
    title: 'Doctor throughput',
    caption: 'Studies each doctor signed off in the range, per day, with their turnaround.',
    categoryLabel: 'Doctor',
    categories: d.byDoctor.map((r) => r.doctorName),
    keys: d.byDoctor.map((r) => (r.doctorId === null ? 'none' : String(r.doctorId))),
    series: [
      { id: 'signedOff', label: 'Signed off', values: d.byDoctor.map((r) => r.signedOff), metric: 'DOCTOR' },
    ],
    extraColumns: [
      { label: 'Per day', values: d.byDoctor.map((r) => r.perDay) },
      { label: 'Median turnaround', values: d.byDoctor.map((r) => formatMinutes(r.medianMinutes)) },
      { label: 'Within limit', values: d.byDoctor.map((r) => formatShare(withinLimitShare(r))) },
    ],
    horizontal: true,
  };
}

function openByAge(d: TDashboard): TChartSpec {
  const label = new Map(OPEN_AGE_BUCKETS.map((b) => [b.key, b.label]));
  return {
    id: 'open-by-age',
    title: 'Open cases by age',
    caption: 'Studies uploaded in the range that are not signed off yet, by their age now.',
    categoryLabel: 'Age',
    categories: d.openByAge.map((r) => label.get(r.bucket) ?? r.bucket),
    keys: d.openByAge.map((r) => r.bucket),
    series: [{ id: 'open', label: 'Open', values: d.openByAge.map((r) => r.open), metric: 'OPEN_AGE' }],
    extraColumns: [],
    horizontal: false,
  };
}

/** The charts of a dashboard screen, in reading order. */
export function chartsOf(d: TDashboard, variant: TDashboardVariant): TChartSpec[] {
  if (variant === 'region') return [byRegion(d), byCenter(d, true), volumesByDay(d)];
  return [
    volumesByDay(d),
    turnaround(d),
    byModality(d),
    openByAge(d),
    ...(d.audience === 'doctor' ? [] : [byCenter(d, false)]),
    doctorThroughput(d),
  ];
}

/** The list behind a bar; the turnaround chart's two bars are two lists. */
export function drillTargetOf(spec: TChartSpec, s: number, i: number): TDrillDownTarget | null {
  if (spec.id === 'turnaround') {
    const within = i === 0;
    return {
      metric: within ? 'WITHIN_LIMIT' : 'OVER_LIMIT',
      title: within ? 'Signed off within the limit' : 'Signed off after the limit',
    };
  }
  return drillTarget(spec, s, i);
}
