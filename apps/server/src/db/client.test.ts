import { access, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openPglite } from './client.js';

describe('openPglite on a data directory', () => {
  let root: string;
  beforeEach(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'radflow-pglite-dir-'));
  });
  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('creates a new directory (initdb in a child process), and keeps its data across reopening', async () => {
    const dataDir = path.join(root, 'db');
    const first = await openPglite({ dataDir, templateFile: null });
    try {
      await expect(access(path.join(dataDir, 'PG_VERSION'))).resolves.toBeUndefined();
      await expect(access(`${dataDir}.initdb`)).rejects.toThrow();
      const setting = await first.client.query<{ value: string }>(
        "SELECT current_setting('shared_buffers') AS value",
      );
      expect(setting.rows[0]!.value).toBe('32MB');
      await first.client.exec('CREATE TABLE kept (value text); INSERT INTO kept VALUES ($$still here$$);');
    } finally {
      await first.close();
    }

    const again = await openPglite({ dataDir });
    try {
      const rows = await again.client.query<{ value: string }>('SELECT value FROM kept');
      expect(rows.rows).toEqual([{ value: 'still here' }]);
    } finally {
      await again.close();
    }
  }, 180_000);
});
