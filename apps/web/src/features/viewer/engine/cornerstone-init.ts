import { init as initCore } from '@cornerstonejs/core';
import { init as initImageLoader } from '@cornerstonejs/dicom-image-loader';
import {
  AngleTool,
  ArrowAnnotateTool,
  EllipticalROITool,
  LengthTool,
  PanTool,
  StackScrollTool,
  WindowLevelTool,
  ZoomTool,
  addTool,
  init as initTools,
} from '@cornerstonejs/tools';

let ready: Promise<void> | null = null;

/**
 * Cornerstone3D initialised once per page, on the first viewer open (never for the worklist):
 * core, the DICOM image loader with its decode workers (half the cores, at least one), the tools.
 */
export function initCornerstone(): Promise<void> {
  ready ??= Promise.resolve().then(() => {
    initCore();
    initImageLoader({ maxWebWorkers: Math.max(1, Math.floor((navigator.hardwareConcurrency || 2) / 2)) });
    initTools();
    for (const tool of [
      WindowLevelTool,
      PanTool,
      ZoomTool,
      StackScrollTool,
      LengthTool,
      EllipticalROITool,
      AngleTool,
      ArrowAnnotateTool,
    ]) {
      addTool(tool);
    }
  });
  return ready;
}
