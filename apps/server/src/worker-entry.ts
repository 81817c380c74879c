import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';

/**
 * Starts the worker module `name` (without extension) that sits beside the module at `here`
 * (its `import.meta.url`). From source (tsx, vitest) the worker is TypeScript: it registers tsx's
 * loader first. The bundle (build.mjs) puts `name.js` beside main.js.
 */
export function startWorkerBeside(here: string, name: string, options: WorkerOptions = {}): Worker {
  if (here.endsWith('.ts')) {
    // The ESM build of tsx's API ("import" condition of tsx/esm/api): its CJS build cannot register.
    const tsx = pathToFileURL(
      createRequire(here)
        .resolve('tsx/esm/api')
        .replace(/\.cjs$/, '.mjs'),
    ).href;
    const entry = new URL(`./${name}.ts`, here).href;
    return new Worker(
      `import(${JSON.stringify(tsx)}).then((api) => { api.register(); return import(${JSON.stringify(entry)}); });`,
      { ...options, eval: true },
    );
  }
  return new Worker(new URL(`./${name}.js`, here), options);
}
