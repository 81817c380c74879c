import { Enums, type VolumeViewport } from '@cornerstonejs/core';
import { useEffect, useState } from 'react';
import { edgeLabels, type TEdgeLabels } from '../orientation';
import { watchRenders } from '../engine/viewport-state';
import type { MprEngine, TMprViewKey } from './mpr-engine';

/** What the overlay of one MPR view shows, read from Cornerstone after each render. */
export interface TMprReadout {
  index: number;
  total: number;
  windowWidth: number | null;
  windowLevel: number | null;
  edges: TEdgeLabels | null;
}

const cross = (a: readonly number[], b: readonly number[]): number[] => [
  (a[1] ?? 0) * (b[2] ?? 0) - (a[2] ?? 0) * (b[1] ?? 0),
  (a[2] ?? 0) * (b[0] ?? 0) - (a[0] ?? 0) * (b[2] ?? 0),
  (a[0] ?? 0) * (b[1] ?? 0) - (a[1] ?? 0) * (b[0] ?? 0),
];

/**
 * The patient directions at the edges of a view, from its camera: screen right is viewUp ×
 * viewPlaneNormal (Cornerstone's MPR camera convention), screen down is −viewUp. Expressed as a row
 * and column direction, the stack's edgeLabels names them.
 */
export function mprEdgeLabels(
  viewUp: readonly number[],
  viewPlaneNormal: readonly number[],
): TEdgeLabels | null {
  const right = cross(viewUp, viewPlaneNormal);
  const down = viewUp.map((c) => -c);
  return edgeLabels([...right, ...down]);
}

function readView(viewport: VolumeViewport): TMprReadout {
  const camera = viewport.getCamera();
  const voi = viewport.getProperties()?.voiRange;
  let index = 0;
  let total = 0;
  try {
    index = viewport.getSliceIndex();
    total = viewport.getNumberOfSlices();
  } catch {
    // No volume on the viewport yet.
  }
  return {
    index,
    total,
    windowWidth: voi ? voi.upper - voi.lower : null,
    windowLevel: voi ? (voi.upper + voi.lower) / 2 : null,
    edges:
      camera.viewUp && camera.viewPlaneNormal ? mprEdgeLabels(camera.viewUp, camera.viewPlaneNormal) : null,
  };
}

const EVENTS = [
  Enums.Events.IMAGE_RENDERED,
  Enums.Events.VOLUME_NEW_IMAGE,
  Enums.Events.CAMERA_MODIFIED,
  Enums.Events.VOI_MODIFIED,
];

/** The readout of one MPR view, refreshed at most once a frame while it renders. */
export function useMprReadout(
  engine: MprEngine | null,
  view: TMprViewKey,
  element: HTMLDivElement | null,
): TMprReadout | null {
  const [readout, setReadout] = useState<TMprReadout | null>(null);
  useEffect(() => {
    if (!engine || !element) return undefined;
    const watch = watchRenders(element, EVENTS, () => {
      const viewport = engine.viewport(view);
      if (viewport) setReadout(readView(viewport));
    });
    return watch.stop;
  }, [engine, view, element]);
  return readout;
}
