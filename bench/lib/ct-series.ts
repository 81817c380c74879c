/**
 * The generated CT series the benchmarks share (issue 3 §8): N slices of 512×512, 16-bit,
 * explicit VR little endian, random-ish pixels so nothing along the way can compress or deduplicate
 * them; fresh study/series/instance UIDs on every call unless given.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import dcmjs from 'dcmjs';

export const CT_IMAGE_STORAGE = '1.2.840.10008.5.1.4.1.1.2';
export const EXPLICIT_LE = '1.2.840.10008.1.2.1';

/** A fresh `2.25.` UID. */
export function uid(): string {
  return `2.25.${BigInt(`0x${crypto.randomUUID().replace(/-/g, '')}`).toString()}`;
}

export interface SeriesOptions {
  readonly studyInstanceUid?: string;
  readonly seriesInstanceUid?: string;
  readonly patientId?: string;
  readonly patientName?: string;
  readonly accessionNumber?: string;
  readonly studyDescription?: string;
}

export interface WrittenSeries {
  readonly studyInstanceUid: string;
  readonly seriesInstanceUid: string;
  readonly files: string[];
  /** Sum of the file sizes. */
  readonly bytes: number;
}

/** Writes `slices` files `0001.dcm`… into `dir` (which must exist); resolves to their paths. */
export async function writeCtSeries(
  dir: string,
  slices: number,
  options: SeriesOptions = {},
): Promise<WrittenSeries> {
  const { DicomDict, DicomMetaDictionary } = dcmjs.data;
  const study = options.studyInstanceUid ?? uid();
  const series = options.seriesInstanceUid ?? uid();
  const frameOfReference = uid();
  const pixels = new Uint16Array(512 * 512);
  const files: string[] = [];
  let bytes = 0;
  for (let i = 0; i < slices; i++) {
    let seed = (i + 1) * 2654435761;
    for (let p = 0; p < pixels.length; p++) {
      seed = (seed * 1103515245 + 12345) >>> 0;
      pixels[p] = ((p >> 9) + (p & 511) + (seed >>> 22)) & 0x0fff;
    }
    const sopInstanceUid = uid();
    const dataset = {
      SpecificCharacterSet: 'ISO_IR 100',
      ImageType: ['ORIGINAL', 'PRIMARY', 'AXIAL'],
      SOPClassUID: CT_IMAGE_STORAGE,
      SOPInstanceUID: sopInstanceUid,
      StudyDate: '20250101',
      StudyTime: '120000',
      AccessionNumber: options.accessionNumber ?? 'BENCH1',
      Modality: 'CT',
      Manufacturer: 'Radflow bench',
      ReferringPhysicianName: '',
      StudyDescription: options.studyDescription ?? 'DIMSE ingest bench',
      SeriesDescription: `${slices} slices 512x512`,
      PatientName: options.patientName ?? 'Bench^Ingest',
      PatientID: options.patientId ?? 'BENCH-0001',
      PatientBirthDate: '19700101',
      PatientSex: 'O',
      SliceThickness: '1',
      KVP: '120',
      StudyInstanceUID: study,
      SeriesInstanceUID: series,
      StudyID: '1',
      SeriesNumber: '1',
      InstanceNumber: String(i + 1),
      ImagePositionPatient: ['-250', '-250', String(-i)],
      ImageOrientationPatient: ['1', '0', '0', '0', '1', '0'],
      FrameOfReferenceUID: frameOfReference,
      SliceLocation: String(-i),
      SamplesPerPixel: 1,
      PhotometricInterpretation: 'MONOCHROME2',
      Rows: 512,
      Columns: 512,
      PixelSpacing: ['0.9765625', '0.9765625'],
      BitsAllocated: 16,
      BitsStored: 12,
      HighBit: 11,
      PixelRepresentation: 0,
      RescaleIntercept: '-1024',
      RescaleSlope: '1',
      WindowCenter: '40',
      WindowWidth: '400',
      PixelData: [pixels.slice().buffer],
      _vrMap: { PixelData: 'OW' },
    };
    const meta = {
      FileMetaInformationVersion: new Uint8Array([0, 1]).buffer,
      MediaStorageSOPClassUID: CT_IMAGE_STORAGE,
      MediaStorageSOPInstanceUID: sopInstanceUid,
      TransferSyntaxUID: EXPLICIT_LE,
      ImplementationClassUID: '2.25.337322333667244214645930924594984310092',
    };
    const dict = new DicomDict(DicomMetaDictionary.denaturalizeDataset(meta));
    dict.dict = DicomMetaDictionary.denaturalizeDataset(dataset);
    const path = join(dir, `${String(i + 1).padStart(4, '0')}.dcm`);
    const encoded = new Uint8Array(dict.write());
    await writeFile(path, encoded);
    bytes += encoded.byteLength;
    files.push(path);
  }
  return { studyInstanceUid: study, seriesInstanceUid: series, files, bytes };
}
