import { AppError } from '@radflow/core';

/** A 429 that also tells the client when to retry (the Retry-After header). */
export class TooManyRequestsError extends AppError {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super('TOO_MANY_REQUESTS', message, `retryAfterSeconds=${retryAfterSeconds}`);
  }
}

/** 'in 3 minutes', 'in 1 minute', 'in 40 seconds'. */
export function describeWait(seconds: number): string {
  if (seconds < 60) return `in ${seconds} second${seconds === 1 ? '' : 's'}`;
  const minutes = Math.ceil(seconds / 60);
  return `in ${minutes} minute${minutes === 1 ? '' : 's'}`;
}
