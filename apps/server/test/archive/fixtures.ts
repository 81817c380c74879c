// The sample corpus of packages/dicom (its manifest says what each file must do) and archive builders.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Db } from '../../src/db/client.js';
import { centers } from '../../src/db/schema.js';
import { eq } from 'drizzle-orm';

export const FIXTURES_DIR = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../../../packages/dicom/test-fixtures',
);

export interface CorpusFile {
  path: string;
  sha256: string;
  size_bytes: number;
  expected: string;
  notes: string;
  sop_instance_uid: string | null;
  study_instance_uid: string | null;
  series_instance_uid: string | null;
  modality: string | null;
}

export const corpus: CorpusFile[] = (
  JSON.parse(readFileSync(path.join(FIXTURES_DIR, 'manifest.json'), 'utf8')) as { files: CorpusFile[] }
).files;

/** Expected outcomes that must be stored (the manifest legend). */
export const STORABLE = new Set([
  'valid',
  'valid-quirk',
  'valid-tricky',
  'valid-unsupported-ts',
  'malformed-but-readable',
  'malformed',
  'invalid-pixels',
]);

export const fixturePath = (rel: string) => path.join(FIXTURES_DIR, rel);
export const readFixture = (rel: string) => new Uint8Array(readFileSync(fixturePath(rel)));

export const LIVER = [
  'ct/study_liver/ct_liver_01.dcm',
  'ct/study_liver/ct_liver_02.dcm',
  'ct/study_liver/ct_liver_03.dcm',
  'ct/study_liver/seg_liver_3frames.dcm',
];

export async function setAeTitles(db: Db, centerId: number, aeTitles: string[]) {
  await db.update(centers).set({ aeTitles }).where(eq(centers.id, centerId));
}
