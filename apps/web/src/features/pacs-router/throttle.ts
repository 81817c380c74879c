/**
 * Runs `run` at most once per `ms`: the first call at once, calls within the window folded into one
 * at its end (spec-core §9 'Router': event throttle 10 s — a 500-image study's events refresh the
 * screen a few times, not 1,500). Returns the throttled function and a cancel for unmount.
 */
export function throttle(run: () => void, ms: number): { call: () => void; cancel: () => void } {
  let last = -Infinity;
  let timer: ReturnType<typeof setTimeout> | null = null;
  const fire = () => {
    timer = null;
    last = Date.now();
    run();
  };
  return {
    call() {
      if (timer) return;
      const wait = last + ms - Date.now();
      if (wait <= 0) fire();
      else timer = setTimeout(fire, wait);
    },
    cancel() {
      if (timer) clearTimeout(timer);
      timer = null;
    },
  };
}
