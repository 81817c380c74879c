/**
 * Reading a DICOM instance up to (not into) its pixel data: PS3.10 §7 (Part 10 file: preamble,
 * "DICM", File Meta Information) and PS3.5 §7 (data set encoding), for every transfer syntax of
 * PS3.5 §10 / Annex A, including bare data sets without a file meta (detected implicit / explicit
 * VR), Deflated Explicit VR Little Endian and Explicit VR Big Endian.
 *
 * Only element headers are walked: values are read where the index needs them, pixel data is
 * located but never copied.
 */
import { inflateRawSync, inflateSync } from 'node:zlib';
import { dicomUidProblem } from '@radflow/core/dicom-uid';
import dicomParser from 'dicom-parser';
import type { ByteArrayParser, DataSet, Element } from 'dicom-parser';
import { createCharsetDecoder, type CharsetDecoder } from './charset.js';
import { resolveImplicitVr, tagFromParserKey } from './dictionary.js';
import { DicomParseError } from './errors.js';
import { describeTransferSyntax, TRANSFER_SYNTAX, type TransferSyntaxInfo } from './transfer-syntax.js';

type DataSetConstructor = new (
  parser: ByteArrayParser,
  bytes: Uint8Array,
  elements: Record<string, Element>,
) => DataSet;
const DataSetCtor = (dicomParser as unknown as { DataSet: DataSetConstructor }).DataSet;

/** The three pixel data elements of PS3.3 §C.7.6.3 (Pixel, Float Pixel, Double Float Pixel Data). */
export type PixelDataTag = 'x7fe00010' | 'x7fe00008' | 'x7fe00009';
const PIXEL_TAGS: ReadonlySet<string> = new Set(['x7fe00010', 'x7fe00008', 'x7fe00009']);

/** One item of an encapsulated Pixel Data value (PS3.5 §A.4), positions in the data set bytes. */
export interface PixelDataFragment {
  /** Offset of the fragment's first byte (after its item header). */
  readonly offset: number;
  readonly length: number;
}

/** Where the pixel data lies; offsets refer to {@link ParsedInstance.datasetBytes}. */
export interface PixelDataInfo {
  readonly tag: PixelDataTag;
  readonly vr: string;
  /** Offset of the value (native) or of the first item header (encapsulated). */
  readonly offset: number;
  /** Native: the value length. Encapsulated: bytes from `offset` through the sequence delimiter (or what is there). */
  readonly length: number;
  readonly isEncapsulated: boolean;
  /** False when the file ends before the value (or, encapsulated, its sequence delimiter) does. */
  readonly isComplete: boolean;
  /** Encapsulated: the Basic Offset Table (PS3.5 Table A.4-1), empty when the first item is empty. */
  readonly basicOffsetTable: readonly number[];
  /** Encapsulated: the fragments after the Basic Offset Table item. */
  readonly fragments: readonly PixelDataFragment[];
  /** True for a deflated syntax: the offsets are in the inflated data set, not in the file. */
  readonly isInInflatedDataset: boolean;
}

/** Image Pixel Module attributes (PS3.3 §C.7.6.3) that frame extraction and viewers need. */
export interface ImagePixelDescription {
  readonly rows: number;
  readonly columns: number;
  readonly samplesPerPixel: number;
  readonly bitsAllocated: number | null;
  readonly bitsStored: number | null;
  readonly pixelRepresentation: number | null;
  readonly photometricInterpretation: string | null;
  readonly planarConfiguration: number | null;
  readonly numberOfFrames: number;
}

/**
 * What a worklist and the study/series/instance index need from one instance (PS3.3 Patient,
 * General Study, General Series, General Image modules; PS3.4 Annex C query keys). Decoded to
 * Unicode; absent or empty values are null.
 */
export interface InstanceIndexRecord {
  readonly patientName: string | null;
  readonly patientId: string | null;
  /** Issuer of Patient ID (0010,0021): with the Patient ID, who the patient is. */
  readonly issuerOfPatientId: string | null;
  readonly patientSex: string | null;
  readonly patientAge: string | null;
  readonly patientBirthDate: string | null;
  readonly studyDate: string | null;
  readonly studyTime: string | null;
  readonly studyDescription: string | null;
  readonly seriesDate: string | null;
  readonly seriesTime: string | null;
  readonly seriesDescription: string | null;
  readonly modality: string | null;
  readonly manufacturer: string | null;
  readonly institutionName: string | null;
  readonly referringPhysicianName: string | null;
  readonly accessionNumber: string | null;
  readonly studyId: string | null;
  readonly seriesNumber: number | null;
  readonly instanceNumber: number | null;
  readonly bodyPartExamined: string | null;
  /** Number of Frames (0028,0008), 1 for single-frame pixel data, 0 without pixel data. */
  readonly numberOfFrames: number;
  readonly rows: number | null;
  readonly columns: number | null;
}

