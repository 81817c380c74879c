import {
  Enums,
  imageLoadPoolManager,
  init as initCore,
  metaData,
  registerImageLoader,
  setUseCPURendering,
} from '@cornerstonejs/core';
import { init as initImageLoader, wadors } from '@cornerstonejs/dicom-image-loader';
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
import { firstImageFrameFor } from '../first-image/first-image';
import { OWN_DECODE_PROVIDER_PRIORITY, ownDecodeProvider, withOwnDecode } from './own-decode-loader';

let ready: Promise<void> | null = null;

/**
 * Frames prefetched at once. Cornerstone's default (1000) puts the whole series in the browser's
 * queue (it sends 6 at a time per host over HTTP/1.1), and a slice the user scrolls to waits behind
 * all of them; a few more than 6 keep the connections busy while earlier frames decode.
 */
const PREFETCH_REQUESTS = 16;

/**
 * The dicom-image-loader asks the metadata providers for a frame's bytes ('compressedFrameData')
 * before it fetches the frame: the first image's frame, fetched for the preview, is answered from
 * there, so the viewport decodes the same bytes and the frame is not fetched twice. Above the
 * loader's own providers.
 */
const FIRST_IMAGE_PROVIDER_PRIORITY = 10_000;
const firstImageFrameProvider = (type: string, query: unknown) =>
  type === 'compressedFrameData' && typeof query === 'string' ? firstImageFrameFor(query) : undefined;

/**
 * Cornerstone3D initialised once per page, on the first viewer open (never for the worklist):
 * core, the DICOM image loader with its decode workers (half the cores, at least one), the tools.
 *
 * Stack viewports render on the CPU (VIEWER.md "Speed"): a 2D slice is one window-level lookup
 * per pixel, which the CPU path draws straight into the viewport's canvas; the WebGL path renders
 * offscreen and reads the pixels back, and where the GPU is software (SwiftShader, many VMs and
 * remote desktops) that cost 4-7 times more per frame, plus the WebGL contexts at start. Volume
 * viewports need WebGL: MPR creates its engine with GPU rendering switched on for that moment
 * (mpr-engine.ts `withGpuRendering`).
 */
export function initCornerstone(): Promise<void> {
  ready ??= Promise.resolve().then(() => {
    // Before init and before any rendering engine exists: init then skips probing WebGL (a context
    // and texture read-backs, 100-300 ms in SwiftShader; MPR probes when it first needs it), and an
    // engine created in CPU mode opens no WebGL context.
    setUseCPURendering(true, false);
    initCore();
    metaData.addProvider(firstImageFrameProvider, FIRST_IMAGE_PROVIDER_PRIORITY);
    imageLoadPoolManager.setMaxSimultaneousRequests(Enums.RequestType.Prefetch, PREFETCH_REQUESTS);
    initImageLoader({ maxWebWorkers: Math.max(1, Math.floor((navigator.hardwareConcurrency || 2) / 2)) });
    // After the loader's own registration: native layouts it draws wrong are decoded first by the
    // server's code (own-decode.ts); everything else goes to it unchanged.
    metaData.addProvider(ownDecodeProvider, OWN_DECODE_PROVIDER_PRIORITY);
    registerImageLoader(
      'wadors',
      withOwnDecode(wadors.loadImage) as Parameters<typeof registerImageLoader>[1],
    );
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
