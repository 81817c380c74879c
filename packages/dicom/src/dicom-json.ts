/**
 * The DICOM JSON Model (PS3.18 Annex F.2) of a parsed instance: what QIDO-RS and WADO-RS
 * `/metadata` answer, stored per instance at ingest so that no query reads a file.
 */
import type { DataSet, Element } from 'dicom-parser';
import { createCharsetDecoder, type CharsetDecoder } from './charset.js';
import { lookupTag, resolveImplicitVr, tagFromParserKey, tagToHex } from './dictionary.js';
import type { ParsedInstance } from './parse.js';

/** PS3.18 F.2.2: a Person Name value. */
export interface DicomJsonPersonName {
  Alphabetic?: string;
  Ideographic?: string;
  Phonetic?: string;
}

export type DicomJsonValue = string | number | null | DicomJsonPersonName | DicomJsonDataset;

/** PS3.18 F.2.2: one attribute. At most one of Value, InlineBinary, BulkDataURI; none for an empty value. */
export interface DicomJsonElement {
  vr: string;
  Value?: DicomJsonValue[];
  InlineBinary?: string;
  BulkDataURI?: string;
}

/** PS3.18 F.2.1: a data set, keyed by eight uppercase hex digits of the tag. */
export type DicomJsonDataset = Record<string, DicomJsonElement>;

/** A binary value left in the file, handed to the caller to name by a URI. */
export interface BulkDataReference {
  /** The element's tag as eight uppercase hex digits. */
  readonly tag: string;
  /** Tags and item indexes from the top level, e.g. `['54000100', 0, '54001010']`. */
  readonly path: readonly (string | number)[];
  readonly vr: string;
  /** Offset and length of the value in `ParsedInstance.datasetBytes`. */
  readonly offset: number;
  readonly length: number;
  readonly isPixelData: boolean;
}

export interface ToDicomJsonOptions {
  /**
   * Names the URI of a bulk value (pixel data, and binary values above the threshold). Without it,
   * or when it returns undefined, such an element is written without a value.
   */
  readonly bulkDataUri?: (reference: BulkDataReference) => string | undefined;
  /** Binary values (OB, OD, OF, OL, OV, OW, UN) longer than this become bulk data; default 1024 bytes. */
  readonly bulkDataThreshold?: number;
  /** Also write the File Meta Information (group 0002); PS3.18 metadata usually leaves it out. */
  readonly includeFileMeta?: boolean;
}

const BINARY_VRS = new Set(['OB', 'OD', 'OF', 'OL', 'OV', 'OW', 'UN']);
const SINGLE_VALUE_TEXT_VRS = new Set(['LT', 'ST', 'UT', 'UR']);
const CHARSET_VRS = new Set(['SH', 'LO', 'ST', 'LT', 'UT', 'UC', 'PN']);
const PIXEL_TAGS = new Set([0x7fe00010, 0x7fe00008, 0x7fe00009]);

interface Context {
  readonly options: ToDicomJsonOptions;
  readonly threshold: number;
  readonly isSigned: boolean;
}

function toBase64(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
}

function ascii(bytes: Uint8Array): string {
  let out = '';
  for (let i = 0; i < bytes.length; i++) out += String.fromCharCode(bytes[i] as number);
  return out;
}

function elementVr(element: Element, tag: number, context: Context): string {
  if (element.items) return 'SQ';
  if (element.vr) return element.vr;
  if (PIXEL_TAGS.has(tag))
    return element.length === 0xffffffff
      ? 'OB'
      : tag === 0x7fe00010
        ? 'OW'
        : tag === 0x7fe00008
          ? 'OF'
          : 'OD';
  return resolveImplicitVr(tag, context.isSigned) ?? 'UN';
}

function splitStrings(text: string, vr: string): (string | null)[] {
  const values = SINGLE_VALUE_TEXT_VRS.has(vr) ? [text] : text.split('\\');
  return values.map((value) => {
    const trimmed =
      vr === 'LT' || vr === 'ST' || vr === 'UT'
        ? value.replace(/[\s\0]+$/, '')
        : value.replace(/\0/g, '').trim();
    return trimmed === '' ? null : trimmed;
  });
}