export interface ParsedInstance {
  readonly transferSyntaxUid: string;
  readonly transferSyntax: TransferSyntaxInfo;
  /** 128-byte preamble and "DICM" present (PS3.10 §7.1). */
  readonly hasPreamble: boolean;
  readonly hasFileMeta: boolean;
  /** No file meta: the encoding was recognised from the first element. */
  readonly isTransferSyntaxDetected: boolean;
  readonly sopClassUid: string;
  readonly sopInstanceUid: string;
  readonly studyInstanceUid: string;
  readonly seriesInstanceUid: string;
  readonly specificCharacterSet: readonly string[];
  readonly index: InstanceIndexRecord;
  /** Null for objects without rows/columns (SR, waveforms, …). */
  readonly image: ImagePixelDescription | null;
  readonly pixelData: PixelDataInfo | null;
  /** File Meta Information elements (group 0002), explicit VR little endian; null without a file meta. */
  readonly meta: DataSet | null;
  /** The data set, parsed up to the pixel data element (included as header only). */
  readonly dataSet: DataSet;
  /** The bytes `dataSet` points into: the input, or the inflated data set for a deflated syntax. */
  readonly datasetBytes: Uint8Array;
  /** Offset of the data set's first element in `datasetBytes`. */
  readonly datasetOffset: number;
  readonly warnings: readonly string[];
}

export interface ParseInstanceOptions {
  /**
   * Refuse objects without SOP Instance, SOP Class, Study Instance and Series Instance UIDs
   * (default true: nothing can be stored or queried without them).
   */
  readonly requireUids?: boolean;
}

const VALID_VRS = new Set(
  'AE AS AT CS DA DS DT FD FL IS LO LT OB OD OF OL OV OW PN SH SL SQ SS ST SV TM UC UI UL UN UR US UT UV'.split(
    ' ',
  ),
);
const LONG_LENGTH_VRS = new Set([
  'OB',
  'OD',
  'OF',
  'OL',
  'OV',
  'OW',
  'SQ',
  'UC',
  'UN',
  'UR',
  'UT',
  'SV',
  'UV',
]);

const le = dicomParser.littleEndianByteArrayParser;
const be = dicomParser.bigEndianByteArrayParser;

function ascii(bytes: Uint8Array, start: number, length: number): string {
  let out = '';
  for (let i = start; i < start + length && i < bytes.length; i++)
    out += String.fromCharCode(bytes[i] as number);
  return out;
}

function isVrAt(bytes: Uint8Array, offset: number): boolean {
  return offset + 2 <= bytes.length && VALID_VRS.has(ascii(bytes, offset, 2));
}

interface MetaResult {
  readonly meta: DataSet;
  readonly end: number;
  readonly transferSyntaxUid: string | undefined;
}

/** PS3.10 §7.1: group 0002, always explicit VR little endian. Walked by hand to report truncation precisely. */
function readFileMeta(bytes: Uint8Array, start: number): MetaResult {
  const elements: Record<string, Element> = {};
  let position = start;
  while (position + 4 <= bytes.length && le.readUint16(bytes, position) === 0x0002) {
    const element = le.readUint16(bytes, position + 2);
    const key = `x0002${element.toString(16).padStart(4, '0')}`;
    if (position + 8 > bytes.length) break;
    if (!isVrAt(bytes, position + 4)) {
      throw new DicomParseError(
        'NOT_DICOM',
        `File meta element ${key} has no valid VR: not a DICOM file meta group`,
      );
    }
    const vr = ascii(bytes, position + 4, 2);
    let length: number;
    let dataOffset: number;
    if (LONG_LENGTH_VRS.has(vr)) {
      if (position + 12 > bytes.length) {
        throw new DicomParseError('TRUNCATED_FILE_META', `File meta ends inside the header of ${key}`);
      }
      length = le.readUint32(bytes, position + 8);
      dataOffset = position + 12;
    } else {
      length = le.readUint16(bytes, position + 6);
      dataOffset = position + 8;
    }
    if (length === 0xffffffff || dataOffset + length > bytes.length) {
      throw new DicomParseError(
        'TRUNCATED_FILE_META',
        `File meta element (0002,${key.slice(5).toUpperCase()}) declares ${length} bytes but the file ends ${bytes.length - dataOffset} bytes later`,
      );
    }
    elements[key] = { tag: key, vr, length, dataOffset };
    position = dataOffset + length;
  }
  if (position + 4 > bytes.length) {
    throw new DicomParseError(
      'TRUNCATED_FILE_META',
      'The file ends inside or right after the file meta group: no data set',
    );
  }
  const meta = new DataSetCtor(le, bytes, elements);
  const transferSyntaxUid = meta.string('x00020010')?.replace(/\0/g, '').trim() || undefined;
  return { meta, end: position, transferSyntaxUid };
}

