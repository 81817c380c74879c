import Typography from '@mui/material/Typography';
import type { TViewerContext } from '@radflow/core';
import { useQuery } from '@tanstack/react-query';
import { Enums } from '@cornerstonejs/core';
import { useEffect, useMemo, useRef, useState, type DragEvent } from 'react';
import { TAG, numberOf, numbersOf } from '../data-source/dicom-json';
import type { TLoadedSeries, TViewerDataSource } from '../data-source/dicomweb-source';
import { unsupportedImageText } from '../data-source/unsupported-image';
import { frameOfImageId, type TFrameRef } from '../data-source/image-ids';
import type { ViewerEngine } from '../engine/viewer-engine';
import { useViewportReadout } from '../engine/viewport-state';
import type { TViewportContent } from '../layout';
import { edgeLabels } from '../orientation';
import { releaseFirstImage } from '../first-image/first-image';
import { FirstImageCanvas, firstImageReadout, useFirstImage } from '../first-image/FirstImageCanvas';
import { CineControls } from './CineControls';
import { ImagePlaceholder } from './ImagePlaceholder';
import { ViewportFrame } from './ViewportFrame';
import { ViewportOverlay } from './ViewportOverlay';

/** The drag payload of a series thumbnail. */
export const SERIES_DRAG_TYPE = 'application/x-radflow-series';

export const FAILED_IMAGE_TEXT = 'This image could not be loaded.';

/** How long the frame on screen must stay before the workspace is told (key-image button). */
const FRAME_REPORT_REST_MS = 100;

/** Loads a series once per viewer (its metadata and transfer syntaxes). */
export function useLoadedSeries(source: TViewerDataSource, content: TViewportContent | null) {
  return useQuery({
    queryKey: ['viewer-series-stack', content?.studyInstanceUid, content?.seriesInstanceUid],
    queryFn: () => source.loadSeries(content!.studyInstanceUid, content!.seriesInstanceUid),
    enabled: content !== null,
    staleTime: Infinity,
  });
}

