import {
  Enums,
  RenderingEngine,
  cache,
  eventTarget,
  getConfiguration,
  setVolumesForViewports,
  utilities as coreUtilities,
  volumeLoader,
  type Types,
  type VolumeViewport,
} from '@cornerstonejs/core';
import { wadors } from '@cornerstonejs/dicom-image-loader';
import {
  CrosshairsTool,
  Enums as ToolEnums,
  PanTool,
  StackScrollTool,
  SynchronizerManager,
  ToolGroupManager,
  WindowLevelTool,
  ZoomTool,
  addTool,
  synchronizers,
  type Types as ToolTypes,
} from '@cornerstonejs/tools';
import type { TLoadedSeries } from '../data-source/dicomweb-source';

const { MouseBindings } = ToolEnums;

/** The three orthographic views of MPR, in the order they are laid out. */
export const MPR_VIEWS = [
  { key: 'axial', label: 'Axial', orientation: Enums.OrientationAxis.AXIAL, color: 'rgb(255, 214, 0)' },
  {
    key: 'sagittal',
    label: 'Sagittal',
    orientation: Enums.OrientationAxis.SAGITTAL,
    color: 'rgb(0, 200, 255)',
  },
  {
    key: 'coronal',
    label: 'Coronal',
    orientation: Enums.OrientationAxis.CORONAL,
    color: 'rgb(110, 230, 110)',
  },
] as const;
export type TMprViewKey = (typeof MPR_VIEWS)[number]['key'];

/** The left-drag tool in MPR; middle drag pans, right drag zooms, the wheel scrolls slices. */
export type TMprTool = 'windowLevel' | 'crosshairs' | 'pan' | 'zoom';

const TOOL_OF: Record<TMprTool, string> = {
  windowLevel: WindowLevelTool.toolName,
  crosshairs: CrosshairsTool.toolName,
  pan: PanTool.toolName,
  zoom: ZoomTool.toolName,
};

/** How far the volume has loaded: slices processed and slices that failed. */
export interface TVolumeProgress {
  done: number;
  failed: number;
  total: number;
}

/** MPR draws on three viewports only: one WebGL context each is plenty (the stack engine has its own). */
const MPR_CONTEXTS = 3;
let engines = 0;

/**
 * Runs `create` with GPU rendering on and a small context pool. Volume viewports need WebGL even when
 * the stack viewports are switched to CPU rendering (a global Cornerstone setting read when a
 * rendering engine and its viewports are created).
 */
function withGpuRendering<T>(create: () => T): T {
  const rendering = getConfiguration().rendering as { useCPURendering: boolean; webGlContextCount?: number };
  const saved = { cpu: rendering.useCPURendering, contexts: rendering.webGlContextCount };
  rendering.useCPURendering = false;
  rendering.webGlContextCount = MPR_CONTEXTS;
  try {
    return create();
  } finally {
    rendering.useCPURendering = saved.cpu;
    rendering.webGlContextCount = saved.contexts;
  }
}

/**
 * The Cornerstone objects of one MPR session: a rendering engine with three orthographic volume
 * viewports over one streaming volume, a tool group (window level, pan, zoom, slice scroll,
 * crosshairs) and a window-level synchronizer across the three. Knows nothing about React.
 */
export class MprEngine {
  readonly id = `radflow-mpr-${(engines += 1)}`;
  private readonly renderingEngine: RenderingEngine;
  private readonly toolGroup: ToolTypes.IToolGroup;
  private readonly voiSyncId = `${this.id}-voi`;
  private volumeId: string | null = null;
  private primary: string = WindowLevelTool.toolName;
  private destroyed = false;
  private stopListening: (() => void) | null = null;