/**
 * A bare data set (no preamble, no meta): PS3.10 allows no such file, but modalities and old
 * archives write them. Recognised from the first element: an even group below the pixel data,
 * then either a VR (explicit) or a 32-bit length that fits (implicit). Big endian is tried too.
 */
function detectBareEncoding(bytes: Uint8Array, totalLength = bytes.length): string | undefined {
  if (bytes.length < 8) return undefined;
  const plausible = (group: number): boolean => group % 2 === 0 && group >= 0x0002 && group <= 0x7fe0;
  const groupLe = le.readUint16(bytes, 0);
  if (plausible(groupLe)) {
    if (isVrAt(bytes, 4)) return TRANSFER_SYNTAX.explicitVrLittleEndian;
    const length = le.readUint32(bytes, 4);
    if (length === 0xffffffff || 8 + length <= totalLength) return TRANSFER_SYNTAX.implicitVrLittleEndian;
  }
  const groupBe = be.readUint16(bytes, 0);
  if (plausible(groupBe) && isVrAt(bytes, 4)) return TRANSFER_SYNTAX.explicitVrBigEndian;
  return undefined;
}

function inflateDataset(bytes: Uint8Array, start: number): Uint8Array {
  const deflated = bytes.subarray(start);
  try {
    return new Uint8Array(inflateRawSync(deflated));
  } catch (rawError) {
    try {
      // Some writers wrap the stream in a zlib header, which PS3.5 §A.5 does not allow.
      return new Uint8Array(inflateSync(deflated));
    } catch {
      throw new DicomParseError('DEFLATE_FAILED', 'The deflated data set cannot be inflated', {
        cause: rawError,
      });
    }
  }
}

function describeThrown(error: unknown): string {
  if (typeof error === 'string') return error;
  if (error instanceof Error) return error.message;
  return String(error);
}

interface DatasetWalk {
  readonly dataSet: DataSet;
  readonly pixelElement: Element | undefined;
}

function walkDataset(
  bytes: Uint8Array,
  offset: number,
  syntax: TransferSyntaxInfo,
  warnings: string[],
): DatasetWalk {
  const parser = syntax.isBigEndian ? be : le;
  const elements: Record<string, Element> = {};
  const dataSet = new DataSetCtor(parser, bytes, elements);
  const stream = new dicomParser.ByteStream(parser, bytes, offset);
  const vrCallback = syntax.isExplicitVr ? undefined : implicitVrCallback;
  let pixelElement: Element | undefined;
  let lastTag = -1;
  while (stream.position < bytes.length) {
    const remaining = bytes.length - stream.position;
    if (remaining < 8) {
      // Trailing padding bytes after the last element are common; anything else is a cut file.
      if (bytes.subarray(stream.position).every((b) => b === 0)) break;
      throw new DicomParseError(
        'TRUNCATED_DATASET',
        `The data set ends inside an element header at byte ${stream.position}`,
      );
    }
    const group = parser.readUint16(bytes, stream.position);
    const elementNumber = parser.readUint16(bytes, stream.position + 2);
    const tag = ((group << 16) | elementNumber) >>> 0;
    if (tag < lastTag) {
      warnings.push(`Element (${group.toString(16)},${elementNumber.toString(16)}) out of order`);
    }
    lastTag = tag;
    const key = `x${tag.toString(16).padStart(8, '0')}`;
    if (group === 0xfffc && elementNumber === 0xfffc) break; // Data Set Trailing Padding
    const isPixel = PIXEL_TAGS.has(key);
    const untilTag = isPixel ? key : undefined;
    const element =
      syntax.isBigEndian && syntax.isExplicitVr
        ? readBigEndianElement(bytes, stream, warnings, untilTag)
        : syntax.isExplicitVr
          ? dicomParser.readDicomElementExplicit(stream, warnings, untilTag)
          : dicomParser.readDicomElementImplicit(stream, untilTag, vrCallback);
    elements[element.tag] = element;
    if (isPixel) {
      pixelElement = element;
      break;
    }
    if (stream.position > bytes.length) {
      throw new DicomParseError(
        'TRUNCATED_DATASET',
        `Element (${group.toString(16).padStart(4, '0')},${elementNumber.toString(16).padStart(4, '0')}) declares ${element.length} bytes but the file ends first`,
      );
    }
  }
  if (warnings.some((w) => /eof encountered/i.test(w))) {
    throw new DicomParseError(
      'TRUNCATED_DATASET',
      `The data set ends inside a sequence (${warnings.join('; ')})`,
    );
  }
  return { dataSet, pixelElement };
}

/**
 * One element of an explicit VR big endian data set, at any depth. PS3.5 §6.2.2 (CP-246): a UN
 * element of undefined length holds a sequence encoded in implicit VR little endian whatever the
 * transfer syntax; dicom-parser reads it with the data set's (big endian) parser and fails
 * ('item tag (FFFE,E000) not found'), DCMTK reads it. Sequences are walked here, so that such a UN
 * inside an item is seen as well as one at the top; every other element is dicom-parser's.
 */
