import { closeSync, fdatasync, fdatasyncSync, fsync, fsyncSync, openSync, statSync } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { PGlite } from '@electric-sql/pglite';

/**
 * Power-cut durability of a PGlite data directory (ARCHIVE.md "PGlite durability").
 *
 * PGlite's PostgreSQL cannot make anything durable by itself: its files live on Emscripten's NODEFS,
 * whose fdatasync is a no-op and whose streams have no fsync, so PostgreSQL's `fsync` setting (off
 * by PGlite's default `-F`) changes nothing on disk either way. Every write does reach the OS at
 * once (a synchronous write(2)), so a crash of the process loses nothing; a power cut or kernel
 * crash can lose what the OS had not yet written. So we sync from outside, in the thread pool:
 * - after a commit that must survive (an acknowledged instance), every WAL segment written since the
 *   last sync, and pg_wal itself when a segment was added: the commit record is then on disk, and
 *   recovery replays it;
 * - when a checkpoint happened since the last sync (pg_control rewritten), every file of the data
 *   directory first: a checkpoint lets recovery start after the WAL it may remove, so the pages it
 *   wrote must be on disk. A checkpoint comes once per `max_wal_size` (1 GB) of WAL in PGlite's
 *   single-user mode, and at close. Between a checkpoint and the next such sync a power cut may
 *   still lose earlier commits; on PostgreSQL proper the server does all this itself.
 *
 * Where the WAL ends after a commit is asked of the database when the sync starts (one more query
 * per sync), unless the caller says where its commit record begins ({@link WAL_INSERT_POSITION}):
 * the index writer reads it with its statements, in the same call, before its COMMIT.
 */
export class PgliteDurability {
  private lastLsn: bigint | undefined;
  private controlStamp: string | undefined;
  private segmentBytes = 16n * 2n ** 20n;
  private timeline = '00000001';
  private running: Promise<void> | undefined;
  private next: Promise<void> | undefined;
  /** The highest commit position of the callers waiting for the next sync (none: ask the database). */
  private nextCommitAt: bigint | undefined;
  private nextAsks = false;
  /** Syncs done (`asked`: those that asked the database where the WAL ends), for tests and the bench. */
  readonly stats = { syncs: 0, asked: 0, walFiles: 0, fullSyncs: 0 };

  private constructor(
    private readonly client: PGlite,
    private readonly dataDir: string,
  ) {}

  static async open(client: PGlite, dataDir: string): Promise<PgliteDurability> {
    const durability = new PgliteDurability(client, dataDir);
    const { rows } = await client.query<{ size: string; file: string }>(
      `select setting as size, pg_walfile_name(pg_current_wal_lsn()) as file
         from pg_settings where name = 'wal_segment_size'`,
    );
    if (rows[0]) {
      durability.segmentBytes = BigInt(rows[0].size);
      durability.timeline = rows[0].file.slice(0, 8);
    }
    // Whatever was written before this process opened the directory: synced once, now.
    await durability.syncEverything();
    durability.lastLsn = await durability.currentLsn();
    durability.controlStamp = durability.controlFileStamp();
    return durability;
  }

  /**
   * Resolves once everything committed before the call is on disk. Callers arriving while a sync
   * runs share the next one (a sync started earlier may predate their commit).
   *
   * `commitAt`: the caller's last commit record begins there (the value of
   * {@link WAL_INSERT_POSITION} read in its transaction just before COMMIT), so the sync need not
   * ask the database where the WAL ends.
   */
  sync(commitAt?: string): Promise<void> {
    const position = commitAt === undefined ? undefined : parseLsn(commitAt);
    if (!this.running) {
      this.running = this.syncOnce(position).finally(() => this.settle());
      return this.running;
    }
    if (position === undefined) this.nextAsks = true;
    else if (this.nextCommitAt === undefined || position > this.nextCommitAt) this.nextCommitAt = position;
    if (!this.next) {
      const run = () => {
        const commitAtNext = this.nextAsks ? undefined : this.nextCommitAt;
        this.nextAsks = false;
        this.nextCommitAt = undefined;
        return this.syncOnce(commitAtNext);
      };
      this.next = this.running.then(run, run);
    }
    return this.next;
  }

