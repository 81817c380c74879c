// eslint-disable-next-line @typescript-eslint/triple-slash-reference -- dcmjs ships no types; the dicom package declares the parts it uses
/// <reference path="../../../../packages/dicom/src/vendor.d.ts" />
import dcmjs from 'dcmjs';
import { randomBytes } from 'node:crypto';

/**
 * A copy of a DICOM file with some attributes replaced (keyword → value; '' or null removes it),
 * for tests that need files the corpus does not hold (e.g. the same patient id under another
 * issuer). With `newStudy`, the study, series and SOP instance UIDs are fresh, so the copy is a
 * study of its own.
 */
export function editedDicom(
  bytes: Uint8Array,
  attributes: Record<string, string | null>,
  { newStudy = true }: { newStudy?: boolean } = {},
): Uint8Array {
  const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  const dicom = dcmjs.data.DicomMessage.readFile(buffer);
  const dataset = dcmjs.data.DicomMetaDictionary.naturalizeDataset(dicom.dict);
  const values: Record<string, string | null> = { ...attributes };
  if (newStudy) {
    const root = `2.25.${BigInt(`0x${randomBytes(12).toString('hex')}`).toString()}`;
    values.StudyInstanceUID = `${root}.1`;
    values.SeriesInstanceUID = `${root}.2`;
    values.SOPInstanceUID = `${root}.3`;
  }
  for (const [keyword, value] of Object.entries(values)) {
    if (value === null || value === '') delete dataset[keyword];
    else dataset[keyword] = value;
  }
  dicom.dict = dcmjs.data.DicomMetaDictionary.denaturalizeDataset(dataset);
  if (typeof values.SOPInstanceUID === 'string')
    dicom.meta['00020003'] = { vr: 'UI', Value: [values.SOPInstanceUID] };
  return new Uint8Array(dicom.write());
}
