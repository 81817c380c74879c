/**
 * Exponential backoff with jitter for the uploader's retries: attempt n waits between half and all
 * of min(max, base·2ⁿ) ("equal jitter"), so routers that lost the link together do not come back
 * in step, and a retry never comes sooner than half the step.
 */
export interface BackoffOptions {
  readonly baseMs: number;
  readonly maxMs: number;
}

export function backoffDelay(
  attempt: number,
  options: BackoffOptions,
  random: () => number = Math.random,
): number {
  const step = Math.min(options.maxMs, options.baseMs * 2 ** Math.max(0, Math.min(attempt, 30)));
  return Math.round(step / 2 + random() * (step / 2));
}

/** A server's Retry-After (seconds or an HTTP date) in ms, if it sent one we can read. */
export function retryAfterMs(header: string | string[] | undefined, now = Date.now()): number | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  if (!value) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}
