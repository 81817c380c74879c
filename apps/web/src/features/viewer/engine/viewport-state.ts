import { Enums, type StackViewport } from '@cornerstonejs/core';
import { useEffect, useState } from 'react';
import type { ViewerEngine } from './viewer-engine';

/** What the overlays show about one viewport, read from Cornerstone after each render. */
export interface TViewportReadout {
  imageId: string | undefined;
  index: number;
  total: number;
  windowWidth: number | null;
  windowLevel: number | null;
  zoom: number;
  rotation: number;
  flipHorizontal: boolean;
  flipVertical: boolean;
  invert: boolean;
  failed: boolean;
}

function readViewport(engine: ViewerEngine, viewport: StackViewport): TViewportReadout {
  const imageIds = viewport.getImageIds();
  const index = viewport.getCurrentImageIdIndex();
  const imageId = imageIds[index];
  const props = viewport.getProperties();
  const voi = props.voiRange;
  const view = viewport.getViewPresentation();
  let zoom = 1;
  try {
    zoom = viewport.getZoom();
  } catch {
    // No image yet: the camera has no zoom to compare with.
  }
  return {
    imageId,
    index,
    total: imageIds.length,
    windowWidth: voi ? voi.upper - voi.lower : null,
    windowLevel: voi ? (voi.upper + voi.lower) / 2 : null,
    zoom,
    rotation: view.rotation ?? 0,
    flipHorizontal: Boolean(view.flipHorizontal),
    flipVertical: Boolean(view.flipVertical),
    invert: Boolean(props.invert),
    failed: engine.hasFailed(imageId),
  };
}

const RENDER_EVENTS = [
  Enums.Events.IMAGE_RENDERED,
  Enums.Events.STACK_NEW_IMAGE,
  Enums.Events.VOI_MODIFIED,
  Enums.Events.CAMERA_MODIFIED,
  Enums.Events.STACK_VIEWPORT_SCROLL,
];

/**
 * Runs `onFrame` at most once an animation frame after any of `events` fires on `element`, and once
 * now: the overlays follow every render without re-rendering React per event. `refresh` lets
 * another source (a failed image) ask too; `stop` ends it.
 */
export function watchRenders(
  element: HTMLElement,
  events: readonly string[],
  onFrame: () => void,
): { refresh: () => void; stop: () => void } {
  let frame = 0;
  const refresh = () => {
    if (frame) return;
    frame = requestAnimationFrame(() => {
      frame = 0;
      onFrame();
    });
  };
  for (const name of events) element.addEventListener(name, refresh);
  refresh();
  return {
    refresh,
    stop: () => {
      cancelAnimationFrame(frame);
      for (const name of events) element.removeEventListener(name, refresh);
    },
  };
}

/**
 * The readout of a viewport, refreshed at most once a frame while it renders, and when an image of
 * the viewer fails (a failed image renders nothing, so no render event tells about it).
 */
export function useViewportReadout(
  engine: ViewerEngine | null,
  viewportId: string,
  element: HTMLDivElement | null,
  version: unknown,
): TViewportReadout | null {
  const [readout, setReadout] = useState<TViewportReadout | null>(null);
  useEffect(() => {
    if (!engine || !element) return undefined;
    const watch = watchRenders(element, RENDER_EVENTS, () => {
      const viewport = engine.viewport(viewportId);
      if (viewport) setReadout(readViewport(engine, viewport));
    });
    const stopFailures = engine.onFailure(watch.refresh);
    return () => {
      watch.stop();
      stopFailures();
    };
  }, [engine, viewportId, element, version]);
  return readout;
}
