/**
 * Viewer keyboard shortcuts (spec-core §2 Viewer entry) and window presets (spec-core §9, width/level).
 * The viewer issue binds them; the shell's Keyboard Shortcut dialog lists them.
 */
export const WINDOW_PRESETS = [
  { key: '1', name: 'Soft Tissue', width: 400, level: 40 },
  { key: '2', name: 'Lung', width: 1500, level: -600 },
  { key: '3', name: 'Liver', width: 150, level: 90 },
  { key: '4', name: 'Bone', width: 2500, level: 480 },
  { key: '5', name: 'Brain', width: 80, level: 40 },
  { key: '6', name: 'Brain Infract', width: 40, level: 40 },
] as const;

export interface TShortcut {
  keys: string[];
  action: string;
}

export const VIEWER_SHORTCUTS: readonly TShortcut[] = [
  ...WINDOW_PRESETS.map((p) => ({
    keys: [p.key],
    action: `Window preset ${p.name} (W ${p.width} / L ${p.level})`,
  })),
  { keys: ['m'], action: 'Pan' },
  { keys: ['z'], action: 'Zoom' },
  { keys: ['l'], action: 'Length' },
  { keys: ['e'], action: 'Ellipse' },
  { keys: ['a'], action: 'Angle' },
  { keys: ['y'], action: 'Arrow annotation' },
  { keys: ['Home'], action: 'First series' },
  { keys: ['End'], action: 'Last series' },
  { keys: ['←', '→'], action: 'Previous / next series' },
  { keys: ['↑', '↓'], action: 'Previous / next frame' },
];

/** Keys beyond spec-core §2, on keys it leaves free; bound outside commandOfKey (mpr/useMpr). */
export const VIEWER_EXTRA_SHORTCUTS: readonly TShortcut[] = [
  { keys: ['v'], action: 'MPR (axial / sagittal / coronal) on / off' },
];