/** One viewport of the grid: the Cornerstone element, its overlays, cine and failure placeholders. */
export function ViewportPane({
  viewportId,
  engine,
  source,
  content,
  active,
  context,
  studyDate,
  seriesLine,
  isKeyImage,
  onActivate,
  onDropSeries,
  onSeriesShown,
  onCurrentFrame,
}: {
  viewportId: string;
  engine: ViewerEngine | null;
  source: TViewerDataSource;
  content: TViewportContent | null;
  active: boolean;
  context: TViewerContext;
  studyDate: string;
  seriesLine: string;
  isKeyImage: (frame: TFrameRef) => boolean;
  onActivate: () => void;
  onDropSeries: (content: TViewportContent) => void;
  onSeriesShown: (viewportId: string, series: TLoadedSeries) => void;
  /** Told the frame on screen while this viewport is the active one (for the key-image toggle). */
  onCurrentFrame: (frame: TFrameRef | null) => void;
}) {
  const [element, setElement] = useState<HTMLDivElement | null>(null);
  const [shown, setShown] = useState<TLoadedSeries | null>(null);
  const loaded = useLoadedSeries(source, content);

  useEffect(() => {
    if (!engine || !element) return undefined;
    engine.enableViewport(viewportId, element);
    return () => {
      setShown(null);
      engine.disableViewport(viewportId);
    };
  }, [engine, element, viewportId]);

  const series = loaded.data ?? null;
  const allUnsupported = useMemo(
    () =>
      series !== null &&
      series.stack.length > 0 &&
      series.stack.every((i) => unsupportedImageText(series, i.sopInstanceUid)),
    [series],
  );

  // The callback as it is when the series is on screen, not as it was when showing began: the
  // saved annotations may have arrived in between (they are put back through it).
  const onSeriesShownRef = useRef(onSeriesShown);
  useEffect(() => {
    onSeriesShownRef.current = onSeriesShown;
  });
  useEffect(() => {
    if (!engine || !element || !series || allUnsupported) return undefined;
    let live = true;
    void engine.showSeries(viewportId, series).then(() => {
      if (!live) return;
      setShown(series);
      onSeriesShownRef.current(viewportId, series);
    });
    return () => {
      live = false;
    };
  }, [engine, element, series, allUnsupported, viewportId]);

  useEffect(() => {
    if (!engine || !element) return undefined;
    // A layout change resizes the viewports that stay: Cornerstone redraws at the new size.
    const observer = new ResizeObserver(() => engine.resize());
    observer.observe(element);
    return () => observer.disconnect();
  }, [engine, element]);

  // The first image (drawn before Cornerstone loaded) stays over the viewport showing its series
  // until Cornerstone has drawn an image there: the same pixels in the same place, so the hand-over
  // is not seen. It is hidden in the same frame as Cornerstone's render, not a React render later,
  // and a preview that comes after Cornerstone's first image is never shown.
  const [cornerstoneDrew, setCornerstoneDrew] = useState(false);
  const firstImage = useFirstImage();
  const previewable =
    firstImage &&
    content?.studyInstanceUid === firstImage.studyInstanceUid &&
    content.seriesInstanceUid === firstImage.series.seriesInstanceUid
      ? firstImage
      : null;
  const preview = cornerstoneDrew ? null : previewable;
  const previewBox = useRef<HTMLDivElement | null>(null);
  useEffect(() => {
    if (!element) return undefined;
    let newImage = false;
    const onNewImage = () => {
      newImage = true;
    };
    const onRendered = () => {
      if (!newImage) return;
      if (previewBox.current) previewBox.current.style.display = 'none';
      setCornerstoneDrew(true);
    };
    element.addEventListener(Enums.Events.STACK_NEW_IMAGE, onNewImage);
    element.addEventListener(Enums.Events.IMAGE_RENDERED, onRendered);
    return () => {
      element.removeEventListener(Enums.Events.STACK_NEW_IMAGE, onNewImage);
      element.removeEventListener(Enums.Events.IMAGE_RENDERED, onRendered);
    };
  }, [element]);
  useEffect(() => {
    if (cornerstoneDrew && previewable) releaseFirstImage(previewable.imageId);
  }, [cornerstoneDrew, previewable]);

  const cornerstoneReadout = useViewportReadout(engine, viewportId, element, shown);
  const readout = preview ? firstImageReadout(preview, element) : cornerstoneReadout;
  const frame = readout?.imageId ? frameOfImageId(readout.imageId) : null;
  const frameKey = frame ? `${frame.seriesInstanceUid}|${frame.sopInstanceUid}|${frame.frameNumber}` : '';
  useEffect(() => {
    if (!active) return undefined;
    // Telling the workspace re-renders all of it (toolbar, series panel, every pane): while the
    // user scrolls it hears of the frame once the scroll rests, not at every frame (VIEWER.md
    // "Speed"); the overlay of this pane follows every frame.
    const frameOnScreen = frameKey ? (frameOfImageId(readout?.imageId ?? '') ?? null) : null;
    const timer = window.setTimeout(() => onCurrentFrame(frameOnScreen), FRAME_REPORT_REST_MS);
    return () => window.clearTimeout(timer);
    // frameKey stands for the frame; the callback is the workspace's setter.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [active, frameKey]);
  const instance = frame ? series?.stack.find((i) => i.sopInstanceUid === frame.sopInstanceUid) : undefined;
  const orientation = instance
    ? numbersOf(instance.metadata, TAG.imageOrientationPatient)
    : (preview?.orientation ?? null);
  const unsupported = series
    ? allUnsupported
      ? unsupportedImageText(series, series.stack[0]?.sopInstanceUid ?? '')
      : frame && unsupportedImageText(series, frame.sopInstanceUid)
    : null;
  const edges = orientation ? edgeLabels(orientation, readout ?? {}) : null;

  const onDrop = (event: DragEvent) => {
    const payload = event.dataTransfer.getData(SERIES_DRAG_TYPE);
    if (!payload) return;
    event.preventDefault();
    onDropSeries(JSON.parse(payload) as TViewportContent);
  };

  let cover: React.ReactNode = null;
  if (unsupported) cover = <ImagePlaceholder kind="unsupported" text={unsupported} />;
  else if (loaded.isError || cornerstoneReadout?.failed)
    cover = <ImagePlaceholder kind="failed" text={FAILED_IMAGE_TEXT} />;

  return (
    <ViewportFrame
      testId={`viewport-${viewportId}`}
      active={active}
      onActivate={onActivate}
      onElement={setElement}
      onDragOver={(e) => {
        if (e.dataTransfer.types.includes(SERIES_DRAG_TYPE)) e.preventDefault();
      }}
      onDrop={onDrop}
    >
      {content === null ? (
        <Typography
          sx={{ position: 'absolute', inset: 0, display: 'grid', placeItems: 'center', color: 'grey.600' }}
        >
          Drop a series here
        </Typography>
      ) : series && series.stack.length === 0 ? (
        <Typography
          sx={{ position: 'absolute', inset: 0, display: 'grid', placeItems: 'center', color: 'grey.500' }}
        >
          This series has no images (report, waveform or other non-image object).
        </Typography>
      ) : (
        <ViewportOverlay
          context={context}
          studyDate={studyDate}
          seriesLine={seriesLine}
          readout={readout}
          edges={cover ? null : edges}
          isKeyImage={frame !== null && isKeyImage(frame)}
        />
      )}
      {preview && !cover && (
        <div ref={previewBox}>
          <FirstImageCanvas image={preview} />
        </div>
      )}
      {cover}
      {element && instance && instance.frames > 1 && !cover && (
        <CineControls element={element} initialFps={numberOf(instance.metadata, '00180040')} />
      )}
    </ViewportFrame>
  );
}
