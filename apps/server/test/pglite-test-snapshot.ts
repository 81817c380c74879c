import { openPglite } from '../src/db/client.js';
import { tarEntries } from '../src/db/pglite-template.js';

/**
 * The snapshot every test file's in-memory database loads: the migrated template (pglite-template.ts)
 * less what no test reads, made once per run by global setup.
 *
 * A test file's database is PGlite's `loadDataDir` of a tar: PGlite parses it in JavaScript and
 * writes each file into its in-memory file system. That took ~1 s of CPU per database, most of the
 * time of an empty test app, for 63 MB of which half was the write-ahead log: two 16 MB segments,
 * one recycled and one used for 30 KB, the rest zeros. The template databases template0 and
 * template1 (7 MB each) are for CREATE DATABASE, which PGlite cannot connect to anyway.
 *
 * What is left is the same database: the migrated `postgres` and its catalogs, the log up to the
 * last checkpoint and a page of zeros after it, where PostgreSQL's start finds the end of the log
 * as it always does. New log records are written past it, and a new segment is made full size.
 * Only the in-memory databases load it; a test of PGlite on disk gets the template whole
 * (writeMigratedDataDir), as a server does.
 */
export async function testSnapshotOf(template: Uint8Array): Promise<Uint8Array> {
  const handle = await openPglite({ loadDataDir: new Blob([template.slice()]) });
  const client = handle.client;
  let dump: Uint8Array;
  let walFile: string;
  let walEnd: number;
  try {
    for (const database of ['template0', 'template1']) {
      await client.query(`ALTER DATABASE ${database} WITH is_template false`);
      await client.query(`DROP DATABASE ${database}`);
    }
    // A segment of its own for what follows, and the checkpoint in it: the older segments are
    // then no longer needed (without recycling they are removed, not renamed for later use).
    await client.query(`SET wal_recycle = off`);
    await client.query(`SELECT pg_switch_wal()`);
    await client.query(`CHECKPOINT`);
    dump = new Uint8Array(await (await client.dumpDataDir('none')).arrayBuffer());
    const at = await client.query<{ file: string; offset: number }>(
      `SELECT file_name AS file, file_offset::int AS offset
         FROM pg_walfile_name_offset(pg_current_wal_insert_lsn())`,
    );
    walFile = at.rows[0]!.file;
    walEnd = at.rows[0]!.offset;
    const redo = await client.query<{ file: string }>(
      `SELECT redo_wal_file AS file FROM pg_control_checkpoint()`,
    );
    // Start replays from the checkpoint's redo point: its segment must be the one kept.
    if (redo.rows[0]!.file !== walFile)
      throw new Error(`the checkpoint starts in ${redo.rows[0]!.file}, not ${walFile}`);
  } finally {
    await handle.close();
  }
  return rewriteTar(dump, (name, size) => {
    const wal = /(?:^|\/)pg_wal\/([0-9A-F]{24})$/.exec(name);
    if (!wal) return size;
    if (wal[1] !== walFile) return null;
    const page = 8192;
    return Math.min(size, (Math.ceil(walEnd / page) + 1) * page);
  });
}

/**
 * A copy of a tar (as PGlite's dumpDataDir writes it) where `keep(name, size)` says how many bytes
 * of each regular file to keep, or null to leave the file out.
 */
function rewriteTar(tar: Uint8Array, keep: (name: string, size: number) => number | null): Uint8Array {
  const parts: Uint8Array[] = [];
  for (const entry of tarEntries(tar)) {
    const regular = entry.type === '0' || entry.type === '';
    const kept = regular ? keep(entry.name, entry.size) : entry.size;
    if (kept === entry.size) parts.push(tar.subarray(entry.start, entry.end));
    else if (kept !== null) {
      const header = entry.header.slice();
      header.set(Buffer.from(`${kept.toString(8).padStart(11, '0')}\0`, 'ascii'), 124);
      header.fill(0x20, 148, 156); // the checksum counts its own field as spaces
      const sum = header.reduce((a, b) => a + b, 0);
      header.set(Buffer.from(`${sum.toString(8).padStart(6, '0')}\0 `, 'ascii'), 148);
      parts.push(header, entry.data.subarray(0, kept), new Uint8Array(Math.ceil(kept / 512) * 512 - kept));
    }
  }
  parts.push(new Uint8Array(1024)); // the end-of-archive blocks
  return Buffer.concat(parts);
}
