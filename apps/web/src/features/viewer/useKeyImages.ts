import type { TViewerContext } from '@radflow/core';
import type { TFrameRef } from './data-source/image-ids';
import { useMarkKeyImage, useUnmarkKeyImage, useViewerAnnotations } from './viewer-api';

const sameFrame = (a: TFrameRef, b: Pick<TFrameRef, 'sopInstanceUid' | 'frameNumber'>) =>
  a.sopInstanceUid === b.sopInstanceUid && a.frameNumber === b.frameNumber;

/** The study's key images (for the report): which frames are marked, and marking the one on screen. */
export function useKeyImages(context: TViewerContext) {
  const keyImages = useViewerAnnotations(context.id).data?.keyImages ?? [];
  const mark = useMarkKeyImage(context.id);
  const unmark = useUnmarkKeyImage(context.id);
  const isKeyImage = (frame: TFrameRef) => keyImages.some((k) => sameFrame(frame, k));
  return {
    isKeyImage,
    countInSeries: (seriesInstanceUid: string) =>
      keyImages.filter((k) => k.seriesInstanceUid === seriesInstanceUid).length,
    toggle: (frame: TFrameRef) => {
      const { seriesInstanceUid, sopInstanceUid, frameNumber } = frame;
      if (isKeyImage(frame)) unmark.mutate({ sopInstanceUid, frameNumber });
      else mark.mutate({ seriesInstanceUid, sopInstanceUid, frameNumber });
    },
  };
}
