import { createHash, randomBytes } from 'node:crypto';

/**
 * Names of stored instances and their bulk data, in one place: the blob key an instance is kept
 * under and the BulkDataURI written into its PS3.18 metadata.
 */

const sha256Hex = (text: string) => createHash('sha256').update(text).digest('hex');

/** A UID as one blob-key segment: itself when it is a plain UID, else a hash (never '.', '..' or a slash). */
function keySegment(uid: string): string {
  return /^[0-9][0-9.]{0,63}$/.test(uid) && !/^\.+$/.test(uid) ? uid : `h${sha256Hex(uid).slice(0, 40)}`;
}

/**
 * Where one received copy of an instance goes:
 * `dicom/<groupId>/<2 hex of the study UID's hash>/<studyUid>/<sopUid>.<12 hex>.dcm`. The hash
 * prefix spreads studies over 256 directories. Every copy gets a name of its own (the random
 * part), so writing it never replaces a stored file: whether it is indexed, or the first copy is
 * kept, is the index's decision (DECISIONS.md "instance ownership"), and a copy not indexed is
 * deleted. The index names the file (`instances.blob_key`); nothing derives it from the UIDs.
 */
export function instanceBlobKey(groupId: number, studyInstanceUid: string, sopInstanceUid: string): string {
  const prefix = sha256Hex(studyInstanceUid).slice(0, 2);
  const copy = randomBytes(6).toString('hex');
  return `dicom/${groupId}/${prefix}/${keySegment(studyInstanceUid)}/${keySegment(sopInstanceUid)}.${copy}.dcm`;
}

/**
 * The BulkDataURI of a binary value in an instance's metadata (PS3.18 §8.7.5 / F.2.6):
 * `{base}/api/dicomweb/studies/{study}/series/{series}/instances/{sop}/bulk/{path}` where `path`
 * is the tag (8 hex digits) for a top-level element, or tags and item indexes joined by '.' for a
 * nested one (e.g. `54000100.0.54001010`). `base` is PUBLIC_URL, or '' for a path on this origin.
 */
export function bulkDataUri(
  base: string,
  uids: { studyInstanceUid: string; seriesInstanceUid: string; sopInstanceUid: string },
  path: readonly (string | number)[],
): string {
  const e = encodeURIComponent;
  return (
    `${base.replace(/\/+$/, '')}/api/dicomweb/studies/${e(uids.studyInstanceUid)}` +
    `/series/${e(uids.seriesInstanceUid)}/instances/${e(uids.sopInstanceUid)}/bulk/${path.map(String).join('.')}`
  );
}