function toPersonName(value: string | null): DicomJsonPersonName | null {
  if (value === null) return null;
  const [alphabetic, ideographic, phonetic] = value.split('=');
  const name: DicomJsonPersonName = {};
  if (alphabetic) name.Alphabetic = alphabetic;
  if (ideographic) name.Ideographic = ideographic;
  if (phonetic) name.Phonetic = phonetic;
  return Object.keys(name).length > 0 ? name : null;
}

function toNumberOrText(value: string | null, isInteger: boolean): number | string | null {
  if (value === null) return null;
  const number = Number(value);
  if (!Number.isFinite(number)) return value; // keep what was sent rather than lose it
  return isInteger ? Math.trunc(number) : number;
}

function readNumbers(dataSet: DataSet, element: Element, vr: string): (number | string)[] {
  const bytes = dataSet.byteArray as Uint8Array;
  const parser = dataSet.byteArrayParser;
  const size = vr === 'US' || vr === 'SS' ? 2 : vr === 'FD' || vr === 'SV' || vr === 'UV' ? 8 : 4;
  const count = Math.floor(Math.min(element.length, bytes.length - element.dataOffset) / size);
  const values: (number | string)[] = [];
  for (let i = 0; i < count; i++) {
    const at = element.dataOffset + i * size;
    switch (vr) {
      case 'US':
        values.push(parser.readUint16(bytes, at));
        break;
      case 'SS':
        values.push(parser.readInt16(bytes, at));
        break;
      case 'UL':
        values.push(parser.readUint32(bytes, at));
        break;
      case 'SL':
        values.push(parser.readInt32(bytes, at));
        break;
      case 'FL':
        values.push(parser.readFloat(bytes, at));
        break;
      case 'FD':
        values.push(parser.readDouble(bytes, at));
        break;
      default: {
        // SV / UV (PS3.18 F.2.3.1: a string when not exactly representable as a JSON number)
        const view = new DataView(bytes.buffer, bytes.byteOffset + at, 8);
        const isLittle = parser.readUint16(new Uint8Array([1, 0]), 0) === 1;
        const big = vr === 'SV' ? view.getBigInt64(0, isLittle) : view.getBigUint64(0, isLittle);
        const asNumber = Number(big);
        values.push(Number.isSafeInteger(asNumber) ? asNumber : big.toString());
      }
    }
  }
  return values;
}

function readAttributeTags(dataSet: DataSet, element: Element): string[] {
  const bytes = dataSet.byteArray as Uint8Array;
  const parser = dataSet.byteArrayParser;
  const values: string[] = [];
  for (
    let at = element.dataOffset;
    at + 4 <= element.dataOffset + element.length && at + 4 <= bytes.length;
    at += 4
  ) {
    values.push(tagToHex(((parser.readUint16(bytes, at) << 16) | parser.readUint16(bytes, at + 2)) >>> 0));
  }
  return values;
}

