/**
 * C-STORE data set assembly for the SCP (store-scp.ts): an instance's bytes, behind the Part 10
 * file meta header we write, gathered in memory or spilled to a temp file as they arrive.
 */
import { createHash, type Hash } from 'node:crypto';
import { createWriteStream, type WriteStream } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import type { Socket } from 'node:net';
import { Writable } from 'node:stream';

/** One C-STORE being received: where it goes and what is known of it so far. */
export interface Incoming {
  readonly path: string;
  readonly sink: ReceiveSink;
  readonly transferSyntaxUid: string;
  size: number;
  /** Set once the data set is complete, when it was hashed as it arrived. */
  sha256?: string;
  /** Set once the file is complete, when the instance was kept in memory. */
  bytes?: Uint8Array;
  /** No file was written: `bytes` is the instance. */
  inMemoryOnly?: boolean;
  commandAt?: number;
  receivedAt?: number;
  error?: Error;
}

export const DEFAULT_IN_MEMORY_MAX_BYTES = 16 * 2 ** 20;

/**
 * Where dcmjs-dimse puts a C-STORE data set, fragment by fragment. Fragments are kept in memory
 * (they are slices of received PDUs: no copy) and written to the file with its meta header in one
 * call at the end — one thread-pool write per instance instead of one per fragment, and the
 * receiver gets the bytes without reading the file back. Past `maxInMemory` the sink spills to a
 * file stream and pauses the socket while the disk is behind. dcmjs-dimse is always told a write
 * went through: its own drain wait would let the PDUs that follow overtake each other.
 */
export class ReceiveSink extends Writable {
  private chunks: Uint8Array[] = [];
  private length = 0;
  private file: WriteStream | undefined;
  private paused = false;
  private ended = false;
  /** Hashes every byte in order as it arrives (`sha256WhileReceiving`). */
  private hash: Hash | undefined;
  /** Settles when the file is complete (or failed: see `incoming.error`). */
  readonly done: Promise<void>;
  private finish!: () => void;

  constructor(
    private readonly incoming: Omit<Incoming, 'sink'>,
    header: Uint8Array,
    private readonly socket: Socket,
    private readonly maxInMemory: number,
    private readonly withoutFile: boolean,
    private readonly allocate?: (length: number) => Uint8Array,
    hashing = false,
  ) {
    super();
    this.done = new Promise<void>((resolve) => (this.finish = resolve));
    this.chunks.push(header);
    this.length = header.length;
    if (hashing) this.hash = createHash('sha256').update(header);
  }

  override write(chunk: Uint8Array): boolean {
    this.length += chunk.length;
    this.hash?.update(chunk);
    if (this.file) {
      this.toFile(chunk);
      return true;
    }
    this.chunks.push(chunk);
    if (this.length > this.maxInMemory) {
      this.file = createWriteStream(this.incoming.path, { highWaterMark: 1 << 20 });
      this.file.on('error', (error) => (this.incoming.error ??= error));
      this.file.once('close', () => {
        if (this.paused) this.socket.resume();
        this.finish();
      });
      const pending = this.chunks;
      this.chunks = [];
      for (const c of pending) this.toFile(c);
    }
    return true;
  }

  private toFile(chunk: Uint8Array): void {
    const file = this.file!;
    if (!file.write(chunk) && !this.paused && !this.incoming.error) {
      this.paused = true;
      this.socket.pause();
      file.once('drain', () => {
        this.paused = false;
        this.socket.resume();
      });
    }
  }

  override end(): this {
    this.ended = true;
    if (this.hash) (this.incoming as Incoming).sha256 = this.hash.digest('hex');
    this.hash = undefined;
    if (this.file) {
      this.file.end();
      return this;
    }
    const bytes = this.allocate
      ? this.assemble(this.allocate(this.length))
      : this.chunks.length === 1
        ? this.chunks[0]!
        : Buffer.concat(this.chunks, this.length);
    this.chunks = [];
    if (this.withoutFile) {
      (this.incoming as Incoming).bytes = bytes;
      (this.incoming as Incoming).inMemoryOnly = true;
      this.finish();
      return this;
    }
    writeFile(this.incoming.path, bytes).then(
      () => {
        (this.incoming as Incoming).bytes = bytes;
        this.finish();
      },
      (error: Error) => {
        this.incoming.error ??= error;
        this.finish();
      },
    );
    return this;
  }

  private assemble(into: Uint8Array): Uint8Array {
    let at = 0;
    for (const chunk of this.chunks) {
      into.set(chunk, at);
      at += chunk.length;
    }
    return into;
  }

  /** The connection ended mid-instance: drop what was received. */
  discard(): Promise<void> {
    this.chunks = [];
    this.hash = undefined;
    if (this.file) this.file.destroy();
    else if (!this.ended) this.finish();
    return this.done;
  }

  get received(): number {
    return this.length;
  }
}
