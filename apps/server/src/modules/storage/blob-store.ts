import { createHash, randomBytes } from 'node:crypto';
import {
  type Dirent,
  closeSync,
  constants as fsConstants,
  createReadStream,
  createWriteStream,
  fdatasync,
  fsync,
  fstatSync,
  linkSync,
  lstatSync,
  open,
  openSync,
  unlinkSync,
  write,
} from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/**
 * Where files live (ARCHITECTURE §3): DICOM instances byte-for-byte, attachments, zips. The
 * filesystem implementation is the default; an S3-compatible one can take its place for scale-out.
 * Keys are relative paths made of [A-Za-z0-9._-] segments separated by '/'.
 */
export interface BlobStore {
  /** Stores a stream under `key`, replacing what was there; visible only once complete. */
  put(key: string, body: Readable | Uint8Array): Promise<{ sizeBytes: number; sha256: string }>;
  /** Moves a finished local file in (cheap on the same filesystem); the file is gone afterwards. */
  putFile(key: string, filePath: string): Promise<{ sizeBytes: number }>;
  /**
   * Stores bytes already in memory under `key` (same guarantees as `put`: durable when it
   * resolves, a reader sees the old blob or the new one); no hash. Stores without a cheaper way
   * leave it out: callers then use `put`.
   */
  putBytes?(key: string, bytes: Uint8Array): Promise<{ sizeBytes: number }>;
  /** Reads a whole blob or the inclusive-exclusive byte range [start, end). */
  get(key: string, range?: { start: number; end: number }): Readable;
  read(key: string, range?: { start: number; end: number }): Promise<Buffer>;
  size(key: string): Promise<number | null>;
  delete(key: string): Promise<void>;
  /** A directory for temporary files on the same filesystem, so putFile can rename. */
  tempDir(): string;
  /**
   * The path of a blob on the local filesystem, for tools that need a file (the C-STORE SCU reads
   * at send time). Stores without local files leave it out; callers then copy to `tempDir()`.
   */
  localPath?(key: string): string;
}

const KEY_PATTERN = /^[A-Za-z0-9._-]+(\/[A-Za-z0-9._-]+)*$/;

/**
 * fsync / fdatasync of an open descriptor in the thread pool: one pool hop. The steps around it
 * (open, close, link, unlink, stat) are single metadata syscalls without a disk wait and run on
 * the calling thread: on a 2-core machine each pool hop can cost a context switch,
 * and an instance used to take a dozen of them (ARCHIVE.md "blob sync").
 */
const syncFd = (fd: number, dataOnly: boolean) =>
  new Promise<void>((resolve, reject) =>
    (dataOnly ? fdatasync : fsync)(fd, (error) => (error ? reject(error) : resolve())),
  );

/** Writes all of `bytes` from the file's start, in the thread pool. */
async function writeAllAsync(fd: number, bytes: Uint8Array): Promise<void> {
  for (let at = 0; at < bytes.length;) {
    at += await new Promise<number>((resolve, reject) =>
      write(fd, bytes, at, bytes.length - at, at, (error, written) =>
        error ? reject(error) : resolve(written),
      ),
    );
  }
}