  private settle(): void {
    const next = this.next;
    this.next = undefined;
    this.running = next?.finally(() => this.settle());
    this.running?.catch(() => undefined);
  }

  /**
   * {@link sync} for a lone committer with nothing else to do meanwhile (one C-STORE association):
   * the WAL's fdatasync on this thread, not in the pool, whose hop is a quarter of a ~1 ms sync and
   * all of it the instance's latency. With another sync under way, a checkpoint to cover or a long
   * stretch of WAL, the pool's way ({@link sync}).
   */
  syncHere(commitAt: string): Promise<void> {
    if (this.running) return this.sync(commitAt);
    const position = parseLsn(commitAt);
    const plan = this.walPlan(position, position + COMMIT_RECORD_BOUND);
    if ('everything' in plan) return this.sync(commitAt);
    this.stats.syncs++;
    try {
      for (const file of plan.files) syncPathHere(file, true);
      if (plan.dir) syncPathHere(plan.dir, false);
    } catch (error) {
      return Promise.reject(error as Error);
    }
    this.stats.walFiles += plan.files.length;
    this.advance(position);
    return Promise.resolve();
  }

  /**
   * Syncs what was committed so far: up to where the WAL ends now (asked), or, given where the last
   * commit record begins, through the segment that holds its end.
   */
  private async syncOnce(commitAt?: bigint): Promise<void> {
    this.stats.syncs++;
    const lsn = commitAt ?? (await this.currentLsn());
    const plan = this.walPlan(lsn, commitAt === undefined ? lsn : commitAt + COMMIT_RECORD_BOUND);
    if ('everything' in plan) {
      await this.syncEverything();
      // Once everything is on disk, the checkpoint that asked for it is covered.
      if (plan.stamp !== undefined) this.controlStamp = plan.stamp;
    } else {
      await Promise.all([
        ...plan.files.map((file) => syncPath(file, true)),
        ...(plan.dir ? [syncPath(plan.dir)] : []),
      ]);
      this.stats.walFiles += plan.files.length;
    }
    this.advance(lsn);
  }

  /**
   * What a sync of the WAL through `through` must flush: the segments written since the last sync
   * (preallocated, their size does not change: fdatasync is enough, as PostgreSQL's own
   * wal_sync_method=fdatasync on Linux) and pg_wal when a segment was added (a new or renamed
   * entry); or everything, after a checkpoint (pg_control rewritten: `stamp` is then its new
   * stamp) or when more than 64 segments were written.
   */
  private walPlan(
    lsn: bigint,
    through: bigint,
  ): { everything: true; stamp?: string } | { files: string[]; dir: string | null } {
    const stamp = this.controlFileStamp();
    if (stamp !== this.controlStamp) return { everything: true, stamp };
    const from = (this.lastLsn ?? lsn) / this.segmentBytes;
    const to = through / this.segmentBytes;
    if (to - from > 64n) return { everything: true };
    const walDir = path.join(this.dataDir, 'pg_wal');
    const files: string[] = [];
    for (let segment = from; segment <= to; segment++)
      files.push(path.join(walDir, this.walFileName(segment)));
    return { files, dir: to > from ? walDir : null };
  }

  /** Synced up to `lsn`: the next sync starts from its segment. */
  private advance(lsn: bigint): void {
    if (this.lastLsn === undefined || lsn > this.lastLsn) this.lastLsn = lsn;
  }

  private async currentLsn(): Promise<bigint> {
    this.stats.asked++;
    const { rows } = await this.client.query<{ lsn: string }>(`select pg_current_wal_lsn()::text as lsn`);
    return parseLsn(rows[0]?.lsn ?? '0/0');
  }

