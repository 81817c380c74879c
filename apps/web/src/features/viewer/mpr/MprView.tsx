import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import CrosshairsIcon from '@mui/icons-material/GpsFixed';
import ResetIcon from '@mui/icons-material/RestartAlt';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import LinearProgress from '@mui/material/LinearProgress';
import ToggleButton from '@mui/material/ToggleButton';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useEffect, useImperativeHandle, useState, type Ref } from 'react';
import { ImagePlaceholder } from '../components/ImagePlaceholder';
import { ViewportFrame } from '../components/ViewportFrame';
import { OVERLAY_TEXT, OrientationEdges } from '../components/ViewportOverlay';
import type { TLoadedSeries } from '../data-source/dicomweb-source';
import { formatSlice, formatWindow } from '../overlay-text';
import type { TToolKey } from '../viewer-keys';
import { MPR_VIEWS, MprEngine, type TMprTool, type TMprViewKey, type TVolumeProgress } from './mpr-engine';
import { useMprReadout } from './mpr-readout';

/** What the workspace's keys and toolbar do to the MPR views. */
export interface TMprHandle {
  /** A window preset on all three views. */
  setWindow(width: number, level: number): void;
  /** A slice up or down in the view last clicked. */
  scroll(step: number): void;
  reset(): void;
}

type TLoadState =
  | { kind: 'loading'; progress: TVolumeProgress | null }
  | { kind: 'ready' }
  | { kind: 'failed'; message: string };

const mprToolOf = (tool: TToolKey): TMprTool => (tool === 'pan' || tool === 'zoom' ? tool : 'windowLevel');

function MprPane({
  view,
  engine,
  active,
  state,
  onElement,
  onActivate,
}: {
  view: (typeof MPR_VIEWS)[number];
  engine: MprEngine | null;
  active: boolean;
  state: TLoadState;
  onElement: (view: TMprViewKey, element: HTMLDivElement | null) => void;
  onActivate: () => void;
}) {
  const [element, setElement] = useState<HTMLDivElement | null>(null);
  useEffect(() => onElement(view.key, element), [onElement, view.key, element]);
  const readout = useMprReadout(engine, view.key, element);
  const edges = state.kind === 'failed' ? null : (readout?.edges ?? null);
  return (
    <ViewportFrame
      testId={`mpr-view-${view.key}`}
      active={active}
      onActivate={onActivate}
      onElement={setElement}
    >
      <Box sx={{ ...OVERLAY_TEXT, top: 4, left: 6 }}>
        <Box component="span" sx={{ color: view.color, fontWeight: 600 }}>
          {view.label}
        </Box>
      </Box>
      <Box sx={{ ...OVERLAY_TEXT, bottom: 4, left: 6 }} data-testid="mpr-overlay-slice">
        {readout && state.kind !== 'failed' ? formatSlice(readout.index, readout.total) : ''}
      </Box>
      <Box sx={{ ...OVERLAY_TEXT, bottom: 4, right: 6, textAlign: 'right' }} data-testid="mpr-overlay-window">
        {readout && state.kind !== 'failed' ? formatWindow(readout.windowWidth, readout.windowLevel) : ''}
      </Box>
      {edges && <OrientationEdges edges={edges} />}
      {state.kind === 'loading' && (
        <Box sx={{ ...OVERLAY_TEXT, top: 22, left: 6, color: 'warning.light' }} data-testid="mpr-loading">
          Loading volume
          {state.progress ? ` ${state.progress.done + state.progress.failed}/${state.progress.total}` : '…'}
        </Box>
      )}
      {state.kind === 'failed' && <ImagePlaceholder kind="failed" text={state.message} />}
    </ViewportFrame>
  );
}

/**
 * MPR (issue 5 §3): axial, sagittal and coronal views of one streaming volume, with window level
 * synchronised across them, crosshairs, and the presets and frame keys of the stack viewer.
 */
