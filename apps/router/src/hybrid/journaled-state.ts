/**
 * The state of a small hybrid store (the offline viewer's measurements, the offline drafts) kept
 * as an append-only journal (queue/journal.ts: checksummed records, fsynced before a change is
 * answered, a torn last record cut off at start-up): every change is one record, the state in
 * memory is what the records say, and once the journal holds `compactAfter` records and at least
 * twice the live ones it is rewritten with the live ones only (Journal.rewrite: new file, fsync,
 * rename, fsync of the directory). The store says how a record changes its state (`apply`) and
 * which records rebuild it (`liveRecords`); this class does the rest, the same way for each.
 */
import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { fsyncDir } from '../queue/fs-durable.js';
import { Journal } from '../queue/journal.js';

export interface TJournaledState<TRecord> {
  /** Changes the state by one record (replayed at start-up, and after each append). */
  apply(record: TRecord): void;
  /** The records that rebuild the current state from nothing. */
  liveRecords(): TRecord[];
  /** Forgets the state (before the live records are applied again after a compaction). */
  clear(): void;
}

export class JournaledState<TRecord> {
  private recordCount = 0;

  private constructor(
    private readonly journal: Journal,
    private readonly state: TJournaledState<TRecord>,
    private readonly compactAfter: number,
  ) {}

  /** Opens (or creates) the journal at `path` and replays it into `state`. */
  static async open<TRecord>(
    path: string,
    state: TJournaledState<TRecord>,
    compactAfter: number,
  ): Promise<JournaledState<TRecord>> {
    await mkdir(dirname(path), { recursive: true });
    await fsyncDir(dirname(dirname(path)));
    const { journal, read } = await Journal.open<TRecord>(path);
    const journaled = new JournaledState(journal, state, compactAfter);
    for (const record of read.records) state.apply(record);
    journaled.recordCount = read.records.length;
    await journaled.compactIfLarge();
    return journaled;
  }

  /** Writes the record durably, then applies it. */
  async append(record: TRecord): Promise<void> {
    await this.journal.append(record);
    this.state.apply(record);
    this.recordCount++;
    await this.compactIfLarge();
  }

  close(): Promise<void> {
    return this.journal.close();
  }

  private async compactIfLarge(): Promise<void> {
    if (this.recordCount < this.compactAfter) return;
    if (this.recordCount < this.state.liveRecords().length * 2) return;
    let live: TRecord[] = [];
    await this.journal.rewrite(() => (live = this.state.liveRecords()));
    this.state.clear();
    for (const record of live) this.state.apply(record);
    this.recordCount = live.length;
  }
}
