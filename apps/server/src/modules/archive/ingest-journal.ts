import { closeSync, fdatasync, fsync, openSync, readFileSync, writevSync } from 'node:fs';
import fs from 'node:fs/promises';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import type { IndexRow } from '../../db/instance-index.js';

/**
 * The ingest journal (ARCHIVE.md "acknowledge before indexing"): what the index needs of each
 * received instance, appended to a file and synced before the instance is acknowledged, so the
 * index can be written later, in large batches, and replayed after a crash.
 *
 * A record: its payload's length (u32 LE), the payload's CRC-32 (u32 LE), the payload (UTF-8 JSON
 * `{ seq, row }`). Records are numbered from 1 on, in the order they are appended; a journal's
 * position in the index (`ingest_journal_positions`) is the last number indexed. Appends that
 * arrive while a sync runs share the next one (group sync): one fdatasync for all of them.
 *
 * Files: `<dir>/journal-id` (the journal's name in the index) and `<dir>/segment-<first seq>.log`.
 * Each start of the server appends to a new segment, so a torn tail (a crash inside a write) is
 * the last bytes of a segment no one writes to again: on reading, a record whose length runs past
 * the end or whose checksum is wrong ends its segment, and the records before it are kept.
 * Segments whose records are all indexed are deleted (`release`).
 */

/** A new segment once the current one holds this much (bounded files, prompt deletion). */
const SEGMENT_MAX_BYTES = 64 * 2 ** 20;
const HEADER_BYTES = 8;

export interface JournalRecord {
  seq: number;
  row: IndexRow;
}

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