function readBigEndianElement(
  bytes: Uint8Array,
  stream: InstanceType<typeof dicomParser.ByteStream>,
  warnings: string[],
  untilTag?: string,
): Element {
  const at = stream.position;
  if (at + 12 <= bytes.length) {
    const vr = ascii(bytes, at + 4, 2);
    const key = `x${be.readUint16(bytes, at).toString(16).padStart(4, '0')}${be
      .readUint16(bytes, at + 2)
      .toString(16)
      .padStart(4, '0')}`;
    if (vr === 'UN' && be.readUint32(bytes, at + 8) === 0xffffffff) {
      return readUndefinedLengthUn(bytes, stream, key);
    }
    if (vr === 'SQ') return readBigEndianSequence(bytes, stream, warnings, key);
  }
  return dicomParser.readDicomElementExplicit(stream, warnings, untilTag);
}

/** A big endian sequence (defined or undefined length, items likewise), its items' elements read by readBigEndianElement. */
function readBigEndianSequence(
  bytes: Uint8Array,
  stream: InstanceType<typeof dicomParser.ByteStream>,
  warnings: string[],
  key: string,
): Element {
  const length = be.readUint32(bytes, stream.position + 8);
  stream.seek(12);
  const undefinedLength = length === 0xffffffff;
  const element: Element = { tag: key, vr: 'SQ', length, dataOffset: stream.position, items: [] };
  if (undefinedLength) element.hadUndefinedLength = true;
  const end = undefinedLength ? bytes.length : Math.min(bytes.length, stream.position + length);
  // As dicom-parser says it, so that walkDataset calls a file cut inside a sequence truncated.
  let delimited = !undefinedLength;
  while (stream.position + 8 <= end) {
    const group = be.readUint16(bytes, stream.position);
    const number = be.readUint16(bytes, stream.position + 2);
    const itemLength = be.readUint32(bytes, stream.position + 4);
    if (group !== 0xfffe || (number !== 0xe000 && number !== 0xe0dd)) {
      throw new DicomParseError(
        'MALFORMED_DATASET',
        `Sequence ${key} holds no item tag (FFFE,E000) at byte ${stream.position}`,
      );
    }
    stream.seek(8);
    if (number === 0xe0dd) {
      delimited = true;
      break;
    }
    const itemElements: Record<string, Element> = {};
    const item: Element = {
      tag: 'xfffee000',
      length: itemLength,
      dataOffset: stream.position,
      dataSet: new DataSetCtor(be, bytes, itemElements),
    };
    const itemEnd = itemLength === 0xffffffff ? end : Math.min(end, stream.position + itemLength);
    if (itemLength === 0xffffffff) item.hadUndefinedLength = true;
    let itemDelimited = itemLength !== 0xffffffff;
    while (stream.position + 8 <= itemEnd) {
      if (
        be.readUint16(bytes, stream.position) === 0xfffe &&
        be.readUint16(bytes, stream.position + 2) === 0xe00d
      ) {
        stream.seek(8); // item delimiter
        itemDelimited = true;
        break;
      }
      const inner = readBigEndianElement(bytes, stream, warnings);
      itemElements[inner.tag] = inner;
    }
    if (!itemDelimited) warnings.push(`eof encountered before finding item delimiter in ${key}`);
    if (itemLength !== 0xffffffff) item.length = stream.position - item.dataOffset;
    element.items!.push(item);
  }
  if (!delimited) warnings.push(`eof encountered before finding sequence delimiter in ${key}`);
  if (undefinedLength) element.length = stream.position - element.dataOffset;
  return element;
}

function readUndefinedLengthUn(
  bytes: Uint8Array,
  stream: InstanceType<typeof dicomParser.ByteStream>,
  key: string,
): Element {
  const dataOffset = stream.position + 12;
  const element: Element = { tag: key, vr: 'UN', length: 0xffffffff, dataOffset, hadUndefinedLength: true };
  const littleEndian = new dicomParser.ByteStream(le, bytes, dataOffset);
  dicomParser.readSequenceItemsImplicit(littleEndian, element, implicitVrCallback);
  // The items' data sets read their values little endian; the walk goes on in big endian.
  stream.seek(littleEndian.position - stream.position);
  return element;
}

function implicitVrCallback(tag: string): string {
  // Pixel-representation dependent VRs only matter for values; SQ detection is what the walk needs.
  // Unknown (private) tags get undefined, which makes dicom-parser peek for an item tag instead.
  return resolveImplicitVr(tagFromParserKey(tag)) as string;
}

const ITEM = 0xfffee000;
const SEQUENCE_DELIMITER = 0xfffee0dd;

