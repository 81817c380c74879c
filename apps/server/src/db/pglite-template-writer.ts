import { pathToFileURL } from 'node:url';
import { PGLITE_TEMPLATE_FILE } from '../paths.js';
import { openPglite } from './client.js';
import { type TPgliteTemplate, pgliteTemplateKey, writePgliteTemplate } from './pglite-template.js';

/** A fresh in-memory PGlite, migrated, as a template (pglite-template.ts) with its key. */
export async function makePgliteTemplate(): Promise<TPgliteTemplate> {
  const key = await pgliteTemplateKey();
  const handle = await openPglite();
  try {
    await handle.migrate();
    // A checkpoint first: a database started from the dump then replays no WAL (the migrations'),
    // which took seconds of every first start.
    await handle.client.exec('CHECKPOINT');
    const dump = await handle.client.dumpDataDir('none');
    return { tar: new Uint8Array(await dump.arrayBuffer()), key };
  } finally {
    await handle.close();
  }
}

// Run by the build (build.mjs) as dist/pglite-template-writer.js [out file]: writes the template
// beside the bundle, where the bundle's openPglite looks for it.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const out = process.argv[2] ?? PGLITE_TEMPLATE_FILE;
  const started = Date.now();
  await writePgliteTemplate(out, await makePgliteTemplate());
  process.stdout.write(`PGlite template: ${out} (${((Date.now() - started) / 1000).toFixed(1)} s)\n`);
}
