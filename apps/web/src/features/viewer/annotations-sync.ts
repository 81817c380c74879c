import { VIEWER_ANNOTATION_TOOLS, type TViewerAnnotation, type TViewerAnnotationInput } from '@radflow/core';
import type { Types } from '@cornerstonejs/core';
import type { Types as ToolTypes } from '@cornerstonejs/tools';
import { frameImageId, frameOfImageId } from './data-source/image-ids';

type TAnnotation = ToolTypes.Annotation;
type TSavedTool = TViewerAnnotationInput['toolName'];

const isSavedTool = (name: string): name is TSavedTool =>
  (VIEWER_ANNOTATION_TOOLS as readonly string[]).includes(name);

/** The geometry a drawing needs to come back where it was (not the image id: URLs change with the host). */
const VIEW_KEYS = ['viewPlaneNormal', 'viewUp', 'cameraPosition', 'FrameOfReferenceUID'] as const;

/**
 * The saved form of a Cornerstone annotation of the study (Length, Ellipse, Angle, Arrow): its frame
 * and the serialisable part (handles, label, text, view geometry). Null for other tools, for images
 * of another study (a prior shown beside it) and for annotations without an image.
 */
export function toSavedAnnotation(
  annotation: TAnnotation,
  studyInstanceUid: string,
): TViewerAnnotationInput | null {
  const { metadata, data, annotationUID } = annotation;
  if (!metadata || !data) return null;
  if (!annotationUID || !isSavedTool(metadata.toolName) || !metadata.referencedImageId) return null;
  const frame = frameOfImageId(metadata.referencedImageId);
  if (!frame || frame.studyInstanceUid !== studyInstanceUid) return null;
  const view: Record<string, unknown> = {};
  for (const key of VIEW_KEYS) if (metadata[key] !== undefined) view[key] = metadata[key];
  const handles = data.handles ?? {};
  return {
    annotationUid: annotationUID,
    toolName: metadata.toolName,
    seriesInstanceUid: frame.seriesInstanceUid,
    sopInstanceUid: frame.sopInstanceUid,
    frameNumber: frame.frameNumber,
    data: {
      handles: { points: handles.points ?? [], ...(handles.textBox ? { textBox: handles.textBox } : {}) },
      ...(data.label !== undefined ? { label: data.label } : {}),
      ...(typeof data.text === 'string' ? { text: data.text } : {}),
      view,
    },
  };
}

/**
 * A saved annotation as Cornerstone holds it, on the image id of its frame. Someone else's drawing
 * is locked (the server refuses their change anyway); stats are recomputed on the first render.
 */
export function toCornerstoneAnnotation(
  saved: TViewerAnnotation,
  root: string,
  studyInstanceUid: string,
  currentUserEmail: string,
): TAnnotation {
  const data = saved.data as {
    handles?: { points?: unknown[]; textBox?: unknown };
    label?: string;
    text?: string;
    view?: Record<string, unknown>;
  };
  const view = data.view ?? {};
  return {
    annotationUID: saved.annotationUid,
    highlighted: false,
    invalidated: true,
    isVisible: true,
    isLocked: Boolean(saved.createdBy && saved.createdBy !== currentUserEmail),
    metadata: {
      ...view,
      toolName: saved.toolName,
      referencedImageId: frameImageId(root, studyInstanceUid, saved),
    } as TAnnotation['metadata'],
    data: {
      handles: {
        points: (data.handles?.points ?? []) as Types.Point3[],
        activeHandleIndex: null,
        ...(data.handles?.textBox ? { textBox: data.handles.textBox as never } : {}),
      },
      ...(data.label !== undefined ? { label: data.label } : {}),
      ...(data.text !== undefined ? { text: data.text } : {}),
      cachedStats: {},
    },
  };
}
