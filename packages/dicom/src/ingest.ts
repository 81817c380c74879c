/**
 * `@radflow/dicom/ingest`: what an ingest needs of an instance — parse, frame ranges, PS3.18 JSON —
 * without the rest of the package (anonymisation loads dcmjs, the codecs their WASM). For worker
 * threads (the server's ingest workers), where every module loaded costs memory per thread.
 */
export { DicomParseError, isDicomParseError, type DicomParseErrorCode } from './errors.js';
export {
  parseInstance,
  assertIngestable,
  type ParsedInstance,
  type ParseInstanceOptions,
  type InstanceIndexRecord,
  type PixelDataInfo,
} from './parse.js';
export { locateFrames, type FrameLocation } from './frames.js';
export { toDicomJson } from './dicom-json.js';
export { computePatientAge, patientAgeOf } from './patient-age.js';
