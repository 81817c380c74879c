/**
 * The upload bandwidth cap: a token bucket in bytes, shared by every request of the uploader, taken
 * from as the request body streams out. The burst is small (a quarter second of the rate, at least
 * 16 KB) so the link sees the rate, not bursts that fill the modem's buffer and starve the
 * center's other traffic.
 */
export interface Clock {
  now(): number;
  sleep(ms: number): Promise<void>;
}

export const realClock: Clock = {
  now: () => performance.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

export class TokenBucket {
  private tokens: number;
  private last: number;
  private queue: Promise<void> = Promise.resolve();
  readonly burstBytes: number;

  constructor(
    /** Bytes per second; 0 or less: no cap. */
    private readonly bytesPerSecond: number,
    private readonly clock: Clock = realClock,
    burstBytes?: number,
  ) {
    this.burstBytes = burstBytes ?? Math.max(16 * 1024, Math.round(bytesPerSecond / 4));
    this.tokens = this.burstBytes;
    this.last = clock.now();
  }

  get isCapped(): boolean {
    return this.bytesPerSecond > 0;
  }

  /** Resolves when `bytes` may be sent; callers are served in order (one chunk may exceed the burst). */
  take(bytes: number): Promise<void> {
    if (!this.isCapped) return Promise.resolve();
    const turn = this.queue.then(() => this.wait(bytes));
    this.queue = turn;
    return turn;
  }

  private async wait(bytes: number): Promise<void> {
    this.refill();
    if (this.tokens < bytes) {
      const deficit = bytes - this.tokens;
      await this.clock.sleep(Math.ceil((deficit / this.bytesPerSecond) * 1000));
      this.refill();
    }
    this.tokens -= bytes;
  }

  private refill(): void {
    const now = this.clock.now();
    this.tokens = Math.min(this.burstBytes, this.tokens + ((now - this.last) / 1000) * this.bytesPerSecond);
    this.last = now;
  }
}

/** Yields `source`'s bytes in chunks of at most `chunkBytes`, each once the bucket allows it. */
export async function* throttled(
  source: Iterable<Uint8Array> | AsyncIterable<Uint8Array>,
  bucket: TokenBucket,
  chunkBytes = 16 * 1024,
): AsyncGenerator<Uint8Array> {
  for await (const buffer of source) {
    for (let at = 0; at < buffer.length; at += chunkBytes) {
      const chunk = buffer.subarray(at, Math.min(buffer.length, at + chunkBytes));
      await bucket.take(chunk.length);
      yield chunk;
    }
  }
}
