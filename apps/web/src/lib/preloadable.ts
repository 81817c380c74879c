import {
  createElement,
  lazy,
  useRef,
  type ComponentProps,
  type ComponentType,
  type FunctionComponent,
} from 'react';

// React.lazy's own constraint: a component with required props is no ComponentType<unknown>.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type TAnyComponent = ComponentType<any>;

/** A code-split component and the way to load it early (`preloadable`). */
export type TPreloadable<T extends TAnyComponent> = FunctionComponent<ComponentProps<T>> & {
  /** Starts loading the chunk (once); resolves when the component can be drawn without suspending. */
  preload(): Promise<void>;
};

/**
 * A code-split component (React.lazy) that can be loaded before it is first drawn.
 *
 * Why not React.lazy alone: a lazy component suspends on its first render even when its chunk is
 * already in the cache, and React reveals suspended content at most once per 300 ms after a fallback
 * (react-dom's FALLBACK_THROTTLE_MS). Measured on a quiet machine, each first open of a settings
 * dialog took ~500 ms, 300 of them waiting on that throttle, and /setting-page drew its heading
 * ~650 ms after navigation start. Drawn after `preload()` has finished, this component renders the
 * loaded module directly: no suspension, no fallback, no throttle. Before that it is React.lazy,
 * under the nearest Suspense as before.
 */
export function preloadable<T extends TAnyComponent>(load: () => Promise<{ default: T }>): TPreloadable<T> {
  let loaded: T | undefined;
  let loading: Promise<{ default: T }> | undefined;
  const loadOnce = () =>
    (loading ??= load().then(
      (module) => {
        loaded = module.default;
        return module;
      },
      (error: unknown) => {
        // A failed chunk (a deploy replaced it, the link dropped) is tried again on the next call.
        loading = undefined;
        throw error;
      },
    ));
  const Lazy = lazy(loadOnce);
  function Preloadable(props: ComponentProps<T>) {
    // Chosen once per mount: switching from the lazy wrapper to the module would remount the tree.
    const ready = useRef(loaded).current;
    return createElement((ready ?? Lazy) as ComponentType<ComponentProps<T>>, props);
  }
  Preloadable.preload = () => loadOnce().then(() => undefined);
  return Preloadable;
}

type TIdleWindow = Window & {
  requestIdleCallback?: (callback: () => void, options?: { timeout: number }) => number;
};

/**
 * Loads these components once the browser is idle (after the page that offers them has drawn), so
 * the click that opens one draws it at once. Failures are left for the click to meet and report.
 */
export function preloadWhenIdle(components: readonly { preload(): Promise<void> }[]): void {
  if (typeof window === 'undefined' || components.length === 0) return;
  const start = () => {
    for (const component of components) component.preload().catch(() => undefined);
  };
  const idle = (window as TIdleWindow).requestIdleCallback;
  if (idle) idle(start, { timeout: 2_000 });
  else setTimeout(start, 200);
}

/**
 * Opens what shows this component once its chunk is in (at once when it was preloaded), so it draws
 * without suspending. A chunk that fails to load still opens it: its Suspense and error boundary
 * show what happened. A caller gone by then (a row refreshed away) sets no state: React ignores it.
 */
export function openWhenLoaded(component: { preload(): Promise<void> }, open: () => void): void {
  component.preload().then(open, open);
}
