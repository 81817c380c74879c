/**
 * Reads a batch's spool files for the uploader into one buffer that an upload worker keeps from
 * batch to batch, and checks each file against the sha256 taken when it was received.
 *
 * Why not `readFile` per instance: each call allocates a fresh buffer outside V8's heap, freed
 * only when a garbage collection finds it dead. Uploading at 20 Mbit/s, those dead buffers piled
 * up by tens of megabytes between collections and the router's RSS passed its 150 MB budget
 * (issue 27 §6; bench/router-upload.ts prints RSS by phase). A batch is at most `batchBytes`
 * except a single larger instance (queue.ts takeBatch), so one buffer of that size serves every
 * ordinary batch; a larger instance gets a buffer of its own, not kept.
 *
 * The bytes of a batch are valid until the next `read` of the same reader: a worker reads its next
 * batch only once `stowBatch` has settled, and by then its request is over — answered, failed or
 * destroyed; a request the cloud answered before reading all of it is closed by Node's client,
 * its own socket (`agent: false`) not kept alive.
 */
import { createHash } from 'node:crypto';
import { open } from 'node:fs/promises';
import type { TQueuedFile } from '../queue/queue.js';

export interface ReadBatch {
  /** Files read whole and matching their checksum, with their bytes. */
  readonly intact: ReadonlyArray<{ readonly file: TQueuedFile; readonly bytes: Buffer }>;
  /** Files that could not be read, with the reason. */
  readonly unreadable: ReadonlyArray<{ readonly file: TQueuedFile; readonly reason: string }>;
  /** Files whose bytes no longer match the checksum taken when they were received. */
  readonly damaged: readonly TQueuedFile[];
}

export class BatchReader {
  private kept: Buffer = Buffer.alloc(0);

  /** `keepBytes`: the largest buffer kept between batches (the uploader's batch size). */
  constructor(private readonly keepBytes: number) {}

  async read(files: readonly TQueuedFile[]): Promise<ReadBatch> {
    const total = files.reduce((n, f) => n + f.size, 0);
    const buffer = this.room(total);
    const intact: Array<{ file: TQueuedFile; bytes: Buffer }> = [];
    const unreadable: Array<{ file: TQueuedFile; reason: string }> = [];
    const damaged: TQueuedFile[] = [];
    let at = 0;
    for (const file of files) {
      const bytes = buffer.subarray(at, at + file.size);
      let whole: boolean;
      try {
        whole = await readWhole(file.path, bytes);
      } catch (error) {
        unreadable.push({ file, reason: (error as Error).message });
        continue;
      }
      if (!whole || createHash('sha256').update(bytes).digest('hex') !== file.sha256) {
        damaged.push(file);
        continue;
      }
      intact.push({ file, bytes });
      at += file.size;
    }
    return { intact, unreadable, damaged };
  }

  private room(total: number): Buffer {
    if (this.kept.length >= total) return this.kept;
    const fresh = Buffer.allocUnsafeSlow(total);
    if (total <= this.keepBytes) this.kept = fresh;
    return fresh;
  }
}

/**
 * Fills `into` with the file's bytes. False when the file no longer has the size received: its
 * bytes changed, as a checksum mismatch says.
 */
async function readWhole(path: string, into: Buffer): Promise<boolean> {
  const handle = await open(path, 'r');
  try {
    if ((await handle.stat()).size !== into.length) return false;
    let at = 0;
    while (at < into.length) {
      const { bytesRead } = await handle.read(into, at, into.length - at, at);
      if (bytesRead === 0) return false;
      at += bytesRead;
    }
    return true;
  } finally {
    await handle.close();
  }
}
