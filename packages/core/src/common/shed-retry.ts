/**
 * Asking again when a busy server sheds a call. The server's load shedding (apps/server
 * plugins/load-shedding.ts) answers 503 with Retry-After before doing anything of the call, so
 * asking again is safe for any method: a save is not lost to a busy second. The web client sends
 * every call through this; the benches ask the way the web client does.
 */

/** How often a call the server shed as busy is asked again before its 503 is shown. */
export const SHED_RETRIES = 3;

/** The longest wait between two asks, whatever Retry-After says. */
export const SHED_WAIT_MAX_MS = 5_000;

/** What of an answer the rule reads (the browser's and Node's Response both have it). */
export interface TShedAnswer {
  status: number;
  headers: { get(name: string): string | null };
}

/** Whether the server shed the call: 503 with Retry-After (any other 503 is an answer). */
export function isShed(answer: TShedAnswer): boolean {
  return answer.status === 503 && answer.headers.get('Retry-After') !== null;
}

/** The server's Retry-After in ms, at most SHED_WAIT_MAX_MS (a number of seconds; anything else: 1 s). */
export function shedWaitMs(answer: TShedAnswer): number {
  const header = answer.headers.get('Retry-After');
  const seconds = header === null || header.trim() === '' ? Number.NaN : Number(header);
  return Number.isFinite(seconds) && seconds >= 0 ? Math.min(seconds * 1000, SHED_WAIT_MAX_MS) : 1000;
}

/**
 * Sends a call, and asks again (after the server's Retry-After, at most SHED_RETRIES times) while
 * the server sheds it. `onShed` sees each shed answer before the wait (to count it, or to read its
 * body so the connection is free again).
 */
export async function sendRetryingWhenShed<R extends TShedAnswer>(
  send: () => Promise<R>,
  onShed?: (answer: R) => void | Promise<void>,
): Promise<R> {
  let answer = await send();
  for (let retry = 0; retry < SHED_RETRIES && isShed(answer); retry++) {
    await onShed?.(answer);
    await new Promise((resolve) => setTimeout(resolve, shedWaitMs(answer)));
    answer = await send();
  }
  return answer;
}
