/** The viewport layouts of issue 5 §2: rows × columns. */
export const LAYOUTS = {
  '1x1': { rows: 1, columns: 1, label: '1×1' },
  '1x2': { rows: 1, columns: 2, label: '1×2' },
  '2x2': { rows: 2, columns: 2, label: '2×2' },
} as const;
export type TLayoutKey = keyof typeof LAYOUTS;

export const viewportCount = (layout: TLayoutKey) => LAYOUTS[layout].rows * LAYOUTS[layout].columns;

/** What one viewport shows: a series of the study or of a prior. */
export interface TViewportContent {
  studyInstanceUid: string;
  seriesInstanceUid: string;
}

/** The series shown in each viewport (null: empty) and which viewport keys and tools act on. */
export interface TGridState {
  layout: TLayoutKey;
  /** One entry per viewport of the layout. */
  series: (TViewportContent | null)[];
  active: number;
}

/**
 * The grid after a layout change: viewports that stay keep their series; new ones take the next
 * series of the study not already shown (so 1×2 puts the second series beside the first).
 */
export function changeLayout(
  state: TGridState,
  layout: TLayoutKey,
  studySeries: readonly TViewportContent[],
): TGridState {
  const count = viewportCount(layout);
  const series = state.series.slice(0, count);
  while (series.length < count) {
    const shown = (c: TViewportContent) => series.some((s) => s?.seriesInstanceUid === c.seriesInstanceUid);
    series.push(studySeries.find((c) => !shown(c)) ?? null);
  }
  return { layout, series, active: Math.min(state.active, count - 1) };
}

/** The grid with `content` shown in viewport `index` (a click or a drop), which becomes active. */
export function showSeries(state: TGridState, index: number, content: TViewportContent): TGridState {
  if (index < 0 || index >= state.series.length) return state;
  const series = state.series.slice();
  series[index] = content;
  return { ...state, series, active: index };
}

/** The series `step` places from the active viewport's, clamped at the ends (←/→, Home/End). */
export function stepSeries(
  studySeries: readonly string[],
  current: string | null,
  step: number | 'first' | 'last',
): string | null {
  if (studySeries.length === 0) return null;
  if (step === 'first') return studySeries[0] ?? null;
  if (step === 'last') return studySeries[studySeries.length - 1] ?? null;
  const at = current === null ? -1 : studySeries.indexOf(current);
  const next = Math.min(Math.max(0, at + step), studySeries.length - 1);
  return studySeries[next] ?? null;
}
