/**
 * Back-off of a forward whose instances failed (issue 3 §6 "retries with back-off while the PACS is
 * down"): attempt n failed → try again after RETRY_DELAYS_SECONDS[n-1]; after MAX_SEND_ATTEMPTS the
 * instance stays FAILED until someone resends it.
 */
export const RETRY_DELAYS_SECONDS = [30, 120, 600, 1800] as const;
export const MAX_SEND_ATTEMPTS = RETRY_DELAYS_SECONDS.length + 1;

/** When to try an instance again after its `attempts`-th attempt failed, or null when none is left. */
export function nextAttemptAfterFailure(attempts: number, now: Date): Date | null {
  if (attempts >= MAX_SEND_ATTEMPTS) return null;
  const delay = RETRY_DELAYS_SECONDS[Math.max(0, attempts - 1)] ?? RETRY_DELAYS_SECONDS.at(-1)!;
  return new Date(now.getTime() + delay * 1000);
}