function scanEncapsulated(bytes: Uint8Array, start: number, warnings: string[]) {
  const fragments: PixelDataFragment[] = [];
  let basicOffsetTable: number[] = [];
  let position = start;
  let isFirst = true;
  let isComplete = false;
  while (position + 8 <= bytes.length) {
    const tag = ((le.readUint16(bytes, position) << 16) | le.readUint16(bytes, position + 2)) >>> 0;
    const length = le.readUint32(bytes, position + 4);
    if (tag === SEQUENCE_DELIMITER) {
      position += 8;
      isComplete = true;
      break;
    }
    if (tag !== ITEM) {
      warnings.push(`Unexpected tag ${tag.toString(16)} inside encapsulated pixel data at byte ${position}`);
      break;
    }
    const dataOffset = position + 8;
    const available = Math.min(length, bytes.length - dataOffset);
    if (isFirst) {
      const table: number[] = [];
      for (let i = 0; i + 4 <= available; i += 4) table.push(le.readUint32(bytes, dataOffset + i));
      basicOffsetTable = table;
      isFirst = false;
    } else {
      fragments.push({ offset: dataOffset, length: available });
    }
    if (available < length) {
      position = bytes.length;
      break;
    }
    position = dataOffset + length;
  }
  return { fragments, basicOffsetTable, isComplete, end: Math.min(position, bytes.length) };
}

function locatePixelData(
  bytes: Uint8Array,
  element: Element,
  syntax: TransferSyntaxInfo,
  warnings: string[],
): PixelDataInfo {
  const tag = element.tag as PixelDataTag;
  const isEncapsulated = element.length === 0xffffffff;
  const vr = element.vr ?? (tag === 'x7fe00010' ? 'OW' : tag === 'x7fe00008' ? 'OF' : 'OD');
  if (isEncapsulated) {
    const scan = scanEncapsulated(bytes, element.dataOffset, warnings);
    return {
      tag,
      vr: element.vr ?? 'OB',
      offset: element.dataOffset,
      length: scan.end - element.dataOffset,
      isEncapsulated: true,
      isComplete: scan.isComplete,
      basicOffsetTable: scan.basicOffsetTable,
      fragments: scan.fragments,
      isInInflatedDataset: syntax.isDeflated,
    };
  }
  if (syntax.isEncapsulated && tag === 'x7fe00010') {
    warnings.push('Native (defined length) Pixel Data in an encapsulated transfer syntax');
  }
  return {
    tag,
    vr,
    offset: element.dataOffset,
    length: element.length,
    isEncapsulated: false,
    isComplete: element.dataOffset + element.length <= bytes.length,
    basicOffsetTable: [],
    fragments: [],
    isInInflatedDataset: syntax.isDeflated,
  };
}

const TEXT_VRS = new Set(['SH', 'LO', 'ST', 'LT', 'UT', 'UC', 'PN']);

/** Value bytes of an element, without trailing padding (spaces and NULs). */
function valueBytes(dataSet: DataSet, element: Element): Uint8Array {
  const bytes = dataSet.byteArray as Uint8Array;
  const end = Math.min(element.dataOffset + element.length, bytes.length);
  let last = end;
  while (last > element.dataOffset && (bytes[last - 1] === 0x20 || bytes[last - 1] === 0)) last--;
  return bytes.subarray(element.dataOffset, last);
}

/** A string value (whole, all values with their backslashes) decoded with the data set's character set. */
export function readText(dataSet: DataSet, tag: string, decoder: CharsetDecoder, vr?: string): string | null {
  const element = dataSet.elements[tag];
  if (!element || element.length === 0 || element.length === 0xffffffff) return null;
  const effectiveVr = element.vr ?? vr;
  const raw = valueBytes(dataSet, element);
  const isText = effectiveVr === undefined || TEXT_VRS.has(effectiveVr);
  const text = isText ? decoder.decode(raw, effectiveVr === 'PN') : decoder.decode(raw);
  let trimmed = effectiveVr === 'ST' || effectiveVr === 'LT' || effectiveVr === 'UT' ? text : text.trim();
  // PS3.5 §6.2.1.1: trailing empty component groups carry nothing ('Wang^XiaoDong=王^小東=').
  if (effectiveVr === 'PN') trimmed = trimmed.replace(/=+$/, '');
  return trimmed === '' ? null : trimmed;
}

function readUid(dataSet: DataSet | null, tag: string): string | null {
  const element = dataSet?.elements[tag];
  if (!dataSet || !element || element.length === 0) return null;
  const value = ascii(dataSet.byteArray as Uint8Array, element.dataOffset, element.length)
    .replace(/[\0 ]+$/g, '')
    .trim();
  return value === '' ? null : value;
}

function readIntString(dataSet: DataSet, tag: string): number | null {
  const element = dataSet.elements[tag];
  if (!element || element.length === 0) return null;
  const text =
    ascii(dataSet.byteArray as Uint8Array, element.dataOffset, element.length)
      .split('\\')[0]
      ?.trim() ?? '';
  if (text === '') return null;
  const value = Number(text);
  return Number.isFinite(value) ? Math.trunc(value) : null;
}

