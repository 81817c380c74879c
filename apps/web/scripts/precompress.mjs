// Writes .br and .gz next to every compressible file of dist/, so the server can send them as they
// are (@fastify/static preCompressed) instead of compressing on each request or sending raw bytes.
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const dist = new URL('../dist/', import.meta.url).pathname;
const COMPRESSIBLE = /\.(js|css|html|svg|json|txt|map|wasm)$/;
const MIN_BYTES = 1024;
/**
 * Brotli's best (11) for what every browser loads; 5 for source maps, which only a developer's
 * tools fetch: the maps are three quarters of the bytes (28 of 37 MB), and at 11 they took 51 s of
 * CPU of the build, at 5 under 1 s, for 15% more bytes (5.5 instead of 4.8 MB; measured on this
 * machine, bench/results/2026-11-28-ci-speed.json).
 */
const brotliQuality = (name) => (name.endsWith('.map') ? 5 : 11);

let files = 0;
let rawBytes = 0;
let brBytes = 0;
for (const entry of await readdir(dist, { recursive: true, withFileTypes: true })) {
  if (!entry.isFile() || !COMPRESSIBLE.test(entry.name)) continue;
  const file = path.join(entry.parentPath, entry.name);
  const data = await readFile(file);
  if (data.length < MIN_BYTES) continue;
  const br = brotliCompressSync(data, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: brotliQuality(entry.name),
      [constants.BROTLI_PARAM_SIZE_HINT]: data.length,
    },
  });
  await writeFile(`${file}.br`, br);
  await writeFile(`${file}.gz`, gzipSync(data, { level: 9 }));
  files += 1;
  rawBytes += data.length;
  brBytes += br.length;
}
console.log(
  `precompressed ${files} files: ${(rawBytes / 1024).toFixed(0)} KB → ${(brBytes / 1024).toFixed(0)} KB brotli`,
);
