/**
 * The uploader: takes batches of one study from the queue (urgent studies first), reads each file
 * and checks it against the sha256 recorded when it was received, sends the batch by STOW-RS and
 * marks sent only what the cloud confirmed (stow-client.ts). A failure of the link (cut, refused,
 * timeout, 5xx, a refused token) pauses every upload with exponential backoff and jitter; the
 * batch that was in flight is sent again — a repeat is harmless, the cloud's ingest acknowledges
 * the same bytes without storing them twice. A failure of one instance (the cloud refused it)
 * holds that instance with its reason until the center retries the study; a transient one of an
 * instance backs off its study only.
 */
import type { InstanceQueue, TQueuedFile } from '../queue/queue.js';
import { backoffDelay, retryAfterMs, type BackoffOptions } from './backoff.js';
import { BatchReader } from './batch-reader.js';
import { probeCloud, stowBatch, type StowPart } from './stow-client.js';
import { TokenBucket } from './token-bucket.js';
import { isUploadTime, msUntilUploadTime, type HoursRange } from './upload-hours.js';

export interface UploaderOptions {
  readonly serverUrl: string;
  readonly apiToken: string;
  /** Upload cap in bytes per second (0: none). */
  readonly bytesPerSecond: number;
  readonly uploadHours: readonly HoursRange[];
  /** A batch's bytes at most (one instance alone may be larger). */
  readonly batchBytes: number;
  readonly batchCount: number;
  /** Requests at once (they share the cap): a second one hides the cloud's answer time. */
  readonly concurrency: number;
  readonly backoff: BackoffOptions;
  /** While the link is down (no HTTP answer), the cloud is probed this often (ms) to resume at once. */
  readonly probeMs?: number;
  readonly idleTimeoutMs?: number;
  readonly log?: (message: string, fields?: Record<string, unknown>) => void;
  readonly now?: () => Date;
  /**
   * Asked before each batch: what to do to each image's bytes before it goes out (the group's
   * removeCenterNameWhileUploading, cloud-settings.ts). A throw gives the batch back for later.
   */
  readonly uploadTransform?: () => Promise<(bytes: Uint8Array) => Uint8Array>;
}

export interface UploaderStatus {
  readonly running: boolean;
  /** The link is failing: the last reason and when the next try is. */
  readonly linkError?: { reason: string; retryAt: string };
  readonly inUploadHours: boolean;
  readonly bytesSent: number;
}

export class Uploader {
  private running = false;
  private readonly sleepers = new Set<() => void>();
  private linkAttempt = 0;
  private linkRetryAt = 0;
  private linkError: { reason: string; retryAt: string } | undefined;
  /** No HTTP answer came: one worker probes the cloud until it answers. */
  private linkDown = false;
  private probing = false;
  private readonly studyAttempts = new Map<string, number>();
  private readonly workers: Promise<void>[] = [];
  private readonly bucket: TokenBucket;
  private bytesSent = 0;
  private readonly onQueueChange = () => this.poke();

  constructor(
    private readonly queue: InstanceQueue,
    private readonly options: UploaderOptions,
  ) {
    this.bucket = new TokenBucket(options.bytesPerSecond);
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.queue.on('instance-queued', this.onQueueChange);
    this.queue.on('study-retry', this.onQueueChange);
    for (let i = 0; i < Math.max(1, this.options.concurrency); i++) this.workers.push(this.work());
  }

  /** Stops taking batches and waits for the ones in flight to be answered (or to fail). */
  async stop(): Promise<void> {
    this.running = false;
    this.queue.off('instance-queued', this.onQueueChange);
    this.queue.off('study-retry', this.onQueueChange);
    this.poke();
    await Promise.all(this.workers.splice(0));
  }

  status(): UploaderStatus {
    return {
      running: this.running,
      ...(this.linkError && (this.linkDown || this.linkRetryAt > Date.now())
        ? { linkError: this.linkError }
        : {}),
      inUploadHours: isUploadTime(this.options.uploadHours, this.now()),
      bytesSent: this.bytesSent,
    };
  }

  /** Wakes sleeping workers (new work, a retry, a stop). */
  poke(): void {
    for (const wake of [...this.sleepers]) wake();
  }

