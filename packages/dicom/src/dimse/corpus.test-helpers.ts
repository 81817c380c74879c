// Test-only: the corpus files a DIMSE peer must take, and how to compare what arrived with them.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { locateDataset } from '../parse.js';
import { FIXTURES_DIR, manifest, type ManifestFile } from '../test-fixtures.js';

/** Every file whose manifest outcome is valid, valid-quirk, valid-tricky or valid-unsupported-ts. */
export const sendableFixtures: ManifestFile[] = manifest.files.filter((file) =>
  file.expected.startsWith('valid'),
);

export const fixturePath = (file: ManifestFile): string => join(FIXTURES_DIR, file.path);

/** The data set bytes of a file as stored: after the file meta, or the whole file without one. */
export function datasetBytes(bytes: Uint8Array): Uint8Array {
  return bytes.subarray(locateDataset(bytes).datasetStart);
}

export function readDataset(path: string): Uint8Array {
  return datasetBytes(new Uint8Array(readFileSync(path)));
}

/** Index of the first differing byte, or -1 when equal. */
export function firstDifference(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return i;
  return a.length === b.length ? -1 : n;
}

/**
 * The data set bytes our SCU puts on the wire for a file sent as stored: the file's own, with the
 * one null byte PS3.5 §A.5 adds to a deflated stream of odd length.
 */
export function expectedSentDataset(path: string): Uint8Array {
  const original = readDataset(path);
  if (original.length % 2 === 0) return original;
  const padded = new Uint8Array(original.length + 1);
  padded.set(original);
  return padded;
}
