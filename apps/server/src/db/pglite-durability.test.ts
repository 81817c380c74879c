import fs from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeMigratedDataDir } from '../../test/test-app.js';
import { openPglite, pgliteDurabilityOf, syncCommitted, walInsertPositionQuery } from './client.js';

describe('PGlite durability (syncs from outside)', () => {
  let dir: string;
  let handle: Awaited<ReturnType<typeof openPglite>>;
  beforeAll(async () => {
    dir = await fs.mkdtemp(path.join(tmpdir(), 'rf-pglite-durability-'));
    // Written from the migrated snapshot: the subject is the syncs, not the directory's creation.
    await writeMigratedDataDir(path.join(dir, 'db'));
    handle = await openPglite({ dataDir: path.join(dir, 'db') });
    await handle.client.exec('create table t (id serial primary key, body text)');
  }, 60_000);
  afterAll(async () => {
    await handle.close();
    await fs.rm(dir, { recursive: true, force: true });
  });

  /** A transaction ending with the statement that reads where its commit record begins. */
  const commit = async (body: string) => {
    const results = await handle.client.transaction((tx) =>
      tx.exec(`insert into t (body) values ('${body}');\n${walInsertPositionQuery(handle.db)}`),
    );
    return results.at(-1)!.rows[0] as { wal_insert_position: string };
  };

  it('syncs the WAL segments a commit wrote, each segment a commit crossed, and everything after a checkpoint', async () => {
    const durability = pgliteDurabilityOf(handle.client);
    expect(durability).toBeDefined();
    const stats = durability!.stats;
    expect(stats.fullSyncs).toBe(1); // on open

    await handle.client.query('insert into t (body) values ($1)', ['x']);
    const walFilesBefore = stats.walFiles;
    await syncCommitted(handle.db);
    expect(stats.walFiles).toBe(walFilesBefore + 1);

    // ~24 MB of WAL: the commit spans at least two 16 MB segments, and each is synced.
    await handle.client.exec(
      `insert into t (body) select repeat(md5(i::text), 32) from generate_series(1, 24000) i`,
    );
    const { rows } = await handle.client.query<{ file: string }>(
      'select pg_walfile_name(pg_current_wal_lsn()) as file',
    );
    const walFilesMid = stats.walFiles;
    await syncCommitted(handle.db);
    expect(stats.walFiles - walFilesMid).toBeGreaterThanOrEqual(2);
    await expect(fs.stat(path.join(handle.client.dataDir!, 'pg_wal', rows[0]!.file))).resolves.toBeTruthy();

    await handle.client.exec('checkpoint');
    const fullBefore = stats.fullSyncs;
    await syncCommitted(handle.db);
    expect(stats.fullSyncs).toBe(fullBefore + 1);
  }, 60_000);

  it('shares one sync among callers that arrive while one runs', async () => {
    const stats = pgliteDurabilityOf(handle.client)!.stats;
    await handle.client.query('insert into t (body) values ($1)', ['y']);
    const before = stats.syncs;
    await Promise.all(Array.from({ length: 10 }, () => syncCommitted(handle.db)));
    expect(stats.syncs - before).toBeLessThanOrEqual(2);
  });

  it('syncs a commit that read where its record begins without asking the database', async () => {
    const stats = pgliteDurabilityOf(handle.client)!.stats;
    const positionQuery = walInsertPositionQuery(handle.db);
    expect(positionQuery).toMatch(/pg_current_wal_insert_lsn/);
    const { wal_insert_position: position } = await commit('z');
    expect(position).toMatch(/^[0-9A-F]+\/[0-9A-F]+$/);
    const before = { ...stats };
    await syncCommitted(handle.db, position);
    expect(stats.asked).toBe(before.asked);
    expect(stats.syncs).toBe(before.syncs + 1);
    expect(stats.walFiles).toBe(before.walFiles + 1);

    // Callers arriving while a sync runs share the next one, which covers the latest position.
    const positions = await Promise.all(
      ['a', 'b', 'c'].map(async (body) => (await commit(body)).wal_insert_position),
    );
    const syncsBefore = stats.syncs;
    await Promise.all(positions.map((p) => syncCommitted(handle.db, p)));
    expect(stats.syncs - syncsBefore).toBeLessThanOrEqual(2);
    expect(stats.asked).toBe(before.asked);

    // A commit record that begins near a segment's end may end in the next segment: both synced.
    const segment = 16n * 2n ** 20n;
    const [high = '0', low = '0'] = position.split('/');
    const at = (BigInt(`0x${high}`) << 32n) + BigInt(`0x${low}`);
    const nearEnd = (at / segment + 1n) * segment - 100n;
    const walFiles = stats.walFiles;
    await syncCommitted(
      handle.db,
      `${(nearEnd >> 32n).toString(16)}/${(nearEnd & 0xffffffffn).toString(16)}`,
    );
    expect(stats.walFiles - walFiles).toBe(2);
    expect(stats.asked).toBe(before.asked);
  });

  it('syncs a lone commit on this thread, unless a sync is under way or a checkpoint must be covered', async () => {
    const stats = pgliteDurabilityOf(handle.client)!.stats;
    const { wal_insert_position: position } = await commit('lone');
    const before = { ...stats };
    const lone = syncCommitted(handle.db, position, { onThisThread: true });
    // Synced before the call returned: no thread-pool hop to wait for, no question asked.
    expect(stats.syncs).toBe(before.syncs + 1);
    expect(stats.walFiles).toBe(before.walFiles + 1);
    await lone;
    expect(stats.asked).toBe(before.asked);

    // Another sync under way (it may predate the commit): the next one in the pool, shared.
    const { wal_insert_position: joinedAt } = await commit('joined');
    const running = syncCommitted(handle.db);
    const joined = syncCommitted(handle.db, joinedAt, { onThisThread: true });
    expect(stats.syncs).toBe(before.syncs + 2);
    await Promise.all([running, joined]);
    expect(stats.syncs).toBe(before.syncs + 3);

    // A checkpoint since the last sync: everything, in the pool.
    await handle.client.exec('checkpoint');
    const fullSyncs = stats.fullSyncs;
    await syncCommitted(handle.db, (await commit('after')).wal_insert_position, { onThisThread: true });
    expect(stats.fullSyncs).toBe(fullSyncs + 1);
  });
});