  private now(): Date {
    return this.options.now?.() ?? new Date();
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.sleepers.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.sleepers.add(done);
    });
  }

  private async work(): Promise<void> {
    // Each worker reads its batches into a buffer of its own, reused once a batch's request is over.
    const reader = new BatchReader(this.options.batchBytes);
    while (this.running) {
      const closedFor = msUntilUploadTime(this.options.uploadHours, this.now());
      if (closedFor > 0) {
        await this.sleep(Math.min(closedFor, 60_000));
        continue;
      }
      if (this.linkDown) {
        await this.waitForLink();
        continue;
      }
      const linkWait = this.linkRetryAt - Date.now();
      if (linkWait > 0) {
        await this.sleep(linkWait);
        continue;
      }
      const batch = this.queue.takeBatch(this.options.batchBytes, this.options.batchCount);
      if (batch.length === 0) {
        const next = this.queue.nextRetryAt();
        await this.sleep(next === undefined ? 60_000 : Math.max(10, next - Date.now()));
        continue;
      }
      try {
        await this.send(batch, reader);
      } catch (error) {
        // Never leave a batch taken: give it back and back off the link.
        this.queue.release(batch.map((f) => f.key));
        this.linkFailed(`Upload error: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
  }

  private async send(batch: TQueuedFile[], reader: BatchReader): Promise<void> {
    const transform = this.options.uploadTransform ? await this.options.uploadTransform() : null;
    const { intact, unreadable, damaged } = await reader.read(batch);
    for (const { file, reason } of unreadable) {
      await this.queue.markFailed([file.key], `The spool file cannot be read: ${reason}`, {
        permanent: true,
      });
    }
    if (damaged.length > 0) {
      await this.queue.markFailed(
        damaged.map((f) => f.key),
        'The spool file no longer matches the checksum taken when it was received',
        { permanent: true },
      );
    }
    // Checked as received, then changed as the group asks (the cloud keeps what it was sent).
    const parts: StowPart[] = intact.map(({ file, bytes }) => ({
      sopInstanceUid: file.sopInstanceUid,
      bytes: transform ? transform(bytes) : bytes,
    }));
    if (parts.length === 0) return;
    const sentFiles = intact.map(({ file }) => file);
    const studyInstanceUid = batch[0]!.studyInstanceUid;
    const result = await stowBatch(studyInstanceUid, parts, {
      serverUrl: this.options.serverUrl,
      apiToken: this.options.apiToken,
      bucket: this.bucket,
      ...(this.options.idleTimeoutMs !== undefined ? { idleTimeoutMs: this.options.idleTimeoutMs } : {}),
    });
    if (result.kind === 'link-failure') {
      await this.queue.markFailed(
        sentFiles.map((f) => f.key),
        result.reason,
        { permanent: false },
      );
      if (result.network) this.linkLost(result.reason);
      else this.linkFailed(result.reason, retryAfterMs(result.retryAfter));
      return;
    }
    this.linkAttempt = 0;
    this.linkError = undefined;
    const confirmed: string[] = [];
    const refused = new Map<string, string[]>();
    const transient = new Map<string, string[]>();
    for (const file of sentFiles) {
      const outcome = result.outcomes.get(file.sopInstanceUid);
      if (outcome?.kind === 'confirmed') {
        confirmed.push(file.key);
        this.bytesSent += file.size;
      } else if (outcome?.kind === 'refused') {
        refused.set(outcome.reason, [...(refused.get(outcome.reason) ?? []), file.key]);
      } else {
        const reason = outcome?.reason ?? 'Not in the cloud’s answer';
        transient.set(reason, [...(transient.get(reason) ?? []), file.key]);
      }
    }
    if (confirmed.length > 0) await this.queue.markSent(confirmed);
    for (const [reason, keys] of refused) await this.queue.markFailed(keys, reason, { permanent: true });
    if (transient.size > 0) {
      const attempt = this.studyAttempts.get(studyInstanceUid) ?? 0;
      this.studyAttempts.set(studyInstanceUid, attempt + 1);
      const retryAt = Date.now() + backoffDelay(attempt, this.options.backoff);
      for (const [reason, keys] of transient)
        await this.queue.markFailed(keys, reason, { permanent: false, retryAt });
    } else {
      this.studyAttempts.delete(studyInstanceUid);
    }
  }

  /**
   * The link is down (refused, reset, timed out: no HTTP answer). Backing off exponentially here
   * would leave a link that came back idle for up to the longest step; instead one worker probes
   * the cloud with a tiny request every `probeMs` (with jitter) and all resume on its first answer.
   * A cloud that answers but fails (5xx, a refused token, 429) backs off exponentially instead
   * (linkFailed): it is up, and hammering it with batches would not help.
   */
  private linkLost(reason: string): void {
    this.linkDown = true;
    const retryAt = Date.now() + (this.options.probeMs ?? 500);
    this.linkError = { reason, retryAt: new Date(retryAt).toISOString() };
    this.linkRetryAt = Math.max(this.linkRetryAt, retryAt);
    this.options.log?.('upload link down', { reason });
  }

  private async waitForLink(): Promise<void> {
    if (this.probing) {
      await this.sleep(this.options.probeMs ?? 500);
      return;
    }
    this.probing = true;
    try {
      while (this.running && this.linkDown) {
        const step = this.options.probeMs ?? 500;
        await this.sleep(Math.round(step / 2 + Math.random() * (step / 2)));
        if (!this.running) break;
        if (await probeCloud(this.options.serverUrl)) {
          this.linkDown = false;
          this.linkRetryAt = 0;
          this.linkAttempt = 0;
          this.options.log?.('upload link back');
          this.poke();
        }
      }
    } finally {
      this.probing = false;
    }
  }

  private linkFailed(reason: string, retryAfter?: number): void {
    const delay = Math.max(retryAfter ?? 0, backoffDelay(this.linkAttempt, this.options.backoff));
    this.linkAttempt++;
    const retryAt = Math.max(this.linkRetryAt, Date.now() + delay);
    this.linkRetryAt = retryAt;
    this.linkError = { reason, retryAt: new Date(retryAt).toISOString() };
    this.options.log?.('upload link failure', { reason, retryInMs: delay });
  }
}
