import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Launcher } from './launcher.js';
import { ROUTER_NODE_ARGS } from './node-runtime.js';

/**
 * The service's entry (bundled to launcher.mjs at the top of the install directory): runs the version
 * `current` names with the same Node, passing signals on. `--install-dir` overrides its own folder.
 */
const argIndex = process.argv.indexOf('--install-dir');
const installDir =
  argIndex > 0 && process.argv[argIndex + 1]
    ? path.resolve(process.argv[argIndex + 1]!)
    : path.dirname(fileURLToPath(import.meta.url));

const launcher = new Launcher({
  installDir,
  spawnVersion: (mainJs, env) => {
    const child = spawn(process.execPath, [...ROUTER_NODE_ARGS, mainJs], { env, stdio: 'inherit' });
    // A failed spawn must not take the launcher down: the health wait times out and rolls back.
    child.on('error', (error) =>
      console.error(`Radflow router: could not start ${mainJs}: ${error.message}`),
    );
    return child;
  },
});
for (const signal of ['SIGTERM', 'SIGINT'] as const)
  process.once(signal, () => {
    void launcher.stop().then(() => process.exit(0));
  });
launcher.start();
void launcher.ended().then(() => {
  // The loop ends on its own only when there is nothing to start: the service manager restarts us.
  if (launcher.failure) process.exit(1);
});
