import type { DicomJsonDataset, DicomJsonElement } from '@radflow/dicom';

/** Small builders of PS3.18 F.2 attributes from index columns; empty values carry no Value. */

export function textAttr(vr: string, value: string | null | undefined): DicomJsonElement {
  return value ? { vr, Value: [value] } : { vr };
}

export function listAttr(vr: string, values: readonly string[]): DicomJsonElement {
  return values.length > 0 ? { vr, Value: [...values] } : { vr };
}

export function numberAttr(vr: string, value: number | null | undefined): DicomJsonElement {
  return value === null || value === undefined ? { vr } : { vr, Value: [value] };
}

/** A PN as the index keeps it ('Alphabetic=Ideographic=Phonetic') in F.2.2 component groups. */
export function personNameAttr(value: string | null | undefined): DicomJsonElement {
  if (!value) return { vr: 'PN' };
  const [alphabetic, ideographic, phonetic] = value.split('=');
  const name: Record<string, string> = {};
  if (alphabetic) name.Alphabetic = alphabetic;
  if (ideographic) name.Ideographic = ideographic;
  if (phonetic) name.Phonetic = phonetic;
  return Object.keys(name).length > 0 ? { vr: 'PN', Value: [name] } : { vr: 'PN' };
}

/** The data set with its keys in tag order (F.2.1.1 orders attributes like a DICOM data set). */
export function sortedDataset(dataset: DicomJsonDataset): DicomJsonDataset {
  const sorted: DicomJsonDataset = {};
  for (const key of Object.keys(dataset).sort()) sorted[key] = dataset[key] as DicomJsonElement;
  return sorted;
}
