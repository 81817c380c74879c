/**
 * A job the server runs every `everyMs` in each process (the sweeps: uploads complete, orphan blobs,
 * critical-result escalation, seen notifications). One way for all of them: a tick while a run is
 * still going does nothing (runs never overlap), the timer is unref'd (it never keeps the process
 * alive), a failed run is handed to `onError` and the next tick tries again, and the returned
 * function stops the timer and waits for a run in progress (a clean shutdown).
 */
export function startPeriodicTask(
  run: () => Promise<unknown>,
  everyMs: number,
  onError: (error: unknown) => void,
): () => Promise<void> {
  let running: Promise<unknown> | null = null;
  const timer = setInterval(() => {
    if (running) return;
    running = run()
      .catch(onError)
      .finally(() => (running = null));
  }, everyMs);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await running;
  };
}
