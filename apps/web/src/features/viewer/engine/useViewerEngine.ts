import { useEffect, useState } from 'react';
import { initCornerstone } from './cornerstone-init';
import { ViewerEngine } from './viewer-engine';

/**
 * The viewer's engine for as long as the workspace is mounted: Cornerstone initialised on first
 * use, one engine per mount, destroyed on unmount (StrictMode's second mount gets a fresh one).
 */
export function useViewerEngine(): { engine: ViewerEngine | null; error: string | null } {
  const [engine, setEngine] = useState<ViewerEngine | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    let created: ViewerEngine | null = null;
    initCornerstone()
      .then(() => {
        if (!live) return;
        created = new ViewerEngine();
        setEngine(created);
      })
      .catch((e: unknown) => {
        if (live) setError(`The viewer could not start: ${String(e)}`);
      });
    return () => {
      live = false;
      created?.destroy();
      setEngine(null);
    };
  }, []);
  return { engine, error };
}
