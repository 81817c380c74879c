/** Reading values out of PS3.18 DICOM JSON (F.2) data sets, as the index answers them. */
export type TDicomJsonElement = {
  vr?: string;
  Value?: unknown[];
  BulkDataURI?: string;
  InlineBinary?: string;
};
export type TDicomJson = Record<string, TDicomJsonElement | undefined>;

/** The first value of an attribute as text (person names by their alphabetic form). */
export function textOf(dataset: TDicomJson | undefined, tag: string): string {
  const value = dataset?.[tag]?.Value?.[0];
  if (value === undefined || value === null) return '';
  if (typeof value === 'object' && 'Alphabetic' in value) return String(value.Alphabetic ?? '');
  return String(value);
}

/** The first value of an attribute as a number, or null. */
export function numberOf(dataset: TDicomJson | undefined, tag: string): number | null {
  const value = dataset?.[tag]?.Value?.[0];
  const n = typeof value === 'number' ? value : typeof value === 'string' ? Number(value) : NaN;
  return Number.isFinite(n) ? n : null;
}

/** Every value of a numeric multi-valued attribute (Image Orientation, Pixel Spacing). */
export function numbersOf(dataset: TDicomJson | undefined, tag: string): number[] {
  return (dataset?.[tag]?.Value ?? []).map(Number).filter((n) => Number.isFinite(n));
}

export const TAG = {
  sopClassUid: '00080016',
  sopInstanceUid: '00080018',
  modality: '00080060',
  seriesDescription: '0008103E',
  seriesInstanceUid: '0020000E',
  seriesNumber: '00200011',
  instanceNumber: '00200013',
  imageOrientationPatient: '00200037',
  numberOfSeriesRelatedInstances: '00201209',
  numberOfFrames: '00280008',
  rows: '00280010',
  availableTransferSyntaxUid: '00083002',
  pixelData: '7FE00010',
  floatPixelData: '7FE00008',
  doubleFloatPixelData: '7FE00009',
} as const;