function readUs(dataSet: DataSet, tag: string): number | null {
  const element = dataSet.elements[tag];
  if (!element || element.length < 2) return null;
  return dataSet.byteArrayParser.readUint16(dataSet.byteArray, element.dataOffset);
}

function readCharsets(dataSet: DataSet): string[] {
  const element = dataSet.elements['x00080005'];
  if (!element || element.length === 0) return [];
  return ascii(dataSet.byteArray as Uint8Array, element.dataOffset, element.length)
    .replace(/[\0]+$/g, '')
    .split('\\')
    .map((term) => term.trim());
}

function describeImage(dataSet: DataSet, hasPixelData: boolean): ImagePixelDescription | null {
  const rows = readUs(dataSet, 'x00280010');
  const columns = readUs(dataSet, 'x00280011');
  if (rows === null || columns === null) return null;
  const frames = readIntString(dataSet, 'x00280008');
  return {
    rows,
    columns,
    samplesPerPixel: readUs(dataSet, 'x00280002') ?? 1,
    bitsAllocated: readUs(dataSet, 'x00280100'),
    bitsStored: readUs(dataSet, 'x00280101'),
    pixelRepresentation: readUs(dataSet, 'x00280103'),
    photometricInterpretation: readUid(dataSet, 'x00280004'),
    planarConfiguration: readUs(dataSet, 'x00280006'),
    numberOfFrames: frames !== null && frames > 0 ? frames : hasPixelData ? 1 : 0,
  };
}

function buildIndex(
  dataSet: DataSet,
  decoder: CharsetDecoder,
  image: ImagePixelDescription | null,
  hasPixelData: boolean,
): InstanceIndexRecord {
  const text = (tag: string, vr: string) => readText(dataSet, tag, decoder, vr);
  const frames = readIntString(dataSet, 'x00280008');
  return {
    patientName: text('x00100010', 'PN'),
    patientId: text('x00100020', 'LO'),
    issuerOfPatientId: text('x00100021', 'LO'),
    patientSex: text('x00100040', 'CS'),
    patientAge: text('x00101010', 'AS'),
    patientBirthDate: text('x00100030', 'DA'),
    studyDate: text('x00080020', 'DA'),
    studyTime: text('x00080030', 'TM'),
    studyDescription: text('x00081030', 'LO'),
    seriesDate: text('x00080021', 'DA'),
    seriesTime: text('x00080031', 'TM'),
    seriesDescription: text('x0008103e', 'LO'),
    modality: text('x00080060', 'CS'),
    manufacturer: text('x00080070', 'LO'),
    institutionName: text('x00080080', 'LO'),
    referringPhysicianName: text('x00080090', 'PN'),
    accessionNumber: text('x00080050', 'SH'),
    studyId: text('x00200010', 'SH'),
    seriesNumber: readIntString(dataSet, 'x00200011'),
    instanceNumber: readIntString(dataSet, 'x00200013'),
    bodyPartExamined: text('x00180015', 'CS'),
    numberOfFrames: image?.numberOfFrames ?? (frames !== null && frames > 0 ? frames : hasPixelData ? 1 : 0),
    rows: image?.rows ?? null,
    columns: image?.columns ?? null,
  };
}

interface Located {
  readonly hasPreamble: boolean;
  readonly meta: MetaResult | null;
  readonly datasetStart: number;
  readonly transferSyntaxUid: string;
  readonly isDetected: boolean;
}

function locate(bytes: Uint8Array): Located {
  if (bytes.length === 0) throw new DicomParseError('EMPTY', 'The file is empty (0 bytes)');
  const hasPreamble = bytes.length >= 132 && ascii(bytes, 128, 4) === 'DICM';
  const hasBarePrefix = !hasPreamble && bytes.length >= 4 && ascii(bytes, 0, 4) === 'DICM';
  const metaStart = hasPreamble ? 132 : hasBarePrefix ? 4 : 0;
  const startsWithMeta = metaStart + 4 <= bytes.length && le.readUint16(bytes, metaStart) === 0x0002;
  if (hasPreamble || hasBarePrefix || startsWithMeta) {
    if (!startsWithMeta) {
      throw new DicomParseError(
        bytes.length < metaStart + 8 ? 'TRUNCATED_FILE_META' : 'MISSING_TRANSFER_SYNTAX',
        'The "DICM" prefix is not followed by a File Meta Information group (0002,xxxx)',
      );
    }
    const meta = readFileMeta(bytes, metaStart);
    if (!meta.transferSyntaxUid) {
      throw new DicomParseError(
        'MISSING_TRANSFER_SYNTAX',
        'The File Meta Information has no Transfer Syntax UID (0002,0010), so the data set cannot be read reliably',
      );
    }
    return {
      hasPreamble,
      meta,
      datasetStart: meta.end,
      transferSyntaxUid: meta.transferSyntaxUid,
      isDetected: false,
    };
  }
  const detected = detectBareEncoding(bytes);
  if (!detected) {
    throw new DicomParseError(
      'NOT_DICOM',
      bytes.length < 8
        ? `Not DICOM: only ${bytes.length} bytes`
        : 'Not DICOM: no "DICM" prefix at byte 128 and the first bytes are not a DICOM data element',
    );
  }
  return { hasPreamble: false, meta: null, datasetStart: 0, transferSyntaxUid: detected, isDetected: true };
}

