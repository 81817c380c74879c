import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { annotation as csAnnotation } from '@cornerstonejs/tools';
import { type TViewerContext, viewerCloseAction } from '@radflow/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Suspense, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { KeyboardShortcutsDialog } from '../../app/shell/KeyboardShortcutsDialog';
import { useFeedback } from '../../components/feedback/feedback-context';
import { useSignedInSession } from '../auth/session';
import { ArrowLabelDialog, type TArrowLabelRequest } from './components/ArrowLabelDialog';
import { PriorsPanel, type TPriorStudy } from './components/PriorsPanel';
import { SeriesPanel } from './components/SeriesPanel';
import { ViewerToolbar, type TViewAction } from './components/ViewerToolbar';
import { ViewerFrame, viewerTitle } from './components/ViewerFrame';
import { ViewportPane } from './components/ViewportPane';
import { createDicomwebSource, type TLoadedSeries, type TSeriesSummary } from './data-source/dicomweb-source';
import type { TFrameRef } from './data-source/image-ids';
import { useViewerEngine } from './engine/useViewerEngine';
import { useSyncedPrior } from './engine/useSyncedPrior';
import {
  LAYOUTS,
  changeLayout,
  showSeries,
  stepSeries,
  type TGridState,
  type TLayoutKey,
  type TViewportContent,
} from './layout';
import { displaySeriesName } from './series-names';
import { useAnnotationSync } from './useAnnotationSync';
import { useViewerKeyboard } from './useViewerKeyboard';
import { MprButton } from './mpr/MprButton';
import { MprView } from './mpr/MprView';
import { useMpr } from './mpr/useMpr';
import { useKeyImages } from './useKeyImages';
import { openAtOf, sliceIndexOf } from './open-at-image';
import { useExternalViewers } from './useExternalViewers';
import { type AnnotationStore, cloudAnnotationStore, keepsAnnotations, useWeasisLaunch } from './viewer-api';
import type { TToolKey, TViewerCommand } from './viewer-keys';
import { WINDOW_PRESETS } from './viewer-shortcuts';
import { preloadable } from '../../lib/preloadable';

// The report editor (TipTap) is its own chunk, loaded only when the editor shows.
const ViewerEditorPanel = preloadable(() => import('../report-editor/ViewerEditorPanel'));

const viewportIdOf = (index: number) => `vp-${index}`;
const seriesQueryKey = (studyInstanceUid: string) => ['viewer-series', studyInstanceUid] as const;

/** The reading screen (issue 5 §2, §3): series panel, toolbar, viewport grid, priors, editor panel. */
export default function ViewerWorkspace({
  context,
  showEditor,
  popup = false,
}: {
  context: TViewerContext;
  showEditor: boolean;
  /** `p=1` (spec-core §2): the viewer is a popup window; closing closes it. */
  popup?: boolean;
}) {
  const session = useSignedInSession();
  const external = useExternalViewers(context);
  return (
    <ReadingScreen
      context={context}
      showEditor={showEditor}
      popup={popup}
      userEmail={session.user.email}
      external={external}
      offline={null}
    />
  );
}

/**
 * The same screen on the page the router serves with the cloud unreachable (apps/router/HYBRID.md
 * "The diagnostic viewer offline"): the study's images from the router with every tool that needs
 * no cloud, its measurements kept on the router (`annotations`). Its context's id is 0 (no cloud
 * row: `keepsAnnotations`), so nothing saved in the cloud is asked for and there are no key images;
 * no priors, editor or external viewers.
 */
export function OfflineViewerWorkspace({
  context,
  userEmail,
  annotations,
  onClose,
}: {
  context: TViewerContext;
  userEmail: string;
  annotations: AnnotationStore;
  onClose: () => void;
}) {
  return (
    <ReadingScreen
      context={context}
      showEditor={false}
      popup={false}
      userEmail={userEmail}
      external={null}
      offline={{ onClose, annotations }}
    />
  );
}

