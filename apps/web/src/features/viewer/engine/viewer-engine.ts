import {
  Enums,
  RenderingEngine,
  eventTarget,
  getRenderingCapabilities,
  utilities as coreUtilities,
  type StackViewport,
  type Types,
} from '@cornerstonejs/core';
import { wadors } from '@cornerstonejs/dicom-image-loader';
import {
  ArrowAnnotateTool,
  Enums as ToolEnums,
  StackScrollTool,
  ToolGroupManager,
  utilities as toolUtilities,
  type Types as ToolTypes,
} from '@cornerstonejs/tools';
import type { TLoadedSeries } from '../data-source/dicomweb-source';
import { TOOL_NAMES, type TToolKey } from '../viewer-keys';

const { MouseBindings } = ToolEnums;
let engines = 0;

/** Window width/level to Cornerstone's VOI range (modality units). */
export const voiRangeOf = (width: number, level: number): Types.VOIRange => ({
  lower: level - width / 2,
  upper: level + width / 2,
});

/**
 * One viewer's Cornerstone objects: the rendering engine, one tool group shared by its viewports,
 * and the images that failed. The React tree drives it; it knows nothing about React.
 */
export class ViewerEngine {
  readonly id = `radflow-viewer-${(engines += 1)}`;
  private readonly renderingEngine = new RenderingEngine(this.id);
  private readonly toolGroup: ToolTypes.IToolGroup;
  private primaryTool: string = TOOL_NAMES.windowLevel;
  private readonly failed = new Set<string>();
  private readonly failureListeners = new Set<() => void>();
  /** Shows the arrow label dialog; an empty answer drops a new arrow (Cornerstone's behaviour). */
  private askArrowLabel: (initial: string, done: (text: string) => void) => void = (initial, done) =>
    done(initial);

  constructor() {
    const group = ToolGroupManager.createToolGroup(this.id);
    if (!group) throw new Error('Cornerstone tool group could not be created');
    this.toolGroup = group;
    for (const name of Object.values(TOOL_NAMES)) group.addTool(name);
    group.addTool(StackScrollTool.toolName);
    // The arrow's label is asked in the viewer's own dialog, not the browser's blocking prompt.
    group.setToolConfiguration(ArrowAnnotateTool.toolName, {
      getTextCallback: (done: (text: string) => void) => this.askArrowLabel('', done),
      changeTextCallback: (
        annotation: { data?: { label?: string } },
        _detail: unknown,
        done: (text: string) => void,
      ) => this.askArrowLabel(annotation.data?.label ?? '', done),
    });
    group.setToolActive(TOOL_NAMES.windowLevel, { bindings: [{ mouseButton: MouseBindings.Primary }] });
    group.setToolActive(TOOL_NAMES.pan, { bindings: [{ mouseButton: MouseBindings.Auxiliary }] });
    group.setToolActive(TOOL_NAMES.zoom, { bindings: [{ mouseButton: MouseBindings.Secondary }] });
    group.setToolActive(StackScrollTool.toolName, { bindings: [{ mouseButton: MouseBindings.Wheel }] });
    for (const name of [TOOL_NAMES.length, TOOL_NAMES.ellipse, TOOL_NAMES.angle, TOOL_NAMES.arrow]) {
      group.setToolPassive(name);
    }
    eventTarget.addEventListener(Enums.Events.IMAGE_LOAD_FAILED, this.onLoadFailed);
    eventTarget.addEventListener(Enums.Events.IMAGE_LOAD_ERROR, this.onLoadFailed);
  }

  private readonly onLoadFailed = (event: Event) => {
    const imageId = (event as CustomEvent<{ imageId?: string }>).detail.imageId;
    if (!imageId || this.failed.has(imageId)) return;
    this.failed.add(imageId);
    for (const listener of this.failureListeners) listener();
  };

  setArrowLabelPrompt(prompt: (initial: string, done: (text: string) => void) => void): void {
    this.askArrowLabel = prompt;
  }

  /** Whether an image of this viewer failed to load or decode. */
  hasFailed(imageId: string | undefined): boolean {
    return imageId !== undefined && this.failed.has(imageId);
  }

  onFailure(listener: () => void): () => void {
    this.failureListeners.add(listener);
    return () => this.failureListeners.delete(listener);
  }

  enableViewport(viewportId: string, element: HTMLDivElement): void {
    this.renderingEngine.enableElement({
      viewportId,
      element,
      type: Enums.ViewportType.STACK,
      defaultOptions: { background: [0, 0, 0] as Types.Point3 },
    });
    this.toolGroup.addViewport(viewportId, this.id);
  }

  disableViewport(viewportId: string): void {
    this.toolGroup.removeViewports(this.id, viewportId);
    this.renderingEngine.disableElement(viewportId);
  }

