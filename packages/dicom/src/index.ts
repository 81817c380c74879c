/**
 * @radflow/dicom — DICOM parsing to index fields and PS3.18 JSON, frame extraction and the
 * anonymisation profile (ARCHITECTURE §4). Pure functions over bytes: no I/O, no network.
 */
export * from './errors.js';
export * from './transfer-syntax.js';
export { createCharsetDecoder, normalizeCharsetTerm, type CharsetDecoder } from './charset.js';
export { lookupTag, tagOfKeyword, tagToHex, type DictionaryEntry } from './dictionary.js';
export {
  parseInstance,
  locateDataset,
  looksLikeDicom,
  DICOM_HEAD_BYTES,
  type DatasetLocation,
  assertIngestable,
  readText,
  type ParsedInstance,
  type ParseInstanceOptions,
  type InstanceIndexRecord,
  type ImagePixelDescription,
  type PixelDataInfo,
  type PixelDataFragment,
  type PixelDataTag,
} from './parse.js';
export * from './dicom-json.js';
export { VR_MAX_LENGTH, fitDatasetToVrs, fitElementToVr } from './vr-limits.js';
export * from './frames.js';
export * from './file-meta.js';
export { anonymizeDataset, anonymizePart10, remapUid, type AnonymizeOptions } from './anonymize.js';
export * from './codecs/index.js';
export { blankTopLevelText } from './blank-element.js';
export { computePatientAge, patientAgeOf } from './patient-age.js';
