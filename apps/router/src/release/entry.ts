import { decodeJpegImage, encodeJpeg, loadWasmCodecs } from '@radflow/dicom';
import { loadRouterConfig } from '../config.js';
import { reportHealthy } from './health.js';
import { embeddedReleaseKeys } from './release-keys.js';
import { ROUTER_VERSION } from './version.js';

/**
 * The packaged router's entry (app/main.js in the artefact): `--version` prints the version,
 * `--self-test` checks that this build loads, its image codecs load and its configuration is valid (the updater runs it
 * before switching to a new version), otherwise it runs the router and then tells the launcher it
 * started (health.ts).
 */
async function entry(argv: readonly string[]): Promise<void> {
  if (argv.includes('--version')) {
    process.stdout.write(`${ROUTER_VERSION}\n`);
    return;
  }
  if (argv.includes('--self-test')) {
    loadRouterConfig(process.env);
    // A build that trusts no release key could never be updated again: not a release.
    const keys = embeddedReleaseKeys().length;
    if (keys === 0) throw new Error('This build embeds no release public key');
    // The image codecs of the offline viewer (WASM files beside the bundle): an update that could
    // not decode a compressed study is not taken.
    await loadWasmCodecs();
    // …and make the JPEG of a rendered frame or a print: a tiny picture there and back.
    const picture = { width: 2, height: 2, channels: 1 as const, pixels: new Uint8Array([0, 85, 170, 255]) };
    const back = await decodeJpegImage((await encodeJpeg(picture, 90)).bytes);
    if (back.width !== 2 || back.height !== 2) throw new Error('This build cannot make JPEG images');
    // The bundle is one file, so reaching here means all of it parsed and this Node runs it; the
    // router itself is not started (the running version holds its ports).
    process.stdout.write(
      `Radflow router ${ROUTER_VERSION}: self-test passed (${keys} release key${keys === 1 ? '' : 's'})\n`,
    );
    return;
  }
  await import('../main.js');
  await reportHealthy(ROUTER_VERSION);
}

entry(process.argv.slice(2)).then(
  () => {
    if (process.argv.includes('--version') || process.argv.includes('--self-test')) process.exit(0);
  },
  (error: unknown) => {
    console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
    process.exit(1);
  },
);