/** CRC-32 (IEEE), as zlib's: Node 20 has no `zlib.crc32`. */
export function crc32(bytes: Uint8Array): number {
  let crc = 0xffffffff;
  for (let i = 0; i < bytes.length; i++) crc = CRC_TABLE[(crc ^ bytes[i]!) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

export function encodeRecord(record: JournalRecord): Buffer {
  const payload = Buffer.from(JSON.stringify(record), 'utf8');
  const header = Buffer.allocUnsafe(HEADER_BYTES);
  header.writeUInt32LE(payload.length, 0);
  header.writeUInt32LE(crc32(payload), 4);
  return Buffer.concat([header, payload]);
}

/** The whole records of a segment's bytes, up to the first torn or damaged one. */
export function decodeRecords(bytes: Buffer): { records: JournalRecord[]; validBytes: number } {
  const records: JournalRecord[] = [];
  let at = 0;
  while (at + HEADER_BYTES <= bytes.length) {
    const length = bytes.readUInt32LE(at);
    const end = at + HEADER_BYTES + length;
    if (length === 0 || end > bytes.length) break;
    const payload = bytes.subarray(at + HEADER_BYTES, end);
    if (crc32(payload) !== bytes.readUInt32LE(at + 4)) break;
    let record: JournalRecord;
    try {
      const parsed = JSON.parse(payload.toString('utf8')) as {
        seq: number;
        row: IndexRow & { receivedAt: string };
      };
      record = { seq: parsed.seq, row: { ...parsed.row, receivedAt: new Date(parsed.row.receivedAt) } };
    } catch {
      break;
    }
    records.push(record);
    at = end;
  }
  return { records, validBytes: at };
}

const SEGMENT = /^segment-(\d{16})\.log$/;
const segmentName = (firstSeq: number) => `segment-${String(firstSeq).padStart(16, '0')}.log`;

interface Segment {
  name: string;
  /** The last record's number in it (0: none). */
  lastSeq: number;
}

interface Waiting {
  bytes: Buffer;
  seq: number;
  resolve(seq: number): void;
  reject(error: Error): void;
}

const syncFd = (fd: number, data: boolean) =>
  new Promise<void>((resolve, reject) =>
    (data ? fdatasync : fsync)(fd, (error) => (error ? reject(error) : resolve())),
  );

/** The journal's directory made durable (a new segment's name), from the thread pool. */
async function syncDirectory(dir: string): Promise<void> {
  const handle = await fs.open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

export class IngestJournal {
  private fd = -1;
  private current: Segment | undefined;
  private size = 0;
  private queue: Waiting[] = [];
  private syncing = false;
  private broken: Error | undefined;
  /** Segments before the current one, oldest first. */
  private readonly closed: Segment[] = [];
  /** Syncs made and records in them (tests and the bench read these). */
  readonly stats = { syncs: 0, records: 0 };

  private constructor(
    readonly dir: string,
    readonly id: string,
    private nextSeq: number,
    segments: Segment[],
  ) {
    this.closed.push(...segments);
  }

  /**
   * Opens (or makes) the journal in `dir` and reads what it holds. `indexedUpTo`: the index's
   * position of this journal (records up to it are indexed; numbering goes on after it even when
   * every segment was deleted). `unindexed`: the records after that position, in order.
   */
  static async open(
    dir: string,
    positionOf: (journalId: string) => Promise<number>,
  ): Promise<{ journal: IngestJournal; unindexed: JournalRecord[] }> {
    await fs.mkdir(dir, { recursive: true, mode: 0o700 });
    const idFile = path.join(dir, 'journal-id');
    let id: string;
    try {
      id = (await fs.readFile(idFile, 'utf8')).trim();
    } catch {
      id = randomUUID();
      const handle = await fs.open(`${idFile}.tmp`, 'w', 0o600);
      try {
        await handle.writeFile(id);
        await handle.sync();
      } finally {
        await handle.close();
      }
      await fs.rename(`${idFile}.tmp`, idFile);
      await syncDirectory(dir);
    }
    const indexedUpTo = await positionOf(id);
    const names = (await fs.readdir(dir)).filter((n) => SEGMENT.test(n)).sort();
    const segments: Segment[] = [];
    const unindexed: JournalRecord[] = [];
    let lastSeq = indexedUpTo;
    for (const name of names) {
      const { records } = decodeRecords(readFileSync(path.join(dir, name)));
      if (records.length === 0) {
        // Nothing whole in it (a crash in its first write, or a start with no ingest).
        await fs.rm(path.join(dir, name), { force: true });
        continue;
      }
      const last = records.at(-1)!.seq;
      segments.push({ name, lastSeq: last });
      for (const record of records) {
        if (record.seq > indexedUpTo) unindexed.push(record);
        lastSeq = Math.max(lastSeq, record.seq);
      }
    }
    const journal = new IngestJournal(dir, id, lastSeq + 1, segments);
    return { journal, unindexed };
  }

  /** The number the next record will get. */
  get next(): number {
    return this.nextSeq;
  }

  /**
   * Appends the instance's record: its number at once, `synced` once it is on disk (synced
   * together with every record appended meanwhile).
   */
  append(row: IndexRow): { seq: number; synced: Promise<number> } {
    if (this.broken) return { seq: 0, synced: Promise.reject(this.broken) };
    const seq = this.nextSeq++;
    const bytes = encodeRecord({ seq, row });
    const synced = new Promise<number>((resolve, reject) => {
      this.queue.push({ bytes, seq, resolve, reject });
      if (!this.syncing) void this.syncQueued();
    });
    return { seq, synced };
  }

  private async syncQueued(): Promise<void> {
    this.syncing = true;
    try {
      while (this.queue.length > 0) {
        const batch = this.queue.splice(0);
        try {
          if (this.broken) throw this.broken;
          if (this.fd < 0 || this.size >= SEGMENT_MAX_BYTES) await this.startSegment(batch[0]!.seq);
          // Page-cache writes on this thread (no disk wait); the one sync in the pool.
          const written = writevSync(
            this.fd,
            batch.map((w) => w.bytes),
          );
          const expected = batch.reduce((n, w) => n + w.bytes.length, 0);
          if (written !== expected)
            throw new Error(`journal write cut short: ${written} of ${expected} bytes`);
          this.size += written;
          await syncFd(this.fd, true);
          this.current!.lastSeq = batch.at(-1)!.seq;
          this.stats.syncs++;
          this.stats.records += batch.length;
          for (const w of batch) w.resolve(w.seq);
        } catch (error) {
          // What reached the file is unknown: a record after a partial one could not be read back,
          // so nothing more is appended here (every later ingest is refused, none lost).
          this.broken = error instanceof Error ? error : new Error(String(error));
          for (const w of batch) w.reject(this.broken);
        }
      }
    } finally {
      this.syncing = false;
    }
  }

  private async startSegment(firstSeq: number): Promise<void> {
    if (this.fd >= 0) {
      closeSync(this.fd);
      this.closed.push(this.current!);
    }
    const name = segmentName(firstSeq);
    // A segment of this name can only be one whose every record was torn: nothing of it is kept.
    this.fd = openSync(path.join(this.dir, name), 'w', 0o600);
    this.current = { name, lastSeq: 0 };
    this.size = 0;
    await syncDirectory(this.dir);
  }

  /** Deletes the segments (but the one being written) whose records are all indexed. */
  async release(indexedUpTo: number): Promise<void> {
    while (this.closed.length > 0 && this.closed[0]!.lastSeq <= indexedUpTo) {
      const segment = this.closed.shift()!;
      await fs.rm(path.join(this.dir, segment.name), { force: true });
    }
  }

  /** The segments on disk (tests). */
  segments(): string[] {
    return [...this.closed, ...(this.current ? [this.current] : [])].map((s) => s.name);
  }

  close(): void {
    if (this.fd >= 0) closeSync(this.fd);
    this.fd = -1;
    this.broken ??= new Error('the ingest journal is closed');
  }
}