  /** XLogFileName: timeline, then the segment number split in "log" and "seg" parts, 8 hex digits each. */
  private walFileName(segment: bigint): string {
    const perLog = 0x1_0000_0000n / this.segmentBytes;
    const hex = (n: bigint) => n.toString(16).toUpperCase().padStart(8, '0');
    return `${this.timeline}${hex(segment / perLog)}${hex(segment % perLog)}`;
  }

  /** A metadata read without a disk wait: on this thread, not a pool hop per commit. */
  private controlFileStamp(): string {
    const stat = statSync(path.join(this.dataDir, 'global', 'pg_control'), { bigint: true });
    return `${stat.mtimeNs}:${stat.ctimeNs}`;
  }

  /** fsync of every file and directory under the data directory, directories after their entries. */
  private async syncEverything(): Promise<void> {
    this.stats.fullSyncs++;
    const files: string[] = [];
    const dirs: string[] = [];
    const walk = async (dir: string): Promise<void> => {
      for (const entry of await fs.readdir(dir, { withFileTypes: true })) {
        const full = path.join(dir, entry.name);
        if (entry.isDirectory()) await walk(full);
        else if (entry.isFile()) files.push(full);
      }
      dirs.push(dir);
    };
    await walk(this.dataDir);
    // A few at a time: the thread pool has 4 threads, and each sync holds a descriptor.
    for (const batch of [files, dirs]) {
      for (let i = 0; i < batch.length; i += 16)
        await Promise.all(batch.slice(i, i + 16).map((file) => syncPath(file)));
    }
  }
}

/**
 * The last statement of a transaction that will tell {@link PgliteDurability.sync} where its commit
 * record begins: the WAL insert position (a row with `wal_insert_position`). PGlite is one session
 * of a single-user PostgreSQL (no background writers): nothing else inserts WAL between this and
 * the COMMIT that follows it in the same transaction, so the commit record starts there.
 */
export const WAL_INSERT_POSITION = 'select pg_current_wal_insert_lsn()::text as wal_insert_position;';

/**
 * Bytes from where a commit record begins to where it surely ends: a commit record of a transaction
 * without subtransactions, dropped relations or catalog changes (the index writer's) is under 100
 * bytes, plus a page header when it crosses a page. The segment that holds its end is synced; only
 * the rare commit near a segment's end also syncs the next one (which may not exist: skipped).
 */
const COMMIT_RECORD_BOUND = 64n * 1024n;

/** A PostgreSQL LSN (`16/B374D848`) as a byte position. */
function parseLsn(text: string): bigint {
  const [high = '0', low = '0'] = text.split('/');
  return (BigInt(`0x${high}`) << 32n) + BigInt(`0x${low}`);
}

/** The errors of a sync that leave nothing to sync: a vanished file (a recycled WAL segment), a directory that cannot be synced. */
const NOTHING_TO_SYNC = new Set(['ENOENT', 'EINVAL', 'EISDIR']);

/** {@link syncPath} on this thread, the sync too. */
function syncPathHere(file: string, dataOnly = false): void {
  let fd: number | undefined;
  try {
    fd = openSync(file, 'r');
    (dataOnly ? fdatasyncSync : fsyncSync)(fd);
  } catch (error) {
    if (!NOTHING_TO_SYNC.has((error as NodeJS.ErrnoException).code ?? '')) throw error;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * fsync (or fdatasync) of a file or directory; one that vanished meanwhile (a recycled WAL segment)
 * is skipped. Open and close run on this thread (no disk wait), only the sync in the pool: one hop.
 */
async function syncPath(file: string, dataOnly = false): Promise<void> {
  let fd: number | undefined;
  try {
    fd = openSync(file, 'r');
    const opened = fd;
    await new Promise<void>((resolve, reject) =>
      (dataOnly ? fdatasync : fsync)(opened, (error) => (error ? reject(error) : resolve())),
    );
  } catch (error) {
    if (!NOTHING_TO_SYNC.has((error as NodeJS.ErrnoException).code ?? '')) throw error;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
