import CloseIcon from '@mui/icons-material/Close';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Slider from '@mui/material/Slider';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { type TViewerContext, viewerCloseAction, withViewerKind } from '@radflow/core';
import { useQuery } from '@tanstack/react-query';
import { type PointerEvent, useEffect, useRef, useState } from 'react';
import { Link as RouterLink, useLocation, useNavigate, useParams } from 'react-router';
import { FullPageMessage } from '../../../components/FullPageMessage';
import { ShellLayout } from '../../../app/shell/ShellLayout';
import { ViewerNotice } from '../components/ViewerNotice';
import { viewerTitle } from '../components/ViewerFrame';
import { VIEWER_Z_INDEX } from '../components/viewer-geometry';
import { dicomwebUrls, fetchDicomJson, seriesSummaries } from '../data-source/dicomweb-reads';
import { displaySeriesName } from '../series-names';
import { useViewerGate } from '../viewer-gate';
import { WINDOW_PRESETS } from '../viewer-shortcuts';
import {
  DRAG_PIXELS_PER_IMAGE,
  type TLightWindow,
  imagesForDrag,
  renderedFrameUrl,
  seriesThumbnailUrl,
  stackOf,
  viewportOf,
} from './light-stack';

/**
 * A frame whose load failed is asked again after these waits before the viewer gives up on it: on a
 * phone a dropped link, and on a loaded server a shed 503, fail one load without the image being bad.
 */
export const FRAME_RETRY_DELAYS_MS = [500, 1500] as const;

export const LIGHT_VIEWER_LABELS = {
  series: 'Series',
  presets: 'Window presets',
  defaultPreset: 'Default',
  previous: 'Previous image',
  next: 'Next image',
  slider: 'Image',
  close: 'Close viewer',
  diagnostic: 'Diagnostic viewer',
  none: 'No images to show',
  failed: 'This image cannot be shown here. Open it in the diagnostic viewer.',
  image: (n: number, of: number) => `Image ${n} of ${of}`,
} as const;

const clamp = (value: number, max: number) => Math.min(Math.max(value, 0), Math.max(max, 0));

/**
 * /viewer/:studyInstanceUids/:id without `d=1` (spec-core §2 Viewer entry): the light viewer, for a
 * phone or a slow link — referring doctors, patients, shared-link accounts. Its chunk holds no
 * image code: the server renders each frame for the screen (VIEWER.md "Light viewer").
 */
export default function LightViewerPage() {
  const { id: idParam = '' } = useParams();
  const gate = useViewerGate(Number(idParam));
  if (gate.refusal !== null) {
    return (
      <ShellLayout>
        <ViewerNotice text={gate.refusal} />
      </ShellLayout>
    );
  }
  if (gate.context === null) return <FullPageMessage text="Opening the study…" />;
  return <LightViewer context={gate.context} popup={gate.popup} />;
}

