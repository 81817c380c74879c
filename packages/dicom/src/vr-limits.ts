/**
 * Values made to fit their VR (PS3.5 §6.2, Table 6.2-1) before they are encoded for a peer: what
 * we stored came from whoever sent it, and one over-long value (a 10,000-character patient name)
 * must not make an answer that carries it unencodable — dcmjs refuses to write it, and a C-FIND
 * of the whole center failed with it. The index keeps the value whole; only what goes on the wire
 * is cut.
 */
import type {
  DicomJsonDataset,
  DicomJsonElement,
  DicomJsonPersonName,
  DicomJsonValue,
} from './dicom-json.js';

/** The longest value of each VR that has a maximum, in characters (PN: per component group). */
export const VR_MAX_LENGTH: Readonly<Record<string, number>> = {
  AE: 16,
  AS: 4,
  CS: 16,
  DA: 8,
  DS: 16,
  DT: 26,
  IS: 12,
  LO: 64,
  LT: 10240,
  PN: 64,
  SH: 16,
  ST: 1024,
  TM: 14,
  UI: 64,
};

/** VRs limited to the default character repertoire (PS3.5 §6.1.2.1): lengths are bytes there. */
const ASCII_ONLY = new Set(['AE', 'AS', 'CS', 'DA', 'DS', 'DT', 'IS', 'TM', 'UI']);

/** At most `max` UTF-16 units, never half a surrogate pair. */
function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  const code = text.charCodeAt(max - 1);
  return text.slice(0, code >= 0xd800 && code <= 0xdbff ? max - 1 : max);
}

function fitPersonName(value: DicomJsonPersonName | string): DicomJsonPersonName | string {
  if (typeof value === 'string')
    return value
      .split('=')
      .map((group) => cut(group, 64))
      .join('=');
  const fitted: DicomJsonPersonName = {};
  for (const [group, text] of Object.entries(value) as Array<[keyof DicomJsonPersonName, unknown]>)
    if (typeof text === 'string') fitted[group] = cut(text, 64);
  return fitted;
}

/** A number written as DS or IS text within `max` characters, or null when it cannot be. */
function fitNumber(vr: string, value: number, max: number): number | null {
  if (!Number.isFinite(value)) return null;
  if (String(value).length <= max) return value;
  if (vr === 'IS') return null;
  for (let digits = max; digits > 0; digits--) {
    const shorter = Number(value.toPrecision(digits));
    if (String(shorter).length <= max) return shorter;
  }
  return null;
}

function fitValue(vr: string, value: DicomJsonValue): DicomJsonValue {
  if (value === null) return value;
  if (vr === 'SQ') return typeof value === 'object' ? fitDatasetToVrs(value as DicomJsonDataset) : value;
  if (vr === 'PN') return fitPersonName(value as DicomJsonPersonName | string);
  const max = VR_MAX_LENGTH[vr];
  if (max === undefined) return value;
  if (typeof value === 'number') return fitNumber(vr, value, max);
  if (typeof value !== 'string') return value;
  const text = ASCII_ONLY.has(vr) ? value.replace(/[^\x20-\x7e]/g, '?') : value;
  return cut(text, max);
}

/** The element with every value within its VR's maximum. */
export function fitElementToVr(element: DicomJsonElement): DicomJsonElement {
  if (!element.Value) return element;
  return { ...element, Value: element.Value.map((value) => fitValue(element.vr, value)) };
}

/** A copy of the data set whose every value (in sequences too) is within its VR's maximum. */
export function fitDatasetToVrs(dataset: DicomJsonDataset): DicomJsonDataset {
  const fitted: DicomJsonDataset = {};
  for (const [tag, element] of Object.entries(dataset)) fitted[tag] = fitElementToVr(element);
  return fitted;
}
