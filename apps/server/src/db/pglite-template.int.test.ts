import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import { MIGRATIONS_DIR } from '../paths.js';
import { openPglite } from './client.js';
import {
  extractPgliteTar,
  pgliteTemplateKey,
  readPgliteTemplate,
  writePgliteTemplate,
} from './pglite-template.js';

/**
 * A new embedded database starts from the build's migrated template (pglite-template.ts) when the
 * template was made from these migrations, and from initdb otherwise. The template here is the one
 * the run's global setup made or took from the build (the same function as the build's).
 */
const snapshotPath = inject('pgliteTemplatePath');

describe.skipIf(!snapshotPath)('the migrated PGlite template', () => {
  let root: string;
  let templateFile: string;
  beforeAll(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'radflow-template-'));
    templateFile = path.join(root, 'pglite-template.tar');
    const tar = new Uint8Array(await readFile(snapshotPath!));
    await writePgliteTemplate(templateFile, { tar, key: await pgliteTemplateKey() });
  });
  afterAll(() => rm(root, { recursive: true, force: true }));

  it('starts a new data directory from it, every migration applied, and keeps an existing one', async () => {
    const dataDir = path.join(root, 'new', 'db');
    const journal = JSON.parse(await readFile(path.join(MIGRATIONS_DIR, 'meta/_journal.json'), 'utf8')) as {
      entries: unknown[];
    };
    const applied = async (client: Awaited<ReturnType<typeof openPglite>>['client']) =>
      Number(
        (await client.query<{ n: string }>('SELECT count(*) AS n FROM drizzle.__drizzle_migrations')).rows[0]!
          .n,
      );

    const first = await openPglite({ dataDir, templateFile });
    try {
      expect(first.dataDirOrigin).toBe('template');
      expect(await applied(first.client)).toBe(journal.entries.length);
      await first.migrate();
      expect(await applied(first.client)).toBe(journal.entries.length);
      await first.client.exec(`INSERT INTO groups (name) VALUES ('Kept across opening')`);
    } finally {
      await first.close();
    }

    const again = await openPglite({ dataDir, templateFile });
    try {
      expect(again.dataDirOrigin).toBe('existing');
      const kept = await again.client.query(`SELECT 1 FROM groups WHERE name = 'Kept across opening'`);
      expect(kept.rows).toHaveLength(1);
    } finally {
      await again.close();
    }
  }, 120_000);

  it('is not used when it was made from other migrations, or its key is missing', async () => {
    expect(await readPgliteTemplate(templateFile)).not.toBeNull();

    const changed = path.join(root, 'migrations');
    await cp(MIGRATIONS_DIR, changed, { recursive: true });
    const before = await pgliteTemplateKey(changed);
    await writeFile(path.join(changed, '9999_added_later.sql'), 'SELECT 1;');
    expect(await pgliteTemplateKey(changed)).not.toBe(before);
    expect(await readPgliteTemplate(templateFile, pgliteTemplateKey(changed))).toBeNull();

    await rm(`${templateFile}.key`);
    expect(await readPgliteTemplate(templateFile)).toBeNull();
  });

  it('refuses a tar entry that would land outside the data directory', async () => {
    const header = new Uint8Array(512);
    const put = (at: number, text: string) => header.set(Buffer.from(text, 'utf8'), at);
    put(0, '../outside');
    put(100, '0000600');
    put(124, '00000000000');
    put(156, '0');
    const tar = new Uint8Array(1536);
    tar.set(header, 0);
    await expect(extractPgliteTar(tar, path.join(root, 'refused'))).rejects.toThrow(/outside/);
  });
});