  constructor(elements: Record<TMprViewKey, HTMLDivElement>) {
    for (const tool of [WindowLevelTool, PanTool, ZoomTool, StackScrollTool, CrosshairsTool]) addTool(tool);
    this.renderingEngine = withGpuRendering(() => {
      const engine = new RenderingEngine(this.id);
      engine.setViewports(
        MPR_VIEWS.map((view) => ({
          viewportId: this.viewportIdOf(view.key),
          element: elements[view.key],
          type: Enums.ViewportType.ORTHOGRAPHIC,
          defaultOptions: { orientation: view.orientation, background: [0, 0, 0] as Types.Point3 },
        })),
      );
      return engine;
    });
    const group = ToolGroupManager.createToolGroup(this.id);
    if (!group) throw new Error('Cornerstone tool group could not be created');
    this.toolGroup = group;
    for (const tool of [WindowLevelTool, PanTool, ZoomTool, StackScrollTool]) group.addTool(tool.toolName);
    const colorOf = (viewportId: string) =>
      MPR_VIEWS.find((v) => this.viewportIdOf(v.key) === viewportId)?.color ?? 'rgb(200, 200, 200)';
    group.addTool(CrosshairsTool.toolName, {
      getReferenceLineColor: colorOf,
      getReferenceLineControllable: () => true,
      // Rotated (oblique) planes and slabs are beyond this MPR: straight planes keep the labels true.
      getReferenceLineDraggableRotatable: () => false,
      getReferenceLineSlabThicknessControlsOn: () => false,
    });
    for (const view of MPR_VIEWS) group.addViewport(this.viewportIdOf(view.key), this.id);
    group.setToolActive(WindowLevelTool.toolName, { bindings: [{ mouseButton: MouseBindings.Primary }] });
    group.setToolActive(PanTool.toolName, { bindings: [{ mouseButton: MouseBindings.Auxiliary }] });
    group.setToolActive(ZoomTool.toolName, { bindings: [{ mouseButton: MouseBindings.Secondary }] });
    group.setToolActive(StackScrollTool.toolName, { bindings: [{ mouseButton: MouseBindings.Wheel }] });

    const voi = synchronizers.createVOISynchronizer(this.voiSyncId, {
      syncInvertState: true,
      syncColormap: false,
    });
    for (const view of MPR_VIEWS) {
      voi.add({ renderingEngineId: this.id, viewportId: this.viewportIdOf(view.key) });
    }
  }

  viewportIdOf(view: TMprViewKey): string {
    return `${this.id}-${view}`;
  }

  viewport(view: TMprViewKey): VolumeViewport | undefined {
    return this.renderingEngine.getViewport(this.viewportIdOf(view)) as VolumeViewport | undefined;
  }

  /**
   * Builds the volume of the series and streams its slices in; `onProgress` hears each slice. Resolves
   * with the final count once every slice is loaded or failed; rejects when the volume cannot be made.
   */
  async load(
    series: TLoadedSeries,
    onProgress: (progress: TVolumeProgress) => void,
  ): Promise<TVolumeProgress> {
    for (const instance of series.stack) {
      const [first] = instance.imageIds;
      if (first) wadors.metaDataManager.add(first, instance.metadata as never);
    }
    const volumeId = `cornerstoneStreamingImageVolume:${this.id}-${series.seriesInstanceUid}`;
    this.volumeId = volumeId;
    const total = series.imageIds.length;
    const ids = new Set(series.imageIds);
    let done = 0;
    let failed = 0;
    let settle: (progress: TVolumeProgress) => void = () => undefined;
    const finished = new Promise<TVolumeProgress>((resolve) => {
      settle = resolve;
    });
    const report = () => {
      onProgress({ done, failed, total });
      if (done + failed >= total) settle({ done, failed, total });
    };
    const onModified = (event: Event) => {
      const detail = (event as CustomEvent<{ volumeId?: string; framesProcessed?: number }>).detail;
      if (detail.volumeId !== volumeId) return;
      done = Math.max(done, Math.min(total, (detail.framesProcessed ?? 0) - failed));
      report();
    };
    // A slice that fails: the loader names its image id (the volume's own error event does not).
    const onFailed = (event: Event) => {
      const imageId = (event as CustomEvent<{ imageId?: unknown }>).detail.imageId;
      if (typeof imageId !== 'string' || !ids.has(imageId)) return;
      ids.delete(imageId);
      failed += 1;
      report();
    };
    eventTarget.addEventListener(Enums.Events.IMAGE_VOLUME_MODIFIED, onModified);
    eventTarget.addEventListener(Enums.Events.IMAGE_LOAD_FAILED, onFailed);
    this.stopListening = () => {
      eventTarget.removeEventListener(Enums.Events.IMAGE_VOLUME_MODIFIED, onModified);
      eventTarget.removeEventListener(Enums.Events.IMAGE_LOAD_FAILED, onFailed);
    };

    const volume = (await volumeLoader.createAndCacheVolume(volumeId, {
      imageIds: series.imageIds,
    })) as Types.IStreamingImageVolume;
    if (this.destroyed) return { done, failed, total };
    (volume as unknown as { load: (callback: (evt: { framesLoaded: number }) => void) => void }).load(
      (evt) => {
        // Every slice processed: what did not load failed, whether or not its event was heard.
        done = evt.framesLoaded;
        failed = total - evt.framesLoaded;
        report();
      },
    );
    await setVolumesForViewports(
      this.renderingEngine,
      [{ volumeId }],
      MPR_VIEWS.map((v) => this.viewportIdOf(v.key)),
    );
    if (this.destroyed) return { done, failed, total };
    // Crosshairs (passive: the lines show and can be dragged; left drag elsewhere stays window level).
    this.toolGroup.setToolPassive(CrosshairsTool.toolName);
    this.renderingEngine.render();
    return finished;
  }

