import { createHash } from 'node:crypto';
import {
  DicomParseError,
  type InstanceIndexRecord,
  type ParsedInstance,
  assertIngestable,
  locateFrames,
  parseInstance,
  toDicomJson,
} from '@radflow/dicom/ingest';
import { bulkDataUri } from './dicom-keys.js';

/**
 * The CPU work of ingesting one instance, before anything is stored: parse, frame ranges, sha256
 * and the PS3.18 metadata JSON. Pure functions over bytes, with no app context: they run on the
 * main thread (a lone ingest) or in an ingest worker (ingest-pool.ts), which is why this module
 * imports nothing of the server beyond dicom-keys.
 */

/** FOREIGN_STUDY: the instance's study belongs to another center (DECISIONS.md "instance ownership"). */
export type IngestFailureCode = 'NOT_DICOM' | 'INVALID' | 'REFUSED' | 'FOREIGN_STUDY' | 'STORAGE';

export interface IngestFailure {
  ok: false;
  reason: string;
  failureCode: IngestFailureCode;
  sopInstanceUid: string | null;
  sopClassUid: string | null;
  /** Known when the file parsed. */
  studyInstanceUid?: string | null;
}

type Uids = Pick<PreparedInstance, 'sopInstanceUid' | 'sopClassUid' | 'studyInstanceUid'>;

export const fail = (
  failureCode: IngestFailureCode,
  reason: string,
  parsed?: Uids | null,
): IngestFailure => ({
  ok: false,
  reason,
  failureCode,
  sopInstanceUid: parsed?.sopInstanceUid || null,
  sopClassUid: parsed?.sopClassUid || null,
  studyInstanceUid: parsed?.studyInstanceUid || null,
});

/** What the index needs of a parsed instance: plain values, so it crosses a thread boundary. */
export interface PreparedInstance {
  transferSyntaxUid: string;
  sopClassUid: string;
  sopInstanceUid: string;
  studyInstanceUid: string;
  seriesInstanceUid: string;
  index: InstanceIndexRecord;
  /** Each frame's [offset, length] in the stored file, or null (see {@link frameRanges}). */
  frames: Array<[number, number]> | null;
  sizeBytes: number;
}

/** The hash and the metadata of a prepared instance, or why its data set cannot be converted. */
export type Digest = { sha256: string; metadata: string } | IngestFailure;

/** PostgreSQL text and jsonb refuse NUL characters; a DICOM value may carry one as padding. */
export function withoutNul<T>(value: T): T {
  if (typeof value === 'string') return value.replaceAll('\u0000', '') as T;
  if (Array.isArray(value)) return value.map(withoutNul) as T;
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withoutNul(v)])) as T;
  }
  return value;
}

/** Each frame's [offset, length] in the stored file, or null when some frame is not one plain range. */
function frameRanges(parsed: ParsedInstance): Array<[number, number]> | null {
  // Deflated data sets: the offsets are in the inflated bytes, not in the file.
  if (!parsed.pixelData || parsed.pixelData.isInInflatedDataset) return null;
  try {
    const located = locateFrames(parsed);
    const ranges: Array<[number, number]> = [];
    for (const frame of located) {
      const [range] = frame.ranges;
      if (frame.ranges.length !== 1 || frame.bitOffset !== 0 || !range) return null;
      ranges.push([range.offset, range.length]);
    }
    return ranges;
  } catch {
    // Frames that cannot be located (missing attributes, unresolvable fragments) are still stored:
    // retrieval reads the file and cuts them, or reports the frame as unavailable.
    return null;
  }
}

/** Parses an instance for ingest: the parsed data set (for {@link digest}) and its plain summary. */
export function parseForIngest(
  bytes: Uint8Array,
): { parsed: ParsedInstance; prepared: PreparedInstance } | IngestFailure {
  let parsed: ParsedInstance;
  try {
    parsed = parseInstance(bytes);
    assertIngestable(parsed);
  } catch (error) {
    if (error instanceof DicomParseError) {
      const code = error.code === 'EMPTY' || error.code === 'NOT_DICOM' ? 'NOT_DICOM' : 'INVALID';
      return fail(code, error.message);
    }
    return fail('INVALID', `The file cannot be read as DICOM: ${(error as Error).message}`);
  }
  return {
    parsed,
    prepared: {
      transferSyntaxUid: parsed.transferSyntaxUid,
      sopClassUid: parsed.sopClassUid,
      sopInstanceUid: parsed.sopInstanceUid,
      studyInstanceUid: parsed.studyInstanceUid,
      seriesInstanceUid: parsed.seriesInstanceUid,
      index: parsed.index,
      frames: frameRanges(parsed),
      sizeBytes: bytes.byteLength,
    },
  };
}

export const sha256Of = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** The instance's PS3.18 JSON, serialised, NUL characters removed (PostgreSQL refuses them). */
export function metadataOf(parsed: ParsedInstance): string | IngestFailure {
  const uids = {
    studyInstanceUid: parsed.studyInstanceUid,
    seriesInstanceUid: parsed.seriesInstanceUid,
    sopInstanceUid: parsed.sopInstanceUid,
  };
  try {
    const dicomJson = toDicomJson(parsed, { bulkDataUri: (ref) => bulkDataUri('', uids, ref.path) });
    const serialised = JSON.stringify(dicomJson);
    // A NUL anywhere (key or value) is serialised as \u0000: only then rebuild without it.
    return serialised.includes('\\u0000') ? JSON.stringify(withoutNul(dicomJson)) : serialised;
  } catch (error) {
    return fail(
      'INVALID',
      `The data set cannot be converted to DICOM JSON: ${(error as Error).message}`,
      parsed,
    );
  }
}

/**
 * sha256 and metadata of a parsed instance; the JSON first, so a data set it refuses costs no hash.
 * `sha256`: the hash of exactly these bytes when already made (the C-STORE SCP hashes as it receives).
 */
export function digest(parsed: ParsedInstance, bytes: Uint8Array, sha256?: string): Digest {
  const metadata = metadataOf(parsed);
  if (typeof metadata !== 'string') return metadata;
  return { sha256: sha256 ?? sha256Of(bytes), metadata };
}

/** Everything an ingest needs of its bytes, in one go (what an ingest worker answers). */
export type Preparation = { prepared: PreparedInstance; digest: Digest } | IngestFailure;

export function prepareInstance(
  bytes: Uint8Array,
  requireStudyInstanceUid?: string | null,
  sha256?: string,
): Preparation {
  const parsedOrFailure = parseForIngest(bytes);
  if ('ok' in parsedOrFailure) return parsedOrFailure;
  const { parsed, prepared } = parsedOrFailure;
  // A refused instance (another study than the STOW path's) is not worth hashing.
  if (requireStudyInstanceUid && prepared.studyInstanceUid !== requireStudyInstanceUid)
    return { prepared, digest: { sha256: '', metadata: '' } };
  return { prepared, digest: digest(parsed, bytes, sha256) };
}