function convertElement(
  dataSet: DataSet,
  element: Element,
  tag: number,
  decoder: CharsetDecoder,
  context: Context,
  path: readonly (string | number)[],
): DicomJsonElement {
  const vr = elementVr(element, tag, context);
  const result: DicomJsonElement = { vr };
  const hexTag = tagToHex(tag);

  if (vr === 'SQ') {
    const items = element.items ?? [];
    if (items.length > 0) {
      result.Value = items.map((item, index) =>
        item.dataSet ? convertDataSet(item.dataSet, decoder, context, [...path, index]) : {},
      );
    }
    return result;
  }

  const isPixelData = PIXEL_TAGS.has(tag) && path.length === 1;
  const bytes = dataSet.byteArray as Uint8Array;
  if (isPixelData || BINARY_VRS.has(vr)) {
    const available = Math.max(0, Math.min(element.length, bytes.length - element.dataOffset));
    const length = element.length === 0xffffffff ? bytes.length - element.dataOffset : available;
    if (length === 0) return result;
    if (isPixelData || length > context.threshold) {
      const uri = context.options.bulkDataUri?.({
        tag: hexTag,
        path,
        vr,
        offset: element.dataOffset,
        length,
        isPixelData,
      });
      if (uri !== undefined) result.BulkDataURI = uri;
      return result;
    }
    result.InlineBinary = toBase64(bytes.subarray(element.dataOffset, element.dataOffset + length));
    return result;
  }

  if (element.length === 0 || element.length === 0xffffffff) return result;

  let values: DicomJsonValue[];
  switch (vr) {
    case 'US':
    case 'SS':
    case 'UL':
    case 'SL':
    case 'FL':
    case 'FD':
    case 'SV':
    case 'UV':
      values = readNumbers(dataSet, element, vr);
      break;
    case 'AT':
      values = readAttributeTags(dataSet, element);
      break;
    default: {
      const end = Math.min(element.dataOffset + element.length, bytes.length);
      const raw = bytes.subarray(element.dataOffset, end);
      const text = CHARSET_VRS.has(vr) ? decoder.decode(raw, vr === 'PN') : ascii(raw);
      const strings = splitStrings(text, vr);
      if (vr === 'PN') values = strings.map(toPersonName);
      else if (vr === 'IS' || vr === 'DS') values = strings.map((s) => toNumberOrText(s, vr === 'IS'));
      else values = strings;
    }
  }
  if (values.length > 0 && values.some((value) => value !== null)) result.Value = values;
  return result;
}

function charsetOf(dataSet: DataSet): string[] | undefined {
  const element = dataSet.elements['x00080005'];
  if (!element) return undefined;
  const bytes = dataSet.byteArray as Uint8Array;
  return ascii(bytes.subarray(element.dataOffset, element.dataOffset + element.length))
    .replace(/\0+$/, '')
    .split('\\')
    .map((term) => term.trim());
}

function convertDataSet(
  dataSet: DataSet,
  inherited: CharsetDecoder,
  context: Context,
  path: readonly (string | number)[],
  includeFileMeta = false,
): DicomJsonDataset {
  // PS3.5 §7.5.1 (note): an item may carry its own Specific Character Set.
  const charsets = charsetOf(dataSet);
  const decoder = charsets ? createCharsetDecoder(charsets) : inherited;
  const entries: [number, Element][] = [];
  for (const [key, element] of Object.entries(dataSet.elements)) {
    const tag = tagFromParserKey(key);
    const group = tag >>> 16;
    if ((tag & 0xffff) === 0 && group !== 0) continue; // group lengths are not part of the model
    if (group === 0x0002 && !includeFileMeta) continue;
    if (group === 0xfffe || group === 0xfffc) continue;
    entries.push([tag, element]);
  }
  entries.sort((a, b) => a[0] - b[0]);
  const json: DicomJsonDataset = {};
  for (const [tag, element] of entries) {
    json[tagToHex(tag)] = convertElement(dataSet, element, tag, decoder, context, [...path, tagToHex(tag)]);
  }
  return json;
}

/**
 * PS3.18 F.2 JSON of an instance: every element up to the pixel data, sequences recursively,
 * text decoded with the Specific Character Set, numbers for IS/DS/US/SS/UL/SL/FL/FD, PN as
 * component groups, AT as hex, pixel data and large binaries as BulkDataURI, empty values
 * without a Value key.
 */
export function toDicomJson(parsed: ParsedInstance, options: ToDicomJsonOptions = {}): DicomJsonDataset {
  const context: Context = {
    options,
    threshold: options.bulkDataThreshold ?? 1024,
    isSigned: parsed.image?.pixelRepresentation === 1,
  };
  const decoder = createCharsetDecoder(parsed.specificCharacterSet);
  const json: DicomJsonDataset = {};
  if (options.includeFileMeta && parsed.meta) {
    Object.assign(json, convertDataSet(parsed.meta, decoder, context, [], true));
  }
  Object.assign(json, convertDataSet(parsed.dataSet, decoder, context, []));
  return json;
}

/** The PS3.6 keyword of a JSON tag key ('00100010' → 'PatientName'), for logs and tests. */
export function keywordOfJsonTag(tag: string): string | undefined {
  return lookupTag(parseInt(tag, 16) >>> 0)?.keyword;
}