  viewport(viewportId: string): StackViewport | undefined {
    return this.renderingEngine.getViewport(viewportId) as StackViewport | undefined;
  }

  resize(): void {
    this.renderingEngine.resize(true, false);
  }

  /**
   * Shows a series: its metadata goes to the loader, the slice at `index` is requested first
   * (setStack), then the rest is prefetched outwards from the slice on screen.
   */
  async showSeries(viewportId: string, series: TLoadedSeries, index = 0): Promise<void> {
    const viewport = this.viewport(viewportId);
    if (!viewport || series.imageIds.length === 0) return;
    for (const instance of series.stack) {
      // Multi-frame metadata is looked up through frame 1 (metaDataManager combines the frames).
      const [first] = instance.imageIds;
      if (first) wadors.metaDataManager.add(first, instance.metadata as never);
    }
    const at = Math.min(Math.max(0, index), series.imageIds.length - 1);
    // setStack resolves even when the image fails (ARCHITECTURE §6): failures come as events.
    const shown = viewport.setStack(series.imageIds, at).catch(() => undefined);
    // The image loader asks once which float textures WebGL can render (a context and pixel
    // read-backs, 50-300 ms in SwiftShader) when it makes the first image. Asked here, after the
    // frame's request went out, it overlaps the download instead of following it.
    setTimeout(() => getRenderingCapabilities(), 0);
    await shown;
    viewport.render();
    if (series.imageIds.length > 1) {
      // The rest of the series once the slice on screen is drawn: the render is queued for the next
      // animation frame, and prefetch answers arriving first would hold it back.
      requestAnimationFrame(() =>
        setTimeout(() => {
          if (this.viewport(viewportId) === viewport) toolUtilities.stackPrefetch.enable(viewport.element);
        }),
      );
    }
  }

  /** The primary (left-drag) tool; the old one goes passive so its annotations stay visible. */
  setPrimaryTool(tool: TToolKey): void {
    const name = TOOL_NAMES[tool];
    if (name === this.primaryTool) return;
    const old = this.primaryTool;
    if (old === TOOL_NAMES.pan) {
      this.toolGroup.setToolActive(old, { bindings: [{ mouseButton: MouseBindings.Auxiliary }] });
    } else if (old === TOOL_NAMES.zoom) {
      this.toolGroup.setToolActive(old, { bindings: [{ mouseButton: MouseBindings.Secondary }] });
    } else {
      this.toolGroup.setToolPassive(old);
    }
    this.toolGroup.setToolActive(name, { bindings: [{ mouseButton: MouseBindings.Primary }] });
    this.primaryTool = name;
  }

  setWindow(viewportId: string, width: number, level: number): void {
    const viewport = this.viewport(viewportId);
    if (!viewport) return;
    viewport.setProperties({ voiRange: voiRangeOf(width, level) });
    viewport.render();
  }

  invert(viewportId: string): void {
    const viewport = this.viewport(viewportId);
    if (!viewport) return;
    viewport.setProperties({ invert: !viewport.getProperties().invert });
    viewport.render();
  }

  rotate(viewportId: string, degrees: number): void {
    const viewport = this.viewport(viewportId);
    if (!viewport) return;
    const rotation = viewport.getViewPresentation().rotation ?? 0;
    viewport.setViewPresentation({ rotation: (rotation + degrees + 360) % 360 });
    viewport.render();
  }

  flip(viewportId: string, direction: 'horizontal' | 'vertical'): void {
    const viewport = this.viewport(viewportId);
    if (!viewport) return;
    const view = viewport.getViewPresentation();
    viewport.setViewPresentation(
      direction === 'horizontal'
        ? { flipHorizontal: !view.flipHorizontal }
        : { flipVertical: !view.flipVertical },
    );
    viewport.render();
  }

  reset(viewportId: string): void {
    const viewport = this.viewport(viewportId);
    if (!viewport) return;
    viewport.setViewPresentation({ rotation: 0, flipHorizontal: false, flipVertical: false });
    viewport.resetCamera();
    viewport.resetProperties();
    viewport.render();
  }

  scroll(viewportId: string, delta: number): void {
    const viewport = this.viewport(viewportId);
    if (!viewport) return;
    coreUtilities.scroll(viewport, { delta });
  }

  async jumpTo(viewportId: string, index: number): Promise<void> {
    await this.viewport(viewportId)?.setImageIdIndex(index);
  }

  /** Tears down what this viewer created (StrictMode mounts twice: ARCHITECTURE §6). */
  destroy(): void {
    eventTarget.removeEventListener(Enums.Events.IMAGE_LOAD_FAILED, this.onLoadFailed);
    eventTarget.removeEventListener(Enums.Events.IMAGE_LOAD_ERROR, this.onLoadFailed);
    ToolGroupManager.destroyToolGroup(this.id);
    this.renderingEngine.destroy();
    this.failureListeners.clear();
  }
}
