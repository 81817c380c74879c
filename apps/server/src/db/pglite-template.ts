import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { MIGRATIONS_DIR } from '../paths.js';

/**
 * A migrated PGlite data directory as a tar (PGlite's own `dumpDataDir` format), made once by the
 * build (`dist/pglite-template.tar`, write-pglite-template.ts) and by the test run's global setup.
 * A new embedded database starts from it instead of an initdb and every migration on disk: about a
 * minute of a first start on this machine's 2 cores, and of every browser-story server in CI.
 *
 * The tar is used only when its key matches: the migrations (every file's name and bytes) and the
 * PGlite version it was made with. Otherwise the database is made as before, and the migrations run.
 */
export interface TPgliteTemplate {
  tar: Uint8Array;
  key: string;
}

/** The key of the migrations folder and the PGlite version: what a template must have been made from. */
export async function pgliteTemplateKey(migrationsDir = MIGRATIONS_DIR): Promise<string> {
  const hash = createHash('sha256');
  hash.update(`pglite ${pgliteVersion()}\n`);
  const files = (await fs.readdir(migrationsDir, { recursive: true, withFileTypes: true }))
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(migrationsDir, path.join(entry.parentPath, entry.name)))
    .sort();
  for (const file of files) {
    hash.update(`${file}\n`);
    hash.update(await fs.readFile(path.join(migrationsDir, file)));
  }
  return hash.digest('hex');
}

function pgliteVersion(): string {
  const entry = createRequire(import.meta.url).resolve('@electric-sql/pglite');
  // dist/index.cjs → the package's folder.
  const manifest = path.join(path.dirname(entry), '..', 'package.json');
  return (createRequire(import.meta.url)(manifest) as { version: string }).version;
}

const keyFileOf = (tarFile: string) => `${tarFile}.key`;

export async function writePgliteTemplate(tarFile: string, template: TPgliteTemplate): Promise<void> {
  await fs.mkdir(path.dirname(tarFile), { recursive: true });
  await fs.writeFile(tarFile, template.tar);
  // The key last: a build stopped halfway leaves a tar without a key, which is never used.
  await fs.writeFile(keyFileOf(tarFile), template.key);
}

/** The template at `tarFile` if it was made from these migrations, else null (missing or stale). */
export async function readPgliteTemplate(
  tarFile: string,
  key: string | Promise<string> = pgliteTemplateKey(),
): Promise<TPgliteTemplate | null> {
  const stored = await fs.readFile(keyFileOf(tarFile), 'utf8').catch(() => null);
  if (stored === null || stored.trim() !== (await key)) return null;
  const tar = await fs.readFile(tarFile).catch(() => null);
  return tar ? { tar: new Uint8Array(tar), key: stored.trim() } : null;
}

/** One entry of a POSIX tar as PGlite's dumpDataDir writes it (512-byte headers, data padded to 512). */
export interface TTarEntry {
  /** The path inside the tar: the header's prefix and name, joined. */
  name: string;
  /** '0' (or '') a regular file, '5' a folder; other types are the caller's to refuse. */
  type: string;
  mode: number;
  size: number;
  /** Where the entry starts (its header) and where the next one starts. */
  start: number;
  end: number;
  header: Uint8Array;
  data: Uint8Array;
}

/** The tar's entries in order, up to its end-of-archive blocks. */
export function* tarEntries(tar: Uint8Array): Generator<TTarEntry> {
  const text = (from: number, length: number) =>
    Buffer.from(tar.subarray(from, from + length))
      .toString('utf8')
      .replace(/\0.*$/s, '');
  for (let at = 0; at + 512 <= tar.length;) {
    const name = text(at, 100);
    if (name === '') return;
    const prefix = text(at + 345, 155);
    const size = parseInt(text(at + 124, 12).trim() || '0', 8);
    const end = at + 512 + Math.ceil(size / 512) * 512;
    yield {
      name: prefix ? `${prefix}/${name}` : name,
      type: text(at + 156, 1),
      mode: parseInt(text(at + 100, 8).trim() || '600', 8),
      size,
      start: at,
      end,
      header: tar.subarray(at, at + 512),
      data: tar.subarray(at + 512, at + 512 + size),
    };
    at = end;
  }
}

/**
 * Writes the tar's files under `dataDir`. Only regular files and folders; an entry that would land
 * outside `dataDir` is refused.
 */
export async function extractPgliteTar(tar: Uint8Array, dataDir: string): Promise<void> {
  const root = path.resolve(dataDir);
  await fs.mkdir(root, { recursive: true, mode: 0o700 });
  for (const entry of tarEntries(tar)) {
    const target = path.join(root, entry.name);
    if (!target.startsWith(root + path.sep))
      throw new Error(`template entry outside the folder: ${entry.name}`);
    if (entry.type === '5') await fs.mkdir(target, { recursive: true, mode: 0o700 });
    else if (entry.type === '0' || entry.type === '') {
      await fs.mkdir(path.dirname(target), { recursive: true, mode: 0o700 });
      await fs.writeFile(target, entry.data, { mode: entry.mode });
    } else throw new Error(`template entry of type ${entry.type}: ${entry.name}`);
  }
}
