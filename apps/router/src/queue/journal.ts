/**
 * The queue's append-only journal: one record a line, `<crc32 hex> <json>\n`, appended and fsynced
 * before the caller goes on (an instance is acknowledged to the modality only after its record is
 * on disk). Concurrent appends share one write and one fsync (group commit), so a modality sending
 * many instances on a few associations does not pay one disk flush per instance each.
 *
 * Recovery reads the file line by line: a last line without its newline, or whose checksum does
 * not match, is a record torn by a crash during its write — it was never acknowledged, so it is cut
 * off (the file is truncated to the last whole record) and the queue carries on. A bad line in the
 * middle (which an append-only file only gets from a damaged disk) is skipped and reported.
 */
import { open, rename, unlink, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';
import { crc32 } from 'node:zlib';
import { fsyncDir } from './fs-durable.js';

export interface JournalReadResult<T> {
  readonly records: T[];
  /** Bytes of whole, valid records at the start of the file (where the next append goes). */
  readonly validLength: number;
  /** A torn last record was cut off. */
  readonly tornTail: boolean;
  /** Lines in the middle that failed their checksum or did not parse (skipped). */
  readonly badLines: number;
}

const NEWLINE = 0x0a;

/** The steps of a rewrite a crash can fall between (tests inject one). */
export type TRewriteStep = 'temp-written' | 'renamed';

const tempPathOf = (path: string) => `${path}.compact`;

export function encodeRecord(record: unknown): Buffer {
  const json = JSON.stringify(record);
  const crc = crc32(json).toString(16).padStart(8, '0');
  return Buffer.from(`${crc} ${json}\n`, 'utf8');
}

function decodeLine(line: Buffer): unknown {
  const text = line.toString('utf8');
  const space = text.indexOf(' ');
  if (space !== 8) return undefined;
  const json = text.slice(9);
  if (crc32(json).toString(16).padStart(8, '0') !== text.slice(0, 8)) return undefined;
  try {
    return JSON.parse(json) as unknown;
  } catch {
    return undefined;
  }
}

/** Parses a journal's bytes (pure: the unit tests feed it torn and damaged files). */
export function parseJournal<T>(bytes: Buffer): JournalReadResult<T> {
  const records: T[] = [];
  let start = 0;
  let validLength = 0;
  let badLines = 0;
  let tornTail = false;
  while (start < bytes.length) {
    const end = bytes.indexOf(NEWLINE, start);
    if (end < 0) {
      tornTail = true;
      break;
    }
    const record = decodeLine(bytes.subarray(start, end));
    const isLast = end === bytes.length - 1;
    if (record === undefined) {
      if (isLast) {
        tornTail = true;
        break;
      }
      badLines++;
    } else {
      records.push(record as T);
    }
    start = end + 1;
    validLength = start;
  }
  return { records, validLength, tornTail, badLines };
}

export class Journal {
  private pending: { bytes: Buffer; resolve: () => void; reject: (error: unknown) => void }[] = [];
  private flushing = false;
  private closed = false;

  private constructor(
    private readonly path: string,
    private handle: FileHandle,
    private size: number,
  ) {}

  /** Opens (creating) the journal, reads it and cuts off a torn last record. */
  static async open<T>(path: string): Promise<{ journal: Journal; read: JournalReadResult<T> }> {
    // A rewrite that crashed before its rename: the journal itself is whole, the temp is not needed.
    await unlink(tempPathOf(path)).catch(() => undefined);
    const handle = await open(path, 'a+');
    try {
      const bytes = await handle.readFile();
      const read = parseJournal<T>(bytes);
      if (read.validLength < bytes.length) {
        await handle.truncate(read.validLength);
        await handle.sync();
      }
      return { journal: new Journal(path, handle, read.validLength), read };
    } catch (error) {
      await handle.close();
      throw error;
    }
  }

  get bytes(): number {
    return this.size;
  }

  /** Resolves once the record is written and fsynced. */
  append(record: unknown): Promise<void> {
    if (this.closed) return Promise.reject(new Error('The queue journal is closed'));
    const bytes = encodeRecord(record);
    return new Promise<void>((resolve, reject) => {
      this.pending.push({ bytes, resolve, reject });
      void this.flush();
    });
  }

  private async flush(): Promise<void> {
    if (this.flushing) return;
    this.flushing = true;
    try {
      while (this.pending.length > 0) {
        const batch = this.pending;
        this.pending = [];
        try {
          const buffer = Buffer.concat(batch.map((p) => p.bytes));
          // 'a' mode: every write goes to the end whatever the position.
          await this.handle.write(buffer, 0, buffer.length);
          await this.handle.sync();
          this.size += buffer.length;
          for (const p of batch) p.resolve();
        } catch (error) {
          for (const p of batch) p.reject(error);
        }
      }
    } finally {
      this.flushing = false;
    }
  }

  /**
   * Replaces the journal by `records` (compaction): written to a temp file, fsynced, renamed over
   * the journal and the directory fsynced — a crash leaves either the old journal or the new one
   * (a temp file left by a crash is removed at the next open). Appends wait while it runs and go
   * to the new file after it; `records` may be a function, read once no append is in flight, so a
   * caller's state cannot miss a record written to the old file meanwhile. `crashAt` is for tests:
   * throwing there is the process dying at that step.
   */
  async rewrite(
    records: readonly unknown[] | (() => readonly unknown[]),
    options: { crashAt?: (step: TRewriteStep) => void } = {},
  ): Promise<void> {
    while (this.flushing) await new Promise((r) => setTimeout(r, 1));
    // Held like a flush: appends from now on wait in `pending` for the new file.
    this.flushing = true;
    try {
      // Let the callers of the appends just resolved apply them first (they run as microtasks).
      await new Promise((r) => setImmediate(r));
      const live = typeof records === 'function' ? records() : records;
      const temp = tempPathOf(this.path);
      const out = await open(temp, 'w');
      let size = 0;
      try {
        const buffer = Buffer.concat(live.map(encodeRecord));
        await out.write(buffer, 0, buffer.length);
        await out.sync();
        size = buffer.length;
      } finally {
        await out.close();
      }
      options.crashAt?.('temp-written');
      await rename(temp, this.path);
      try {
        options.crashAt?.('renamed');
        await fsyncDir(dirname(this.path));
      } finally {
        // Renamed: the old handle writes to a file no longer linked, so it is replaced whatever happens.
        await this.handle.close();
        this.handle = await open(this.path, 'a');
        this.size = size;
      }
    } finally {
      this.flushing = false;
      void this.flush();
    }
  }

  async close(): Promise<void> {
    while (this.flushing || this.pending.length > 0) await new Promise((r) => setTimeout(r, 1));
    this.closed = true;
    await this.handle.close();
  }
}