  /** The left-drag tool; the old one goes back to its own button (or passive for crosshairs). */
  setPrimaryTool(tool: TMprTool): void {
    const name = TOOL_OF[tool];
    if (name === this.primary) return;
    const old = this.primary;
    if (old === PanTool.toolName) {
      this.toolGroup.setToolActive(old, { bindings: [{ mouseButton: MouseBindings.Auxiliary }] });
    } else if (old === ZoomTool.toolName) {
      this.toolGroup.setToolActive(old, { bindings: [{ mouseButton: MouseBindings.Secondary }] });
    } else {
      this.toolGroup.setToolPassive(old);
    }
    this.toolGroup.setToolActive(name, { bindings: [{ mouseButton: MouseBindings.Primary }] });
    this.primary = name;
  }

  /** A window (width/level) on all three views: the synchronizer would follow one, but set all at once. */
  setWindow(width: number, level: number): void {
    if (!this.volumeId) return;
    for (const view of MPR_VIEWS) {
      this.viewport(view.key)?.setProperties(
        { voiRange: { lower: level - width / 2, upper: level + width / 2 } },
        this.volumeId,
      );
    }
    this.renderingEngine.render();
  }

  scroll(view: TMprViewKey, delta: number): void {
    const viewport = this.viewport(view);
    if (viewport)
      coreUtilities.scroll(viewport as unknown as Types.IViewport, {
        delta,
        volumeId: this.volumeId ?? undefined,
      });
  }

  /** Camera and window of every view back to their start; crosshairs to the centre. */
  reset(): void {
    for (const view of MPR_VIEWS) {
      const viewport = this.viewport(view.key);
      viewport?.resetCamera();
      viewport?.resetProperties(this.volumeId ?? undefined);
    }
    const crosshairs = this.toolGroup.getToolInstance(CrosshairsTool.toolName) as CrosshairsTool | undefined;
    crosshairs?.resetCrosshairs?.();
    this.renderingEngine.render();
  }

  resize(): void {
    this.renderingEngine.resize(true, true);
  }

  /** Tears down the engine, tool group, synchronizer and the volume (its memory is the big cost). */
  destroy(): void {
    this.destroyed = true;
    this.stopListening?.();
    SynchronizerManager.destroySynchronizer(this.voiSyncId);
    ToolGroupManager.destroyToolGroup(this.id);
    this.renderingEngine.destroy();
    if (this.volumeId) cache.removeVolumeLoadObject(this.volumeId);
  }
}