function LightViewer({ context, popup }: { context: TViewerContext; popup: boolean }) {
  const navigate = useNavigate();
  const location = useLocation();
  const origin = window.location.origin;
  const urls = dicomwebUrls(origin);
  const studyUid = context.studyInstanceUid;
  const seriesList = useQuery({
    queryKey: ['light-viewer', 'series', studyUid],
    queryFn: async ({ signal }) => seriesSummaries(await fetchDicomJson(urls.seriesList(studyUid), signal)),
    staleTime: 60_000,
  });
  const [seriesUid, setSeriesUid] = useState<string | null>(null);
  const list = seriesList.data ?? [];
  const current = list.find((s) => s.seriesInstanceUid === seriesUid) ?? list[0];
  const stack = useQuery({
    queryKey: ['light-viewer', 'instances', studyUid, current?.seriesInstanceUid],
    queryFn: async ({ signal }) =>
      stackOf(await fetchDicomJson(urls.instances(studyUid, current?.seriesInstanceUid ?? ''), signal)),
    enabled: current !== undefined,
    staleTime: 60_000,
  });
  const frames = stack.data ?? [];
  const [index, setIndex] = useState(0);
  const [preset, setPreset] = useState<TLightWindow | null>(null);
  const [failure, setFailure] = useState<{ src: string; count: number } | null>(null);
  const move = (by: number) => setIndex((i) => clamp(i + by, frames.length - 1));

  // The stage's size decides the pixels asked for; measured once it is laid out.
  const stage = useRef<HTMLDivElement | null>(null);
  const [viewport, setViewport] = useState(() => viewportOf(0, 0, 1));
  useEffect(() => {
    const node = stage.current;
    if (!node) return undefined;
    const measure = () =>
      setViewport(viewportOf(node.clientWidth, node.clientHeight, window.devicePixelRatio || 1));
    measure();
    window.addEventListener('resize', measure);
    return () => window.removeEventListener('resize', measure);
  }, [stack.isSuccess]);

  const urlOf = (i: number) => {
    const image = frames[i];
    return image && current
      ? renderedFrameUrl(origin, studyUid, current.seriesInstanceUid, image, viewport, preset)
      : null;
  };
  const src = urlOf(index);
  const failures = failure && failure.src === src ? failure.count : 0;
  const failed = failures > FRAME_RETRY_DELAYS_MS.length;
  const onFrameError = () => {
    if (!src) return;
    const count = failures + 1;
    const wait = FRAME_RETRY_DELAYS_MS[count - 1];
    // The image element is keyed by the try, so the next try is a new load of the same address.
    if (wait === undefined) setFailure({ src, count });
    else window.setTimeout(() => setFailure({ src, count }), wait);
  };

  // The next images load while this one is looked at, so scrolling does not wait on a slow link.
  useEffect(() => {
    for (const i of [index + 1, index + 2, index - 1]) {
      const url = urlOf(i);
      if (url) new Image().src = url;
    }
    // urlOf reads only what the list below names.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [index, frames, viewport, preset, current?.seriesInstanceUid]);

  // The wheel moves through the stack, not the page (React's wheel handler is passive).
  const count = frames.length;
  useEffect(() => {
    const node = stage.current;
    if (!node) return undefined;
    const onWheel = (event: WheelEvent) => {
      if (event.deltaY === 0) return;
      event.preventDefault();
      setIndex((i) => clamp(i + Math.sign(event.deltaY), count - 1));
    };
    node.addEventListener('wheel', onWheel, { passive: false });
    return () => node.removeEventListener('wheel', onWheel);
  }, [count]);

  // A finger (or a mouse button) dragged up or down on the image moves through the stack.
  const drag = useRef<{ pointer: number; y: number; from: number } | null>(null);
  const onPointerDown = (event: PointerEvent<HTMLDivElement>) => {
    drag.current = { pointer: event.pointerId, y: event.clientY, from: index };
    event.currentTarget.setPointerCapture?.(event.pointerId);
  };
  const onPointerMove = (event: PointerEvent<HTMLDivElement>) => {
    const start = drag.current;
    if (!start || start.pointer !== event.pointerId) return;
    setIndex(clamp(start.from + imagesForDrag(event.clientY - start.y), count - 1));
  };
  const endDrag = () => {
    drag.current = null;
  };

  const chooseSeries = (uid: string) => {
    setSeriesUid(uid);
    setIndex(0);
  };
  const close = () => {
    if (viewerCloseAction(popup, Boolean(window.opener)) === 'close-window') window.close();
    else void navigate('/');
  };
  const diagnosticHref = `${location.pathname}${withViewerKind(location.search, 'diagnostic')}`;
  const label = LIGHT_VIEWER_LABELS.image(index + 1, frames.length);

  return (
    <Box
      data-testid="light-viewer"
      sx={{
        position: 'fixed',
        inset: 0,
        zIndex: VIEWER_Z_INDEX,
        bgcolor: 'background.default',
        display: 'flex',
        flexDirection: 'column',
        minWidth: 0,
      }}
    >
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', px: 1, py: 0.5, minWidth: 0 }}>
        <IconButton aria-label={LIGHT_VIEWER_LABELS.close} onClick={close} size="large">
          <CloseIcon />
        </IconButton>
        <Typography
          noWrap
          sx={{ flex: 1, minWidth: 0 }}
          title={viewerTitle(context.patientName, context.modalities)}
        >
          {viewerTitle(context.patientName, context.modalities)}
        </Typography>
        <Button
          component={RouterLink}
          to={diagnosticHref}
          size="small"
          variant="outlined"
          sx={{ flexShrink: 0 }}
        >
          {LIGHT_VIEWER_LABELS.diagnostic}
        </Button>
      </Stack>
      <Stack
        direction="row"
        role="group"
        aria-label={LIGHT_VIEWER_LABELS.series}
        spacing={1}
        sx={{ overflowX: 'auto', px: 1, pb: 0.5, flexShrink: 0 }}
      >
        {list.map((s) => {
          const selected = s.seriesInstanceUid === current?.seriesInstanceUid;
          return (
            <Button
              key={s.seriesInstanceUid}
              variant={selected ? 'contained' : 'outlined'}
              aria-pressed={selected}
              onClick={() => chooseSeries(s.seriesInstanceUid)}
              sx={{ flexShrink: 0, textTransform: 'none', gap: 1, minHeight: 48 }}
            >
              <Box
                component="img"
                src={seriesThumbnailUrl(origin, studyUid, s.seriesInstanceUid)}
                alt=""
                loading="lazy"
                sx={{ width: 40, height: 40, objectFit: 'contain', bgcolor: 'common.black' }}
              />
              {displaySeriesName(s.description, s.seriesNumber, context.seriesNames)} ({s.instanceCount})
            </Button>
          );
        })}
      </Stack>
      <Box
        ref={stage}
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={endDrag}
        onPointerCancel={endDrag}
        data-testid="light-viewer-stage"
        sx={{
          flex: 1,
          minHeight: 0,
          bgcolor: 'common.black',
          display: 'flex',
          alignItems: 'center',
          justifyContent: 'center',
          touchAction: 'none',
          userSelect: 'none',
          position: 'relative',
        }}
      >
        {seriesList.isError || stack.isError ? (
          <Alert severity="error">{LIGHT_VIEWER_LABELS.none}</Alert>
        ) : seriesList.isSuccess && (list.length === 0 || (stack.isSuccess && frames.length === 0)) ? (
          <Alert severity="info">{LIGHT_VIEWER_LABELS.none}</Alert>
        ) : src && failed ? (
          <Alert severity="warning">{LIGHT_VIEWER_LABELS.failed}</Alert>
        ) : src ? (
          <Box
            key={`${src}#${failures}`}
            component="img"
            src={src}
            alt={label}
            draggable={false}
            onError={onFrameError}
            sx={{ maxWidth: '100%', maxHeight: '100%', objectFit: 'contain', pointerEvents: 'none' }}
          />
        ) : null}
      </Box>
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', px: 1, flexShrink: 0 }}>
        <Button
          onClick={() => move(-1)}
          disabled={index === 0}
          aria-label={LIGHT_VIEWER_LABELS.previous}
          sx={{ minWidth: 48, minHeight: 48 }}
        >
          ‹
        </Button>
        <Slider
          aria-label={LIGHT_VIEWER_LABELS.slider}
          value={Math.min(index, Math.max(frames.length - 1, 0))}
          min={0}
          max={Math.max(frames.length - 1, 0)}
          step={1}
          disabled={frames.length < 2}
          onChange={(_, value) => setIndex(clamp(Number(value), frames.length - 1))}
          sx={{ flex: 1 }}
        />
        <Button
          onClick={() => move(1)}
          disabled={index >= frames.length - 1}
          aria-label={LIGHT_VIEWER_LABELS.next}
          sx={{ minWidth: 48, minHeight: 48 }}
        >
          ›
        </Button>
        <Typography variant="body2" aria-live="polite" sx={{ minWidth: 56, textAlign: 'right' }}>
          {frames.length > 0 ? `${index + 1} / ${frames.length}` : ''}
        </Typography>
      </Stack>
      <Stack
        direction="row"
        role="group"
        aria-label={LIGHT_VIEWER_LABELS.presets}
        spacing={1}
        sx={{ overflowX: 'auto', px: 1, pb: 1, flexShrink: 0 }}
      >
        {[
          { name: LIGHT_VIEWER_LABELS.defaultPreset, window: null },
          ...WINDOW_PRESETS.map((p) => ({ name: p.name, window: { width: p.width, level: p.level } })),
        ].map((p) => {
          const selected =
            (preset === null && p.window === null) ||
            (preset !== null &&
              p.window !== null &&
              preset.width === p.window.width &&
              preset.level === p.window.level);
          return (
            <Button
              key={p.name}
              size="small"
              variant={selected ? 'contained' : 'outlined'}
              aria-pressed={selected}
              onClick={() => setPreset(p.window)}
              sx={{ flexShrink: 0, textTransform: 'none', minHeight: 40 }}
            >
              {p.name}
            </Button>
          );
        })}
      </Stack>
    </Box>
  );
}

export { DRAG_PIXELS_PER_IMAGE };