/** Flushes a file's bytes to disk (a read-only descriptor is enough on Linux). */
async function syncFile(filePath: string): Promise<void> {
  const handle = await fs.open(filePath, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * Flushes a directory's entries, so a rename into it survives a power cut. Filesystems that cannot
 * sync a directory (EINVAL, EISDIR on some platforms) are left as they are.
 */
async function syncDir(dir: string): Promise<void> {
  let fd: number | undefined;
  try {
    fd = openSync(dir, 'r');
    await syncFd(fd, false);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'EINVAL' && code !== 'EISDIR' && code !== 'EPERM') throw error;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** mkdir -p that also makes the new directories durable (each one is an entry of its parent). */
async function makeDirDurable(dir: string): Promise<void> {
  const firstCreated = await fs.mkdir(dir, { recursive: true });
  if (!firstCreated) return;
  const created: string[] = [];
  for (let d = dir; d.length >= firstCreated.length; d = path.dirname(d)) created.push(d);
  for (const d of created.reverse()) await syncDir(path.dirname(d));
}

export function assertBlobKey(key: string): void {
  if (!KEY_PATTERN.test(key) || key.split('/').some((s) => s === '.' || s === '..')) {
    throw new Error(`invalid blob key: ${key}`);
  }
}

/**
 * Directory syncs of one directory, coalesced: a caller whose rename is done joins the next sync
 * that starts after it asked (never one already running, which may predate its rename). While one
 * sync runs, everyone arriving meanwhile shares the following one: N instances of a study stored
 * together cost two directory syncs, not N.
 */
class DirSyncs {
  private readonly state = new Map<string, { running: Promise<void>; next?: Promise<void> }>();

  sync(dir: string): Promise<void> {
    const entry = this.state.get(dir);
    if (!entry) {
      const running = syncDir(dir).finally(() => this.settle(dir));
      this.state.set(dir, { running });
      return running;
    }
    entry.next ??= entry.running.then(
      () => syncDir(dir),
      () => syncDir(dir),
    );
    return entry.next;
  }

  private settle(dir: string): void {
    const entry = this.state.get(dir);
    if (!entry?.next) {
      this.state.delete(dir);
      return;
    }
    const running = entry.next.finally(() => this.settle(dir));
    running.catch(() => undefined);
    this.state.set(dir, { running });
  }
}

/** A new temp file that a single write makes durable (data and size): see putBytes. */
const DSYNC_TEMP_FLAGS =
  fsConstants.O_WRONLY | fsConstants.O_CREAT | fsConstants.O_EXCL | fsConstants.O_DSYNC;

/** Temp files kept open ahead: one for the next blob, one behind it. */
const SPARE_TEMP_FILES = 2;

/**
 * Temp files for {@link FsBlobStore.putBytes}, created ahead of need in the thread pool. Creating a
 * file is a journalled metadata change: on ext4 the open(O_CREAT) waits whenever the journal is
 * committing, which is what the previous instance's syncs make it do, and it ran on the thread that
 * receives, parses and indexes (0.25 ms an instance on a quiet disk, ~1.5 ms on a busy one). A blob
 * takes a spare and another is opened behind it, so the wait moves off that thread. Spares start
 * with the first putBytes, so stores that never take bytes in memory open nothing; a crash leaves
 * them in the temp directory, which init() empties.
 */
class SpareTempFiles {
  private readonly spares: Array<{ path: string; fd: number }> = [];
  private readonly opening = new Set<Promise<void>>();
  private closed = false;

  constructor(private readonly newPath: () => string) {}

  /** A spare when one is ready, else one opened now, on this thread. */
  take(): { path: string; fd: number } {
    const spare = this.spares.shift();
    this.refill();
    if (spare) return spare;
    const file = this.newPath();
    return { path: file, fd: openSync(file, DSYNC_TEMP_FLAGS, 0o666) };
  }

  private refill(): void {
    while (!this.closed && this.spares.length + this.opening.size < SPARE_TEMP_FILES) {
      const file = this.newPath();
      const opened = new Promise<void>((resolve) =>
        open(file, DSYNC_TEMP_FLAGS, 0o666, (error, fd) => {
          // A failed open is not retried here: the next take() opens on its own and tries again.
          if (!error) this.spares.push({ path: file, fd });
          resolve();
        }),
      );
      this.opening.add(opened);
      void opened.then(() => this.opening.delete(opened));
    }
  }

  /** Closes and removes the spares, those being opened too (a store being shut down). */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.opening);
    const spares = this.spares.splice(0);
    for (const spare of spares) closeSync(spare.fd);
    await Promise.all(spares.map((spare) => fs.rm(spare.path, { force: true })));
  }
}

export class FsBlobStore implements BlobStore {
  private readonly tmp: string;
  private readonly dirSyncs = new DirSyncs();
  /**
   * Directories made durable by this store (or being made): no mkdir call for the next blob in
   * them, and two blobs arriving together in a new directory both wait for its parents' syncs.
   */
  private readonly madeDirs = new Map<string, Promise<void>>();
  /**
   * Per key, the step that gives it a name (link or rename) or takes it away (the orphan sweep's
   * unlink): a sweep never removes a blob that an ingest is naming at that moment.
   */
  private readonly keyLocks = new Map<string, Promise<unknown>>();
  private readonly spareTemps: SpareTempFiles;

  constructor(private readonly root: string) {
    this.tmp = path.join(root, '.tmp');
    this.spareTemps = new SpareTempFiles(() => this.tempPath());
  }

  /** Creates the root and its temp directory; removes temp files a crash left behind. */
  async init(): Promise<this> {
    await fs.rm(this.tmp, { recursive: true, force: true });
    await fs.mkdir(this.tmp, { recursive: true });
    return this;
  }

  /** Releases the temp files kept open for the next blobs; the store still works afterwards. */
  close(): Promise<void> {
    return this.spareTemps.close();
  }

  tempDir(): string {
    return this.tmp;
  }

  localPath(key: string): string {
    return this.pathOf(key);
  }

  private pathOf(key: string): string {
    assertBlobKey(key);
    return path.join(this.root, key);
  }

  private tempPath(): string {
    return path.join(this.tmp, `${Date.now()}-${randomBytes(8).toString('hex')}`);
  }

  async put(key: string, body: Readable | Uint8Array): Promise<{ sizeBytes: number; sha256: string }> {
    const target = this.pathOf(key);
    const temp = this.tempPath();
    const hash = createHash('sha256');
    let sizeBytes = 0;
    try {
      if (body instanceof Uint8Array) {
        hash.update(body);
        sizeBytes = body.byteLength;
        const handle = await fs.open(temp, 'w');
        try {
          await handle.writeFile(body);
          await handle.sync();
        } finally {
          await handle.close();
        }
      } else {
        const out = createWriteStream(temp);
        body.on('data', (chunk: Buffer) => {
          hash.update(chunk);
          sizeBytes += chunk.length;
        });
        await pipeline(body, out);
        const handle = await fs.open(temp, 'r+');
        try {
          await handle.sync();
        } finally {
          await handle.close();
        }
      }
      await this.makeDir(path.dirname(target));
      // rename is atomic: a reader sees the old blob or the new one, never half of one. The
      // directory sync makes the rename itself durable before we acknowledge anything.
      await this.withKey(key, () => this.renameInto(temp, target));
      await this.dirSyncs.sync(path.dirname(target));
    } catch (error) {
      await fs.rm(temp, { force: true });
      throw error;
    }
    return { sizeBytes, sha256: hash.digest('hex') };
  }

  /**
   * A new blob costs one disk-latency, not three: its bytes are synced while the name is linked and
   * the directory synced, all before this returns. A hard link never replaces a name, so until both
   * syncs are done a crash can only leave an unindexed orphan. Replacing a stored blob (a re-send)
   * keeps the strict order, bytes on disk before the name moves to them, since the old bytes are
   * indexed.
   */
  async putFile(key: string, filePath: string): Promise<{ sizeBytes: number }> {
    const target = this.pathOf(key);
    const dir = path.dirname(target);
    const fd = openSync(filePath, 'r');
    // fdatasync: the bytes and what reading them needs (the size); the new name is made durable
    // by the directory sync.
    const syncing = syncFd(fd, true);
    syncing.catch(() => undefined);
    try {
      const size = fstatSync(fd).size;
      await this.makeDir(dir);
      const linked = await this.withKey(key, () => this.linkInto(filePath, target));
      if (linked) {
        unlinkSync(filePath);
        await Promise.all([syncing, this.dirSyncs.sync(dir)]);
        return { sizeBytes: size };
      }
      await syncing;
      try {
        await this.withKey(key, () => this.renameInto(filePath, target));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
        // Another filesystem: copy into our temp dir first so the final step is still a rename.
        const temp = this.tempPath();
        await fs.copyFile(filePath, temp);
        await syncFile(temp);
        await fs.rename(temp, target);
        await fs.rm(filePath, { force: true });
      }
      await this.dirSyncs.sync(dir);
      return { sizeBytes: size };
    } finally {
      await syncing.catch(() => undefined);
      closeSync(fd);
    }
  }

  /**
   * Like {@link putFile} for bytes in memory, in two pool hops and no copy on this thread: the temp
   * file is opened with O_DSYNC, so its one write returns once the bytes (and the size) are on
   * disk — write and fdatasync in one hop — while the new name is linked and its directory synced
   * (the other hop, shared with the other blobs of the study). The name exists before the bytes
   * are complete; nothing indexes it before this resolves, so a crash in between leaves an
   * unindexed orphan, like any blob whose commit did not happen (orphan-sweep.ts).
   */
  async putBytes(key: string, bytes: Uint8Array): Promise<{ sizeBytes: number }> {
    const target = this.pathOf(key);
    const dir = path.dirname(target);
    const { path: temp, fd } = this.spareTemps.take();
    let linked = false;
    try {
      await this.makeDir(dir);
      linked = await this.withKey(key, () => this.linkInto(temp, target));
      if (linked) {
        unlinkSync(temp);
        await Promise.all([writeAllAsync(fd, bytes), this.dirSyncs.sync(dir)]);
      } else {
        // A re-send over an indexed copy: the bytes are durable before the name moves to them.
        await writeAllAsync(fd, bytes);
        await this.withKey(key, () => this.renameInto(temp, target));
        await this.dirSyncs.sync(dir);
      }
      return { sizeBytes: bytes.length };
    } catch (error) {
      if (linked) {
        // Our half-written file under the key goes, unless a re-send has replaced it meanwhile.
        const ours = fstatSync(fd).ino;
        await this.withKey(key, async () => {
          if (lstatSync(target, { throwIfNoEntry: false })?.ino === ours) unlinkSync(target);
        }).catch(() => undefined);
      } else await fs.rm(temp, { force: true });
      throw error;
    } finally {
      closeSync(fd);
    }
  }

  /** Links `from` as `target` when no such name exists; false when it does (or links cannot be made). */
  private async linkInto(from: string, target: string): Promise<boolean> {
    for (let attempt = 0; ; attempt++) {
      try {
        linkSync(from, target);
        return true;
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code === 'ENOENT' && attempt === 0) {
          // The directory was removed since we made it.
          this.madeDirs.delete(path.dirname(target));
          await this.makeDir(path.dirname(target));
          continue;
        }
        if (code === 'EEXIST' || code === 'EXDEV' || code === 'EPERM' || code === 'ENOTSUP') return false;
        throw error;
      }
    }
  }

  private makeDir(dir: string): Promise<void> {
    let made = this.madeDirs.get(dir);
    if (!made) {
      // A bound on what is remembered (one entry per study directory).
      if (this.madeDirs.size >= 10_000) this.madeDirs.clear();
      made = makeDirDurable(dir);
      made.catch(() => this.madeDirs.delete(dir));
      this.madeDirs.set(dir, made);
    }
    return made;
  }

  /** rename, again after making the directory when someone removed it since we made it. */
  private async renameInto(from: string, target: string): Promise<void> {
    try {
      await fs.rename(from, target);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      const dir = path.dirname(target);
      this.madeDirs.delete(dir);
      await this.makeDir(dir);
      await fs.rename(from, target);
    }
  }

  get(key: string, range?: { start: number; end: number }): Readable {
    const file = this.pathOf(key);
    if (!range) return createReadStream(file);
    if (range.end <= range.start) return createReadStream(file, { start: 0, end: -1 });
    return createReadStream(file, { start: range.start, end: range.end - 1 });
  }

  async read(key: string, range?: { start: number; end: number }): Promise<Buffer> {
    const file = this.pathOf(key);
    if (!range) return fs.readFile(file);
    const length = Math.max(0, range.end - range.start);
    const buffer = Buffer.alloc(length);
    const handle = await fs.open(file, 'r');
    try {
      let read = 0;
      while (read < length) {
        const { bytesRead } = await handle.read(buffer, read, length - read, range.start + read);
        if (bytesRead === 0) break;
        read += bytesRead;
      }
      return read === length ? buffer : buffer.subarray(0, read);
    } finally {
      await handle.close();
    }
  }

  async size(key: string): Promise<number | null> {
    try {
      return (await fs.stat(this.pathOf(key))).size;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    await fs.rm(this.pathOf(key), { force: true });
  }

  /** Runs `fn` once no other naming step of `key` runs (see keyLocks). */
  private withKey<T>(key: string, fn: () => Promise<T>): Promise<T> {
    const before = this.keyLocks.get(key);
    const run = before ? before.then(fn, fn) : fn();
    const settled = run.then(
      () => undefined,
      () => undefined,
    );
    this.keyLocks.set(key, settled);
    void settled.then(() => {
      if (this.keyLocks.get(key) === settled) this.keyLocks.delete(key);
    });
    return run;
  }

  /** Keys under `prefix` (a key prefix ending in '/') whose file was last written before `before`. */
  async *listOlderThan(prefix: string, before: Date): AsyncGenerator<string> {
    const start = path.join(this.root, prefix);
    const walk = async function* (dir: string): AsyncGenerator<string> {
      let entries: Dirent[];
      try {
        entries = await fs.readdir(dir, { withFileTypes: true });
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
        throw error;
      }
      for (const entry of entries) {
        const full = path.join(dir, entry.name);
        if (entry.isDirectory()) yield* walk(full);
        else if (entry.isFile()) yield full;
      }
    };
    for await (const file of walk(start)) {
      const stat = await fs.lstat(file).catch(() => null);
      if (stat && stat.mtimeMs < before.getTime())
        yield path.relative(this.root, file).split(path.sep).join('/');
    }
  }

  /**
   * Deletes `key` if its file was last written before `before`; false when it was not (or is gone).
   * A blob being named by an ingest right now is fresh (a new file) and waits for no one here.
   */
  deleteIfOlderThan(key: string, before: Date): Promise<boolean> {
    const file = this.pathOf(key);
    return this.withKey(key, async () => {
      const stat = await fs.lstat(file).catch(() => null);
      if (!stat || stat.mtimeMs >= before.getTime()) return false;
      await fs.unlink(file).catch((error: NodeJS.ErrnoException) => {
        if (error.code !== 'ENOENT') throw error;
      });
      return true;
    });
  }
}