export function MprView({
  series,
  seriesLine,
  tool,
  onExit,
  ref,
}: {
  series: TLoadedSeries;
  seriesLine: string;
  /** The viewer's mouse tool: window level, pan and zoom apply here too. */
  tool: TToolKey;
  onExit: () => void;
  ref?: Ref<TMprHandle>;
}) {
  const [elements, setElements] = useState<Partial<Record<TMprViewKey, HTMLDivElement>>>({});
  const [engine, setEngine] = useState<MprEngine | null>(null);
  const [state, setState] = useState<TLoadState>({ kind: 'loading', progress: null });
  const [active, setActive] = useState<TMprViewKey>('axial');
  const [crosshairs, setCrosshairs] = useState(false);

  const onElement = useStableElementSetter(setElements);
  const { axial, sagittal, coronal } = elements;

  useEffect(() => {
    if (!axial || !sagittal || !coronal) return undefined;
    let live = true;
    let created: MprEngine | null = null;
    setState({ kind: 'loading', progress: null });
    try {
      created = new MprEngine({ axial, sagittal, coronal });
    } catch (error) {
      setState({
        kind: 'failed',
        message: `MPR could not start: this browser cannot render volumes (WebGL). ${String(error)}`,
      });
      return undefined;
    }
    setEngine(created);
    created
      .load(series, (progress) => {
        if (live) setState({ kind: 'loading', progress });
      })
      .then(({ failed, total }) => {
        if (!live) return;
        setState(
          failed === 0
            ? { kind: 'ready' }
            : {
                kind: 'failed',
                message: `MPR could not be built: ${failed} of ${total} slices could not be loaded.`,
              },
        );
      })
      .catch((error: unknown) => {
        if (live) setState({ kind: 'failed', message: `MPR could not be built: ${String(error)}` });
      });
    return () => {
      live = false;
      created?.destroy();
      setEngine(null);
    };
  }, [axial, sagittal, coronal, series]);

  useEffect(() => {
    engine?.setPrimaryTool(crosshairs ? 'crosshairs' : mprToolOf(tool));
  }, [engine, tool, crosshairs]);

  useEffect(() => {
    if (!engine || !axial) return undefined;
    const observer = new ResizeObserver(() => engine.resize());
    observer.observe(axial);
    return () => observer.disconnect();
  }, [engine, axial]);

  useImperativeHandle(
    ref,
    () => ({
      setWindow: (width, level) => engine?.setWindow(width, level),
      scroll: (step) => engine?.scroll(active, step),
      reset: () => engine?.reset(),
    }),
    [engine, active],
  );

  const progress = state.kind === 'loading' ? state.progress : null;
  return (
    <Box data-testid="mpr" sx={{ flex: 1, minWidth: 0, display: 'flex', flexDirection: 'column' }}>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, px: 1, py: 0.25 }}>
        <Button size="small" startIcon={<ArrowBackIcon />} onClick={onExit}>
          Back to stack
        </Button>
        <Typography noWrap sx={{ flex: 1, minWidth: 0 }}>
          MPR · {seriesLine}
        </Typography>
        <Tooltip title="Crosshairs: left click or drag points the three views at one spot">
          <ToggleButton
            size="small"
            value="crosshairs"
            selected={crosshairs}
            onChange={() => setCrosshairs((on) => !on)}
            aria-label="Crosshairs"
          >
            <CrosshairsIcon fontSize="small" />
          </ToggleButton>
        </Tooltip>
        <Tooltip title="Reset MPR views">
          <IconButton size="small" aria-label="Reset MPR views" onClick={() => engine?.reset()}>
            <ResetIcon fontSize="small" />
          </IconButton>
        </Tooltip>
      </Box>
      <LinearProgress
        aria-label="Volume loading"
        variant={progress ? 'determinate' : state.kind === 'loading' ? 'indeterminate' : 'determinate'}
        value={
          progress && progress.total > 0
            ? (100 * (progress.done + progress.failed)) / progress.total
            : state.kind === 'loading'
              ? 0
              : 100
        }
        sx={{ visibility: state.kind === 'loading' ? 'visible' : 'hidden' }}
      />
      <Box
        sx={{
          flex: 1,
          minHeight: 0,
          display: 'grid',
          gridTemplateColumns: 'repeat(3, minmax(0, 1fr))',
          gap: '2px',
          bgcolor: 'grey.900',
        }}
      >
        {MPR_VIEWS.map((view) => (
          <MprPane
            key={view.key}
            view={view}
            engine={engine}
            active={active === view.key}
            state={state}
            onElement={onElement}
            onActivate={() => setActive(view.key)}
          />
        ))}
      </Box>
    </Box>
  );
}

/** A setter of one view's element into the map, stable across renders (panes call it in effects). */
function useStableElementSetter(
  setElements: (
    update: (
      old: Partial<Record<TMprViewKey, HTMLDivElement>>,
    ) => Partial<Record<TMprViewKey, HTMLDivElement>>,
  ) => void,
) {
  const [setter] = useState(
    () => (view: TMprViewKey, element: HTMLDivElement | null) =>
      setElements((old) => {
        if ((old[view] ?? null) === element) return old;
        const next = { ...old };
        if (element) next[view] = element;
        else delete next[view];
        return next;
      }),
  );
  return setter;
}
