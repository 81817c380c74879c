import { useEffect, useMemo, useRef, useState } from 'react';
import { useLoadedSeries } from '../components/ViewportPane';
import type { TLoadedSeries, TViewerDataSource } from '../data-source/dicomweb-source';
import type { TViewportContent } from '../layout';
import { isTextTarget } from '../viewer-keys';
import { MPR_KEY } from './MprButton';
import type { TMprHandle } from './MprView';
import { mprAvailability, type TMprAvailability } from './volume-rule';

const isInOverlay = (target: EventTarget | null) =>
  target instanceof Element && target.closest('[role="menu"], [role="dialog"], [role="listbox"]') !== null;

/**
 * MPR of the workspace: whether the active viewport's series forms a volume (the same loaded-series
 * query the viewport uses, so nothing is fetched twice), whether MPR shows and for which series,
 * its key, and the handle the presets and frame keys drive.
 */
export function useMpr({
  source,
  content,
  modality,
  keysEnabled,
}: {
  source: TViewerDataSource;
  content: TViewportContent | null;
  modality: string;
  keysEnabled: boolean;
}) {
  const loaded = useLoadedSeries(source, content);
  const series = loaded.data ?? null;
  const availability: TMprAvailability = useMemo(
    () =>
      mprAvailability(
        modality,
        series
          ? series.stack.map((instance) => ({
              metadata: instance.metadata,
              frames: instance.frames,
              transferSyntaxUid: series.syntaxOf.get(instance.sopInstanceUid) ?? '',
            }))
          : null,
      ),
    [modality, series],
  );
  const [shown, setShown] = useState<TLoadedSeries | null>(null);
  const handle = useRef<TMprHandle>(null);

  const toggle = () => {
    if (shown) setShown(null);
    else if (availability.state === 'ready' && series) setShown(series);
  };
  const toggleRef = useRef(toggle);
  toggleRef.current = toggle;

  useEffect(() => {
    if (!keysEnabled) return undefined;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.ctrlKey || event.metaKey || event.altKey || event.key.toLowerCase() !== MPR_KEY) return;
      if (isInOverlay(event.target) || isTextTarget(event.target)) return;
      event.preventDefault();
      toggleRef.current();
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [keysEnabled]);

  return { availability, shown, toggle, exit: () => setShown(null), handle };
}