function ReadingScreen({
  context,
  showEditor,
  popup,
  userEmail,
  external,
  offline,
}: {
  context: TViewerContext;
  showEditor: boolean;
  popup: boolean;
  userEmail: string;
  external: ReturnType<typeof useExternalViewers> | null;
  offline: { onClose: () => void; annotations: AnnotationStore } | null;
}) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { showError } = useFeedback();
  const source = useMemo(() => createDicomwebSource(), []);
  const { engine, error: engineError } = useViewerEngine();
  const studySeries = useQuery({
    queryKey: seriesQueryKey(context.studyInstanceUid),
    queryFn: () => source.listSeries(context.studyInstanceUid),
    staleTime: Infinity,
  });
  const [grid, setGrid] = useState<TGridState>({ layout: '1x1', series: [null], active: 0 });
  const [tool, setTool] = useState<TToolKey>('windowLevel');
  const [shortcutsOpen, setShortcutsOpen] = useState(false);
  const [activeFrame, setActiveFrame] = useState<TFrameRef | null>(null);
  const [prior, setPrior] = useState<TPriorStudy | null>(null);
  const [arrowLabel, setArrowLabel] = useState<TArrowLabelRequest | null>(null);
  const offlineAnnotations = offline?.annotations;
  const annotationStore = useMemo(
    () => offlineAnnotations ?? cloudAnnotationStore(context.id),
    [offlineAnnotations, context.id],
  );
  const { onSeriesShown: syncAnnotations } = useAnnotationSync(context, engine, userEmail, annotationStore);
  // A chat message's image link (?series=&sop=&frame=): that series first, at that slice, once.
  const [search] = useSearchParams();
  const openAt = useMemo(() => openAtOf(search), [search]);
  const openedAt = useRef(false);
  const onSeriesShown = useCallback(
    (viewportId: string, series: TLoadedSeries) => {
      syncAnnotations(viewportId, series);
      if (!openAt || openedAt.current || series.seriesInstanceUid !== openAt.seriesInstanceUid) return;
      openedAt.current = true;
      const index = sliceIndexOf(series, openAt);
      if (index !== null && index > 0) void engine?.jumpTo(viewportId, index);
    },
    [syncAnnotations, openAt, engine],
  );
  const keyImages = useKeyImages(context);
  const weasis = useWeasisLaunch(context.id);
  useSyncedPrior(engine, prior !== null && grid.layout === '1x2');
  useEffect(() => engine?.setArrowLabelPrompt((initial, done) => setArrowLabel({ initial, done })), [engine]);

  const mainContents = useMemo(
    () =>
      (studySeries.data ?? []).map((s) => ({
        studyInstanceUid: context.studyInstanceUid,
        seriesInstanceUid: s.seriesInstanceUid,
      })),
    [studySeries.data, context.studyInstanceUid],
  );

  // The first series opens by itself (the one an image link names, when the study has it).
  useEffect(() => {
    const named = mainContents.find((c) => c.seriesInstanceUid === openAt?.seriesInstanceUid);
    const first = named ?? mainContents[0];
    if (first) setGrid((g) => (g.series.every((s) => s === null) ? showSeries(g, 0, first) : g));
  }, [mainContents, openAt]);

  const activeId = viewportIdOf(grid.active);
  const activeContent = grid.series[grid.active] ?? null;
  const isMainFrame = activeFrame !== null && activeContent?.studyInstanceUid === context.studyInstanceUid;
  const { isKeyImage } = keyImages;
  const mpr = useMpr({
    source,
    content: activeContent,
    modality:
      (activeContent &&
        queryClient
          .getQueryData<TSeriesSummary[]>(seriesQueryKey(activeContent.studyInstanceUid))
          ?.find((s) => s.seriesInstanceUid === activeContent.seriesInstanceUid)?.modality) ??
      '',
    keysEnabled: !shortcutsOpen && arrowLabel === null,
  });

  const seriesOfStudy = useCallback(
    (studyInstanceUid: string): TSeriesSummary[] =>
      queryClient.getQueryData<TSeriesSummary[]>(seriesQueryKey(studyInstanceUid)) ?? [],
    [queryClient],
  );
  const nameOf = (s: TSeriesSummary) => displaySeriesName(s.description, s.seriesNumber, context.seriesNames);
  const seriesLineOf = (content: TViewportContent | null) => {
    if (!content) return '';
    const s = seriesOfStudy(content.studyInstanceUid).find(
      (x) => x.seriesInstanceUid === content.seriesInstanceUid,
    );
    return s ? `Ser: ${s.seriesNumber ?? '—'} ${nameOf(s)}` : '';
  };

  const selectTool = (next: TToolKey) => {
    setTool(next);
    engine?.setPrimaryTool(next);
  };

  const runCommand = (command: TViewerCommand) => {
    switch (command.kind) {
      case 'preset': {
        const preset = WINDOW_PRESETS[command.index];
        if (preset && mpr.shown) mpr.handle.current?.setWindow(preset.width, preset.level);
        else if (preset) engine?.setWindow(activeId, preset.width, preset.level);
        return;
      }
      case 'tool':
        selectTool(command.tool);
        return;
      case 'frame':
        if (mpr.shown) mpr.handle.current?.scroll(command.step);
        else engine?.scroll(activeId, command.step);
        return;
      case 'series': {
        const study = activeContent?.studyInstanceUid ?? context.studyInstanceUid;
        const uids = seriesOfStudy(study).map((s) => s.seriesInstanceUid);
        const next = stepSeries(uids, activeContent?.seriesInstanceUid ?? null, command.step);
        if (next) {
          mpr.exit();
          setGrid((g) => showSeries(g, g.active, { studyInstanceUid: study, seriesInstanceUid: next }));
        }
        return;
      }
      default: {
        const never: never = command;
        return never;
      }
    }
  };

  const runView = (action: TViewAction) => {
    // MPR keeps its planes upright (the labels follow the camera): only reset applies there.
    if (mpr.shown) {
      if (action === 'reset') mpr.handle.current?.reset();
      return;
    }
    if (!engine) return;
    if (action === 'invert') engine.invert(activeId);
    else if (action === 'rotate') engine.rotate(activeId, 90);
    else if (action === 'flipH') engine.flip(activeId, 'horizontal');
    else if (action === 'flipV') engine.flip(activeId, 'vertical');
    else engine.reset(activeId);
  };

  const deleteSelected = () => {
    for (const uid of csAnnotation.selection.getAnnotationsSelected() ?? []) {
      const selected = csAnnotation.state.getAnnotation(uid);
      if (selected && !selected.isLocked) csAnnotation.state.removeAnnotation(uid);
    }
    engine?.viewport(activeId)?.render();
  };

  useViewerKeyboard({
    enabled: !shortcutsOpen && arrowLabel === null,
    canAnnotate: context.canAnnotate,
    onCommand: runCommand,
    onDelete: deleteSelected,
  });

  /** The image on screen (the active viewport's canvas) as a PNG, for the report's key images. */
  const captureImage = useCallback(
    () =>
      new Promise<Blob | null>((resolve) => {
        const canvas = engine?.viewport(activeId)?.getCanvas();
        if (!canvas) resolve(null);
        else canvas.toBlob(resolve, 'image/png');
      }),
    [engine, activeId],
  );

  const toggleKeyImage = () => {
    if (activeFrame && isMainFrame) keyImages.toggle(activeFrame);
  };

  const openPrior = async (study: TPriorStudy) => {
    const series = await queryClient.fetchQuery({
      queryKey: seriesQueryKey(study.studyInstanceUid),
      queryFn: () => source.listSeries(study.studyInstanceUid),
      staleTime: Infinity,
    });
    const [first] = series;
    if (!first) {
      showError('The prior study has no images.');
      return;
    }
    setPrior(study);
    setGrid((g) => ({
      layout: '1x2',
      series: [
        g.series[g.active] ?? mainContents[0] ?? null,
        { studyInstanceUid: study.studyInstanceUid, seriesInstanceUid: first.seriesInstanceUid },
      ],
      active: 0,
    }));
  };

  const openWeasis = () =>
    weasis.mutate(undefined, {
      onSuccess: (launchUrl) => {
        window.location.href = launchUrl;
      },
    });

  const close = () => {
    if (offline) offline.onClose();
    else if (viewerCloseAction(popup, Boolean(window.opener)) === 'close-window') window.close();
    else void navigate('/');
  };

  const { rows, columns } = LAYOUTS[grid.layout];
  return (
    <ViewerFrame
      testId="viewer"
      title={viewerTitle(context.patientName, context.modalities)}
      onClose={close}
      toolbar={
        <ViewerToolbar
          tool={tool}
          canAnnotate={context.canAnnotate}
          layout={grid.layout}
          isKeyImage={activeFrame !== null && isKeyImage(activeFrame)}
          canMarkKeyImage={context.canAnnotate && keepsAnnotations(context.id) && isMainFrame}
          openInWeasis={context.openInWeasis}
          externalViewers={external?.viewers ?? []}
          onTool={selectTool}
          onPreset={(index) => runCommand({ kind: 'preset', index })}
          onView={runView}
          onLayout={(layout: TLayoutKey) => {
            mpr.exit();
            setGrid((g) => changeLayout(g, layout, mainContents));
          }}
          onToggleKeyImage={toggleKeyImage}
          onShortcuts={() => setShortcutsOpen(true)}
          onWeasis={openWeasis}
          onExternalViewer={(viewer) => external?.open(viewer)}
          mprButton={
            <MprButton availability={mpr.availability} on={mpr.shown !== null} onToggle={mpr.toggle} />
          }
        />
      }
      aside={
        <>
          {studySeries.isError ? (
            <Typography color="error" sx={{ p: 1.5 }}>
              The series list could not be loaded.
            </Typography>
          ) : (
            <SeriesPanel
              studyInstanceUid={context.studyInstanceUid}
              series={studySeries.data ?? []}
              nameOf={nameOf}
              thumbnailUrl={(uid) => source.thumbnailUrl(context.studyInstanceUid, uid)}
              shownInActive={activeContent?.seriesInstanceUid ?? null}
              keyImageCount={keyImages.countInSeries}
              onOpen={(content) => setGrid((g) => showSeries(g, g.active, content))}
            />
          )}
          {!offline && <PriorsPanel id={context.id} onOpen={(p) => void openPrior(p)} />}
        </>
      }
    >
      {mpr.shown && (
        <MprView
          ref={mpr.handle}
          series={mpr.shown}
          seriesLine={seriesLineOf(mpr.shown)}
          tool={tool}
          onExit={mpr.exit}
        />
      )}
      <Box
        sx={{
          flex: 1,
          minWidth: 0,
          display: mpr.shown ? 'none' : 'grid',
          gridTemplateRows: `repeat(${rows}, minmax(0, 1fr))`,
          gridTemplateColumns: `repeat(${columns}, minmax(0, 1fr))`,
          gap: '2px',
          bgcolor: 'grey.900',
        }}
      >
        {engineError ? (
          <Typography color="error" sx={{ p: 2 }}>
            {engineError}
          </Typography>
        ) : (
          grid.series.map((content, index) => (
            <ViewportPane
              key={viewportIdOf(index)}
              viewportId={viewportIdOf(index)}
              engine={engine}
              source={source}
              content={content}
              active={index === grid.active}
              context={context}
              studyDate={
                content && prior && content.studyInstanceUid === prior.studyInstanceUid
                  ? prior.studyDate
                  : context.studyDate
              }
              seriesLine={seriesLineOf(content)}
              isKeyImage={(frame) =>
                content?.studyInstanceUid === context.studyInstanceUid && isKeyImage(frame)
              }
              onActivate={() => setGrid((g) => (g.active === index ? g : { ...g, active: index }))}
              onDropSeries={(dropped) => setGrid((g) => showSeries(g, index, dropped))}
              onSeriesShown={onSeriesShown}
              onCurrentFrame={setActiveFrame}
            />
          ))
        )}
      </Box>
      {showEditor && (
        <Suspense fallback={null}>
          <ViewerEditorPanel reportStatusId={context.id} captureImage={captureImage} />
        </Suspense>
      )}
      <KeyboardShortcutsDialog open={shortcutsOpen} onClose={() => setShortcutsOpen(false)} />
      <ArrowLabelDialog request={arrowLabel} onClose={() => setArrowLabel(null)} />
      {external?.dialog}
    </ViewerFrame>
  );
}
