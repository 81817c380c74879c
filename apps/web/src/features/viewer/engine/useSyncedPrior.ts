import { Enums } from '@cornerstonejs/core';
import { SynchronizerManager, synchronizers } from '@cornerstonejs/tools';
import { useEffect } from 'react';
import type { ViewerEngine } from './viewer-engine';

const PAIR = ['vp-0', 'vp-1'] as const;

/** The index in a stack of `toCount` images at the same relative depth as `from` of `fromCount`. */
export function relativeIndex(from: number, fromCount: number, toCount: number): number {
  if (toCount <= 1 || fromCount <= 1) return 0;
  return Math.round((from / (fromCount - 1)) * (toCount - 1));
}

/**
 * A prior opened beside the study (issue 5 §3): window level follows between the two viewports
 * (Cornerstone's VOI synchronizer), and scrolling one moves the other to the same relative depth
 * (the two studies have different frames of reference, so positions cannot be matched directly).
 */
export function useSyncedPrior(engine: ViewerEngine | null, enabled: boolean): void {
  useEffect(() => {
    if (!engine || !enabled) return undefined;
    const voiId = `${engine.id}-voi`;
    const voi = synchronizers.createVOISynchronizer(voiId, { syncInvertState: true, syncColormap: false });
    for (const viewportId of PAIR) voi.add({ renderingEngineId: engine.id, viewportId });

    let following = false;
    const follow = (from: string, to: string) => () => {
      if (following) return;
      const source = engine.viewport(from);
      const target = engine.viewport(to);
      if (!source || !target) return;
      const index = relativeIndex(
        source.getCurrentImageIdIndex(),
        source.getImageIds().length,
        target.getImageIds().length,
      );
      if (index === target.getCurrentImageIdIndex()) return;
      following = true;
      void target.setImageIdIndex(index).finally(() => {
        following = false;
      });
    };
    const listeners = [follow(PAIR[0], PAIR[1]), follow(PAIR[1], PAIR[0])];
    const elements = PAIR.map((id) => engine.viewport(id)?.element);
    elements.forEach((element, i) => element?.addEventListener(Enums.Events.STACK_NEW_IMAGE, listeners[i]!));
    return () => {
      elements.forEach((element, i) =>
        element?.removeEventListener(Enums.Events.STACK_NEW_IMAGE, listeners[i]!),
      );
      SynchronizerManager.destroySynchronizer(voiId);
    };
  }, [engine, enabled]);
}