/** How many first bytes of a file {@link looksLikeDicom} needs: the preamble and "DICM". */
export const DICOM_HEAD_BYTES = 132;

/**
 * Whether a file whose first bytes are `head` (at least {@link DICOM_HEAD_BYTES} of them, or the
 * whole file) and whose size is `totalLength` starts the way {@link parseInstance} accepts: "DICM"
 * at 128 or at 0, a File Meta group (0002) at 0, or a bare data set's first element. For deciding
 * before the rest of a file is read or unpacked (zip entries); the parse still has the last word.
 */
export function looksLikeDicom(head: Uint8Array, totalLength: number): boolean {
  if (head.length >= 132 && ascii(head, 128, 4) === 'DICM') return true;
  if (head.length >= 4 && (ascii(head, 0, 4) === 'DICM' || le.readUint16(head, 0) === 0x0002)) return true;
  return detectBareEncoding(head, totalLength) !== undefined;
}

/** Where the data set of a file starts, as the file stores it (before any inflating). */
export interface DatasetLocation {
  /** Declared in the file meta, or recognised from the first element of a bare data set. */
  readonly transferSyntaxUid: string;
  /** Offset of the data set in the file: after the file meta, or 0 for a bare data set. */
  readonly datasetStart: number;
  readonly hasPreamble: boolean;
  readonly hasFileMeta: boolean;
  readonly isTransferSyntaxDetected: boolean;
}

/**
 * Finds the stored data set of a PS3.10 file or bare data set without parsing it (for sending
 * the bytes as they are, e.g. over DIMSE). Throws {@link DicomParseError} like {@link parseInstance}.
 */
export function locateDataset(bytes: Uint8Array): DatasetLocation {
  const located = locate(bytes);
  return {
    transferSyntaxUid: located.transferSyntaxUid,
    datasetStart: located.datasetStart,
    hasPreamble: located.hasPreamble,
    hasFileMeta: located.meta !== null,
    isTransferSyntaxDetected: located.isDetected,
  };
}

/**
 * Real-world writers sometimes declare explicit VR little endian in the file meta and write the
 * data set implicit (or the reverse). The first element tells: read it the way it is written.
 */
function checkVrEncoding(
  bytes: Uint8Array,
  offset: number,
  syntax: TransferSyntaxInfo,
  warnings: string[],
): TransferSyntaxInfo {
  if (syntax.isBigEndian || offset + 8 > bytes.length) return syntax;
  const hasVr = isVrAt(bytes, offset + 4);
  if (syntax.isExplicitVr && !hasVr) {
    const length = le.readUint32(bytes, offset + 4);
    if (length !== 0xffffffff && offset + 8 + length > bytes.length) return syntax;
    warnings.push(`${syntax.name} declared but the data set is encoded with implicit VR`);
    return { ...syntax, isExplicitVr: false };
  }
  if (!syntax.isExplicitVr && hasVr) {
    warnings.push(`${syntax.name} declared but the data set is encoded with explicit VR`);
    return { ...syntax, isExplicitVr: true };
  }
  return syntax;
}

/**
 * Parses a DICOM instance (PS3.10 file or bare PS3.5 data set) up to its pixel data and returns
 * the identifying UIDs, the index record and where the pixel data lies.
 *
 * Throws {@link DicomParseError} for input that is not a usable DICOM instance. A file cut inside
 * its pixel data parses: `pixelData.isComplete` is then false (see {@link assertIngestable}).
 */
