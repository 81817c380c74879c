import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import pg from 'pg';
import { openPostgres } from '../src/db/client.js';
import { readPgliteTemplate } from '../src/db/pglite-template.js';
import { makePgliteTemplate } from '../src/db/pglite-template-writer.js';
import { testSnapshotOf } from './pglite-test-snapshot.js';

/** The template `npm run build` writes beside the bundle (src/db/pglite-template.ts). */
const BUILT_TEMPLATE_FILE = path.join(import.meta.dirname, '../dist/pglite-template.tar');

export const TEMPLATE_DB = 'radflow_test_template';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A tarball of a migrated PGlite data directory for in-memory databases (PGlite runs). */
    pgliteSnapshotPath: string | null;
    /** The migrated template whole, as a new data directory on disk starts from it (PGlite runs). */
    pgliteTemplatePath: string | null;
    /** The server URL whose `radflow_test_template` database is migrated (PostgreSQL runs). */
    postgresUrl: string | null;
  }
}

export function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

/**
 * Migrates once per run (ARCHITECTURE §3): a PGlite snapshot every test file loads, or, with
 * DATABASE_URL set, a PostgreSQL template database every test file copies.
 */
export default async function setup(project: TestProject) {
  const url = process.env.DATABASE_URL;
  if (url) {
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      await admin.query(`DROP DATABASE IF EXISTS ${TEMPLATE_DB} WITH (FORCE)`);
      await admin.query(`CREATE DATABASE ${TEMPLATE_DB}`);
    } finally {
      await admin.end();
    }
    const handle = await openPostgres(withDatabase(url, TEMPLATE_DB), { max: 1 });
    await handle.migrate();
    await handle.close();
    project.provide('postgresUrl', url);
    project.provide('pgliteSnapshotPath', null);
    project.provide('pgliteTemplatePath', null);
    return async () => {
      const cleanup = new pg.Client({ connectionString: url });
      await cleanup.connect();
      await cleanup.query(`DROP DATABASE IF EXISTS ${TEMPLATE_DB} WITH (FORCE)`);
      await cleanup.end();
    };
  }

  // The build's template when it matches the migrations (CI builds before the tests), else made now.
  const template = (await readPgliteTemplate(BUILT_TEMPLATE_FILE)) ?? (await makePgliteTemplate());
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'radflow-pglite-'));
  const templatePath = path.join(dir, 'template.tar');
  await fs.writeFile(templatePath, template.tar);
  const snapshotPath = path.join(dir, 'migrated.tar');
  await fs.writeFile(snapshotPath, await testSnapshotOf(template.tar));
  project.provide('pgliteSnapshotPath', snapshotPath);
  project.provide('pgliteTemplatePath', templatePath);
  project.provide('postgresUrl', null);
  return async () => {
    await fs.rm(dir, { recursive: true, force: true });
  };
}
