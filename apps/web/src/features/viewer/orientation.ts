/** The orientation letters at the four edges of a displayed image (radiological convention). */
export interface TEdgeLabels {
  top: string;
  right: string;
  bottom: string;
  left: string;
}

const AXES: readonly [string, string][] = [
  ['L', 'R'],
  ['P', 'A'],
  ['H', 'F'],
];

/** The patient direction of a unit vector: its significant axes, strongest first ('LP', 'H'). */
export function directionLetters(v: readonly number[]): string {
  return v
    .map((component, axis) => ({ component, axis }))
    .filter(({ component }) => Math.abs(component) > 0.25)
    .sort((a, b) => Math.abs(b.component) - Math.abs(a.component))
    .slice(0, 2)
    .map(({ component, axis }) => (AXES[axis] as [string, string])[component > 0 ? 0 : 1])
    .join('');
}

/**
 * The edge labels for Image Orientation (Patient) (row then column direction cosines) as displayed
 * with `rotation` degrees clockwise (a multiple of 90) and flips. Null without a usable orientation
 * (secondary captures, ultrasound): no markers rather than wrong ones.
 */
export function edgeLabels(
  orientation: readonly number[],
  view: { rotation?: number; flipHorizontal?: boolean; flipVertical?: boolean } = {},
): TEdgeLabels | null {
  if (orientation.length !== 6) return null;
  const row = orientation.slice(0, 3);
  const column = orientation.slice(3, 6);
  const negate = (v: number[]) => v.map((c) => -c);
  let labels: TEdgeLabels = {
    right: directionLetters(row),
    left: directionLetters(negate(row)),
    bottom: directionLetters(column),
    top: directionLetters(negate(column)),
  };
  if (!labels.right || !labels.bottom) return null;
  // Flips apply to the image before its rotation on screen.
  if (view.flipHorizontal) labels = { ...labels, left: labels.right, right: labels.left };
  if (view.flipVertical) labels = { ...labels, top: labels.bottom, bottom: labels.top };
  const turns = ((Math.round((view.rotation ?? 0) / 90) % 4) + 4) % 4;
  for (let i = 0; i < turns; i += 1) {
    labels = { top: labels.left, right: labels.top, bottom: labels.right, left: labels.bottom };
  }
  return labels;
}