export function parseInstance(bytes: Uint8Array, options: ParseInstanceOptions = {}): ParsedInstance {
  const located = locate(bytes);
  const warnings: string[] = [];
  const declared = describeTransferSyntax(located.transferSyntaxUid);
  const datasetBytes = declared.isDeflated ? inflateDataset(bytes, located.datasetStart) : bytes;
  const datasetOffset = declared.isDeflated ? 0 : located.datasetStart;
  const transferSyntax = checkVrEncoding(datasetBytes, datasetOffset, declared, warnings);

  let walk: DatasetWalk;
  try {
    walk = walkDataset(datasetBytes, datasetOffset, transferSyntax, warnings);
  } catch (error) {
    if (located.isDetected) {
      throw new DicomParseError(
        'NOT_DICOM',
        `Not DICOM: no file meta and the bytes do not parse as a data set (${describeThrown(error)})`,
        {
          cause: error,
        },
      );
    }
    if (error instanceof DicomParseError) throw error;
    const message = describeThrown(error);
    const code = /overrun|beyond|past end|eof|outside|out of range/i.test(message)
      ? 'TRUNCATED_DATASET'
      : 'MALFORMED_DATASET';
    throw new DicomParseError(code, `The data set cannot be read: ${message}`, { cause: error });
  }
  const { dataSet, pixelElement } = walk;

  const meta = located.meta?.meta ?? null;
  const specificCharacterSet = readCharsets(dataSet);
  const decoder = createCharsetDecoder(specificCharacterSet);
  const pixelData = pixelElement
    ? locatePixelData(datasetBytes, pixelElement, transferSyntax, warnings)
    : null;
  const image = describeImage(dataSet, pixelData !== null);

  const sopClassUid = readUid(dataSet, 'x00080016') ?? readUid(meta, 'x00020002');
  const sopInstanceUid = readUid(dataSet, 'x00080018') ?? readUid(meta, 'x00020003');
  const studyInstanceUid = readUid(dataSet, 'x0020000d');
  const seriesInstanceUid = readUid(dataSet, 'x0020000e');
  const missing = [
    sopClassUid ? null : 'SOP Class UID (0008,0016)',
    sopInstanceUid ? null : 'SOP Instance UID (0008,0018)',
    studyInstanceUid ? null : 'Study Instance UID (0020,000D)',
    seriesInstanceUid ? null : 'Series Instance UID (0020,000E)',
  ].filter((name): name is string => name !== null);
  if (located.isDetected && !sopInstanceUid && !sopClassUid && !studyInstanceUid) {
    throw new DicomParseError('NOT_DICOM', 'Not DICOM: no file meta and no identifying DICOM elements');
  }
  if (missing.length > 0 && options.requireUids !== false) {
    throw new DicomParseError('MISSING_UID', `Missing required ${missing.join(', ')}`);
  }

  return {
    transferSyntaxUid: located.transferSyntaxUid,
    transferSyntax,
    hasPreamble: located.hasPreamble,
    hasFileMeta: located.meta !== null,
    isTransferSyntaxDetected: located.isDetected,
    sopClassUid: sopClassUid ?? '',
    sopInstanceUid: sopInstanceUid ?? '',
    studyInstanceUid: studyInstanceUid ?? '',
    seriesInstanceUid: seriesInstanceUid ?? '',
    specificCharacterSet,
    index: buildIndex(dataSet, decoder, image, pixelData !== null),
    image,
    pixelData,
    meta,
    dataSet,
    datasetBytes,
    datasetOffset,
    warnings,
  };
}

/**
 * The ingest rules on top of parsing, for every way in: an instance is refused when its data set
 * is not in the VR encoding its transfer syntax says, when a Study, Series or SOP Instance UID is
 * outside the UID grammar (`dicomUidProblem` of @radflow/core), or when its pixel data is cut short
 * (the corpus's truncated files must be rejected with a clear reason, PS3.5 §7.1.1 value lengths).
 */
export function assertIngestable(parsed: ParsedInstance): void {
  // The stored file must be readable by anyone as its transfer syntax says: a data set in the
  // other VR encoding (implicit VR sent on an explicit VR context) is read here, not by others.
  const declared = describeTransferSyntax(parsed.transferSyntaxUid);
  if (!parsed.isTransferSyntaxDetected && declared.isExplicitVr !== parsed.transferSyntax.isExplicitVr) {
    throw new DicomParseError(
      'TRANSFER_SYNTAX_MISMATCH',
      parsed.transferSyntax.isExplicitVr
        ? 'Data set is explicit VR; transfer syntax says implicit VR'
        : 'Data set is implicit VR; transfer syntax says explicit VR',
    );
  }
  const uids = [
    ['Study Instance UID', parsed.studyInstanceUid],
    ['Series Instance UID', parsed.seriesInstanceUid],
    ['SOP Instance UID', parsed.sopInstanceUid],
  ] as const;
  for (const [name, uid] of uids) {
    const problem = dicomUidProblem(uid);
    if (problem) throw new DicomParseError('INVALID_UID', `Invalid ${name}: ${problem}`);
  }
  const pixelData = parsed.pixelData;
  if (pixelData && !pixelData.isComplete) {
    const available = Math.max(0, parsed.datasetBytes.length - pixelData.offset);
    throw new DicomParseError(
      'PIXEL_DATA_TRUNCATED',
      pixelData.isEncapsulated
        ? `Encapsulated Pixel Data is cut short: no sequence delimiter before the end of the file (${pixelData.fragments.length} fragments read)`
        : `Pixel Data declares ${pixelData.length} bytes but only ${available} are present`,
    );
  }
}
