import { isDecodableSyntax } from '@radflow/core';
import { numberOf, numbersOf, type TDicomJson } from '../data-source/dicom-json';

/** The modalities whose series MPR is offered for (issue 5 §3). */
export const MPR_MODALITIES: readonly string[] = ['CT', 'MR'];

export const MPR_GENERAL_REASON = 'MPR needs a series of evenly spaced parallel slices';

/** What the MPR button shows for the series in the active viewport. */
export type TMprAvailability =
  { state: 'absent' } | { state: 'disabled'; reason: string } | { state: 'ready' };

/** One image-bearing instance of the series as the rule reads it. */
export interface TVolumeSlice {
  metadata: TDicomJson;
  /** Frames in the instance (1 for a single-frame image). */
  frames: number;
  /** Stored transfer syntax UID ('' when unknown). */
  transferSyntaxUid: string;
}

const TAGS = {
  imagePositionPatient: '00200032',
  imageOrientationPatient: '00200037',
  rows: '00280010',
  columns: '00280011',
  pixelSpacing: '00280030',
} as const;

/** Direction cosines equal within ~0.5° (rounding in writers, not a different plane). */
const ORIENTATION_TOLERANCE = 0.01;
/** Pixel spacing equal within 0.1 % (decimal strings of the same value). */
const PIXEL_SPACING_TOLERANCE = 0.001;
/** Gaps between slices equal within 10 % of their median (and at least 0.01 mm). */
const SPACING_TOLERANCE = 0.1;
/** Two slices closer than this along the normal are the same position. */
const DUPLICATE_DISTANCE_MM = 0.01;

const dot = (a: readonly number[], b: readonly number[]) =>
  (a[0] ?? 0) * (b[0] ?? 0) + (a[1] ?? 0) * (b[1] ?? 0) + (a[2] ?? 0) * (b[2] ?? 0);
const cross = (a: readonly number[], b: readonly number[]): number[] => [
  (a[1] ?? 0) * (b[2] ?? 0) - (a[2] ?? 0) * (b[1] ?? 0),
  (a[2] ?? 0) * (b[0] ?? 0) - (a[0] ?? 0) * (b[2] ?? 0),
  (a[0] ?? 0) * (b[1] ?? 0) - (a[1] ?? 0) * (b[0] ?? 0),
];
const sameNumbers = (a: readonly number[], b: readonly number[], tolerance: number) =>
  a.length === b.length && a.every((v, i) => Math.abs(v - (b[i] ?? NaN)) <= tolerance);
const median = (values: readonly number[]) => {
  const sorted = [...values].sort((x, y) => x - y);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
};

const disabled = (detail: string): TMprAvailability => ({
  state: 'disabled',
  reason: `${MPR_GENERAL_REASON}: ${detail}.`,
});

/**
 * Whether a series forms a volume Cornerstone can reslice (issue 5 §3): CT or MR, at least 3
 * single-frame slices the browser can decode, one orientation, one matrix and pixel spacing, and
 * positions along the slice normal evenly spaced — no gaps, no duplicates, no gantry tilt. Anything
 * else would render a volume that looks valid and is not, so the button says why instead.
 */
export function mprAvailability(modality: string, slices: readonly TVolumeSlice[] | null): TMprAvailability {
  if (!MPR_MODALITIES.includes(modality.trim().toUpperCase())) return { state: 'absent' };
  if (slices === null) return { state: 'disabled', reason: 'MPR: the series is still loading.' };
  if (slices.length < 3) return disabled('it needs at least 3 slices');
  if (slices.some((s) => s.frames > 1)) return disabled('this series holds multi-frame images');
  if (slices.some((s) => !isDecodableSyntax(s.transferSyntaxUid))) {
    return disabled('the browser cannot decode some of its images');
  }

  const geometry = slices.map((s) => ({
    orientation: numbersOf(s.metadata, TAGS.imageOrientationPatient),
    position: numbersOf(s.metadata, TAGS.imagePositionPatient),
    rows: numberOf(s.metadata, TAGS.rows),
    columns: numberOf(s.metadata, TAGS.columns),
    pixelSpacing: numbersOf(s.metadata, TAGS.pixelSpacing),
  }));
  const [first] = geometry;
  if (
    !first ||
    geometry.some((g) => g.orientation.length !== 6 || g.position.length !== 3 || g.pixelSpacing.length !== 2)
  ) {
    return disabled('some slices have no position, orientation or pixel spacing');
  }
  if (geometry.some((g) => !sameNumbers(g.orientation, first.orientation, ORIENTATION_TOLERANCE))) {
    return disabled('its slices are not parallel');
  }
  if (
    geometry.some(
      (g) =>
        g.rows !== first.rows ||
        g.columns !== first.columns ||
        !sameNumbers(
          g.pixelSpacing,
          first.pixelSpacing,
          PIXEL_SPACING_TOLERANCE * (first.pixelSpacing[0] ?? 1),
        ),
    )
  ) {
    return disabled('its slices differ in size or pixel spacing');
  }

  const normal = cross(first.orientation.slice(0, 3), first.orientation.slice(3, 6));
  const ordered = geometry
    .map((g) => ({ position: g.position, depth: dot(g.position, normal) }))
    .sort((a, b) => a.depth - b.depth);
  const gaps = ordered.slice(1).map((s, i) => s.depth - (ordered[i]?.depth ?? 0));
  if (gaps.some((gap) => gap < DUPLICATE_DISTANCE_MM)) {
    return disabled('two or more slices share a position');
  }
  const typical = median(gaps);
  const tolerance = Math.max(DUPLICATE_DISTANCE_MM, typical * SPACING_TOLERANCE);
  if (gaps.some((gap) => Math.abs(gap - typical) > tolerance)) {
    return disabled('its slices are unevenly spaced or have gaps');
  }
  // Consecutive positions must step along the normal; a sideways step is a gantry tilt (sheared volume).
  const tilted = ordered.slice(1).some((s, i) => {
    const previous = ordered[i]?.position ?? s.position;
    const step = s.position.map((v, axis) => v - (previous[axis] ?? 0));
    const along = dot(step, normal);
    const sideways = Math.sqrt(Math.max(0, dot(step, step) - along * along));
    return sideways > tolerance;
  });
  if (tilted) return disabled('its slices are not stacked along their normal (gantry tilt)');
  return { state: 'ready' };
}
