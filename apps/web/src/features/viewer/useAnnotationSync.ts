import { eventTarget, getEnabledElementByIds } from '@cornerstonejs/core';
import {
  Enums as ToolEnums,
  annotation as csAnnotation,
  type Types as ToolTypes,
} from '@cornerstonejs/tools';
import type { TViewerContext } from '@radflow/core';
import { useCallback, useEffect, useRef } from 'react';
import { toCornerstoneAnnotation, toSavedAnnotation } from './annotations-sync';
import type { TLoadedSeries } from './data-source/dicomweb-source';
import { dicomwebRoot } from './data-source/image-ids';
import type { ViewerEngine } from './engine/viewer-engine';
import {
  type AnnotationStore,
  useDeleteAnnotation,
  useSaveAnnotation,
  useStoredAnnotations,
} from './viewer-api';

type TAnnotationEvent = CustomEvent<{ annotation: ToolTypes.Annotation; changeType?: string }>;

/** Moving a handle fires many modifications: the drawing is saved once it rests this long. */
const MODIFY_SAVE_DELAY_MS = 500;

/**
 * Keeps Cornerstone's annotations and the store's in step (issue 5 §2 "measurements and arrows
 * saved per study and shown again when it is reopened"): completed, modified and removed drawings
 * are saved or deleted; the saved ones are put back on the images of each series a viewport shows.
 * `store`: the cloud's row of the study, or the router offline; null keeps nothing.
 */
export function useAnnotationSync(
  context: TViewerContext,
  engine: ViewerEngine | null,
  userEmail: string,
  store: AnnotationStore | null,
): { onSeriesShown: (viewportId: string, series: TLoadedSeries) => void } {
  const saved = useStoredAnnotations(store);
  const save = useSaveAnnotation(store);
  const remove = useDeleteAnnotation(store);
  const keeps = store !== null;
  const shownRef = useRef(new Map<string, TLoadedSeries>());
  const saveRef = useRef(save.mutate);
  const removeRef = useRef(remove.mutate);
  saveRef.current = save.mutate;
  removeRef.current = remove.mutate;

  useEffect(() => {
    if (!engine || !context.canAnnotate || !keeps) return undefined;
    const timers = new Map<string, number>();
    const persist = (annotation: ToolTypes.Annotation) => {
      const body = toSavedAnnotation(annotation, context.studyInstanceUid);
      if (body && !annotation.isLocked) saveRef.current(body);
    };
    const onCompleted = (event: Event) => persist((event as TAnnotationEvent).detail.annotation);
    const onModified = (event: Event) => {
      const { annotation, changeType } = (event as TAnnotationEvent).detail;
      const uid = annotation.annotationUID;
      if (!uid || changeType === ToolEnums.ChangeTypes.StatsUpdated) return;
      window.clearTimeout(timers.get(uid));
      timers.set(
        uid,
        window.setTimeout(() => persist(annotation), MODIFY_SAVE_DELAY_MS),
      );
    };
    const onRemoved = (event: Event) => {
      const { annotation } = (event as TAnnotationEvent).detail;
      if (annotation.annotationUID && toSavedAnnotation(annotation, context.studyInstanceUid)) {
        window.clearTimeout(timers.get(annotation.annotationUID));
        removeRef.current(annotation.annotationUID);
      }
    };
    const { ANNOTATION_COMPLETED, ANNOTATION_MODIFIED, ANNOTATION_REMOVED } = ToolEnums.Events;
    eventTarget.addEventListener(ANNOTATION_COMPLETED, onCompleted);
    eventTarget.addEventListener(ANNOTATION_MODIFIED, onModified);
    eventTarget.addEventListener(ANNOTATION_REMOVED, onRemoved);
    return () => {
      eventTarget.removeEventListener(ANNOTATION_COMPLETED, onCompleted);
      eventTarget.removeEventListener(ANNOTATION_MODIFIED, onModified);
      eventTarget.removeEventListener(ANNOTATION_REMOVED, onRemoved);
      for (const timer of timers.values()) window.clearTimeout(timer);
    };
  }, [engine, context.canAnnotate, keeps, context.studyInstanceUid]);

  // Cornerstone's annotation state is global: what this viewer put in goes when it closes, after the
  // listeners above are gone (so nothing is deleted on the server).
  useEffect(() => () => csAnnotation.state.removeAllAnnotations(), []);

  const restore = useCallback(
    (viewportId: string, series: TLoadedSeries) => {
      const list = saved.data?.annotations ?? [];
      if (!engine || list.length === 0 || series.studyInstanceUid !== context.studyInstanceUid) return;
      const viewport = engine.viewport(viewportId);
      const element = viewport?.element;
      if (!viewport || !element || !getEnabledElementByIds(viewportId, engine.id)) return;
      const root = dicomwebRoot(window.location.origin);
      let added = 0;
      for (const item of list) {
        if (item.seriesInstanceUid !== series.seriesInstanceUid) continue;
        if (csAnnotation.state.getAnnotation(item.annotationUid)) continue;
        const restored = toCornerstoneAnnotation(item, root, context.studyInstanceUid, userEmail);
        if (restored.metadata) restored.metadata.FrameOfReferenceUID ??= viewport.getFrameOfReferenceUID();
        csAnnotation.state.addAnnotation(restored, element);
        added += 1;
      }
      if (added > 0) viewport.render();
    },
    [saved.data, engine, context.studyInstanceUid, userEmail],
  );

  // Annotations that arrive after the images are put on the viewports already showing them.
  useEffect(() => {
    for (const [viewportId, series] of shownRef.current) restore(viewportId, series);
  }, [restore]);

  const onSeriesShown = useCallback(
    (viewportId: string, series: TLoadedSeries) => {
      shownRef.current.set(viewportId, series);
      restore(viewportId, series);
    },
    [restore],
  );
  return { onSeriesShown };
}
