// Test-only helpers: the sample corpus copied into packages/dicom/test-fixtures with its manifest.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const FIXTURES_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', 'test-fixtures');

export type ExpectedOutcome =
  | 'valid'
  | 'valid-quirk'
  | 'valid-tricky'
  | 'valid-unsupported-ts'
  | 'invalid'
  | 'invalid-pixels'
  | 'malformed';

/** One row of manifest.json (the fields the tests use). */
export interface ManifestFile {
  path: string;
  sha256: string;
  size_bytes: number;
  expected: ExpectedOutcome;
  notes: string;
  transfer_syntax: string | null;
  transfer_syntax_uid: string | null;
  sop_class_uid: string | null;
  sop_instance_uid: string | null;
  study_instance_uid: string | null;
  series_instance_uid: string | null;
  patient_name: string | null;
  patient_id: string | null;
  specific_character_set: string | string[] | null;
  modality: string | null;
  manufacturer: string | null;
  rows: number | null;
  columns: number | null;
  frames: number;
  bits_allocated: number | null;
  bits_stored: number | null;
  samples_per_pixel: number | null;
  pixel_representation: number | null;
  photometric_interpretation: string | null;
  series_number: number | null;
  instance_number: number | null;
  has_pixel_data: boolean;
  has_file_meta: boolean;
  has_preamble_dicm: boolean;
}

interface Manifest {
  file_count: number;
  files: ManifestFile[];
}

export const manifest: Manifest = JSON.parse(
  readFileSync(join(FIXTURES_DIR, 'manifest.json'), 'utf8'),
) as Manifest;

export function readFixture(path: string): Uint8Array {
  return new Uint8Array(readFileSync(join(FIXTURES_DIR, path)));
}

export function fixture(path: string): ManifestFile {
  const file = manifest.files.find((f) => f.path === path);
  if (!file) throw new Error(`${path} is not in manifest.json`);
  return file;
}

export const isValidOutcome = (expected: ExpectedOutcome): boolean => expected.startsWith('valid');
