/**
 * C-FIND pending responses written by us (PS3.7 §9.3.2.2, PS3.8 §9.3.5): the identifier encoded
 * straight from PS3.18 JSON in the accepted uncompressed little endian syntax, and the command and
 * data set as P-DATA-TF PDUs within the peer's maximum PDU length. dcmjs-dimse's own path costs
 * ~5 ms of CPU per response (a data set through dcmjs and 256 KB write buffers), which made a
 * worklist of 500 procedures take seconds; this is a few microseconds each. A data set it cannot
 * encode (binary VRs with values, bulk data) returns null: that response goes dcmjs-dimse's way.
 */
import type { DicomJsonDataset, DicomJsonElement } from '../dicom-json.js';

export const IMPLICIT_LITTLE_ENDIAN = '1.2.840.10008.1.2';
export const EXPLICIT_LITTLE_ENDIAN = '1.2.840.10008.1.2.1';

const P_DATA_TF = 0x04;
const C_FIND_RSP = 0x8020;
const DATA_SET_PRESENT = 0x0000;

/** Explicit VR: these have 2 reserved bytes and a 4-byte length (PS3.5 Table 7.1-1). */
const LONG_VRS = new Set(['OB', 'OD', 'OF', 'OL', 'OV', 'OW', 'SQ', 'SV', 'UC', 'UN', 'UR', 'UT', 'UV']);
const TEXT_VRS = new Set([
  ...['AE', 'AS', 'CS', 'DA', 'DS', 'DT', 'IS', 'LO', 'LT', 'PN', 'SH', 'ST', 'TM', 'UC', 'UI', 'UR', 'UT'],
]);

class NotEncodable extends Error {}

function textValue(element: DicomJsonElement): Buffer {
  const values = (element.Value ?? []).map((value) => {
    if (value === null || value === undefined) return '';
    if (typeof value === 'object') {
      if (element.vr !== 'PN') throw new NotEncodable();
      const name = value as { Alphabetic?: string; Ideographic?: string; Phonetic?: string };
      return [name.Alphabetic ?? '', name.Ideographic ?? '', name.Phonetic ?? '']
        .join('=')
        .replace(/=+$/, '');
    }
    return String(value);
  });
  const bytes = Buffer.from(values.join('\\'), 'utf8');
  if (bytes.length % 2 === 0) return bytes;
  return Buffer.concat([bytes, Buffer.from([element.vr === 'UI' ? 0 : 0x20])]);
}

function binaryValue(element: DicomJsonElement): Buffer {
  const values = (element.Value ?? []) as unknown[];
  const size = element.vr === 'US' || element.vr === 'SS' ? 2 : 4;
  const bytes = Buffer.alloc(values.length * size);
  values.forEach((value, i) => {
    if (typeof value !== 'number') throw new NotEncodable();
    if (element.vr === 'US') bytes.writeUInt16LE(value, i * 2);
    else if (element.vr === 'SS') bytes.writeInt16LE(value, i * 2);
    else if (element.vr === 'UL') bytes.writeUInt32LE(value, i * 4);
    else bytes.writeInt32LE(value, i * 4);
  });
  return bytes;
}

function header(tag: string, vr: string, length: number, explicit: boolean): Buffer {
  const group = parseInt(tag.slice(0, 4), 16);
  const element = parseInt(tag.slice(4, 8), 16);
  if (!explicit) {
    const head = Buffer.allocUnsafe(8);
    head.writeUInt16LE(group, 0);
    head.writeUInt16LE(element, 2);
    head.writeUInt32LE(length >>> 0, 4);
    return head;
  }
  if (LONG_VRS.has(vr)) {
    const head = Buffer.alloc(12);
    head.writeUInt16LE(group, 0);
    head.writeUInt16LE(element, 2);
    head.write(vr, 4, 'latin1');
    head.writeUInt32LE(length >>> 0, 8);
    return head;
  }
  if (length > 0xffff) throw new NotEncodable();
  const head = Buffer.allocUnsafe(8);
  head.writeUInt16LE(group, 0);
  head.writeUInt16LE(element, 2);
  head.write(vr, 4, 'latin1');
  head.writeUInt16LE(length, 6);
  return head;
}

function item(dataset: DicomJsonDataset, explicit: boolean): Buffer {
  const body = encode(dataset, explicit);
  const head = Buffer.allocUnsafe(8);
  head.writeUInt16LE(0xfffe, 0);
  head.writeUInt16LE(0xe000, 2);
  head.writeUInt32LE(body.length, 4);
  return Buffer.concat([head, body]);
}

function encode(dataset: DicomJsonDataset, explicit: boolean): Buffer {
  const parts: Buffer[] = [];
  const byTag = (a: string, b: string) => (a.toUpperCase() < b.toUpperCase() ? -1 : 1);
  for (const tag of Object.keys(dataset).sort(byTag)) {
    if (!/^[0-9A-Fa-f]{8}$/.test(tag)) throw new NotEncodable();
    const element = dataset[tag] as DicomJsonElement & { BulkDataURI?: unknown; InlineBinary?: unknown };
    if (element.BulkDataURI !== undefined || element.InlineBinary !== undefined) throw new NotEncodable();
    const vr = element.vr;
    let value: Buffer;
    if (!element.Value || element.Value.length === 0) value = Buffer.alloc(0);
    else if (vr === 'SQ')
      value = Buffer.concat(element.Value.map((i) => item(i as DicomJsonDataset, explicit)));
    else if (TEXT_VRS.has(vr)) value = textValue(element);
    else if (vr === 'US' || vr === 'SS' || vr === 'UL' || vr === 'SL') value = binaryValue(element);
    else throw new NotEncodable();
    parts.push(header(tag, vr, value.length, explicit), value);
  }
  return Buffer.concat(parts);
}

/**
 * The identifier of a pending response in the accepted syntax (implicit or explicit VR little
 * endian), or null when this encoder does not cover it (another syntax, a binary value, bulk data).
 */
export function encodeFindIdentifier(
  dataset: DicomJsonDataset,
  transferSyntaxUid: string | undefined,
): Buffer | null {
  if (transferSyntaxUid !== IMPLICIT_LITTLE_ENDIAN && transferSyntaxUid !== EXPLICIT_LITTLE_ENDIAN)
    return null;
  try {
    return encode(dataset, transferSyntaxUid === EXPLICIT_LITTLE_ENDIAN);
  } catch (error) {
    if (error instanceof NotEncodable) return null;
    throw error;
  }
}

function commandElement(element: number, value: Buffer): Buffer {
  const head = Buffer.allocUnsafe(8);
  head.writeUInt16LE(0x0000, 0);
  head.writeUInt16LE(element, 2);
  head.writeUInt32LE(value.length, 4);
  return Buffer.concat([head, value]);
}

const us = (n: number) => {
  const b = Buffer.allocUnsafe(2);
  b.writeUInt16LE(n & 0xffff, 0);
  return b;
};

/** The P-DATA-TF PDUs of one value, cut into PDVs that fit the peer's maximum PDU length (0: none). */
function pdvPdus(pcid: number, isCommand: boolean, value: Buffer, maxPduLength: number): Buffer[] {
  // A PDU body of one PDV: 4 (item length) + 1 (context) + 1 (control) + the fragment.
  const room = maxPduLength > 6 ? maxPduLength - 6 : value.length || 1;
  const pdus: Buffer[] = [];
  for (let at = 0; at < value.length || (at === 0 && value.length === 0); at += room) {
    const fragment = value.subarray(at, at + room);
    const last = at + room >= value.length;
    const pdu = Buffer.allocUnsafe(12 + fragment.length);
    pdu.writeUInt8(P_DATA_TF, 0);
    pdu.writeUInt8(0, 1);
    pdu.writeUInt32BE(6 + fragment.length, 2);
    pdu.writeUInt32BE(2 + fragment.length, 6);
    pdu.writeUInt8(pcid, 10);
    pdu.writeUInt8((isCommand ? 0x01 : 0x00) | (last ? 0x02 : 0x00), 11);
    fragment.copy(pdu, 12);
    pdus.push(pdu);
    if (value.length === 0) break;
  }
  return pdus;
}

/**
 * A C-FIND-RSP with its identifier (PS3.7 Table 9.3-4: Affected SOP Class UID, Message ID Being
 * Responded To, Status, a data set) as the bytes to write: the command PDU, then the data set's.
 */
export function cFindPendingResponse(
  pcid: number,
  request: { messageId: number; affectedSopClassUid: string },
  status: number,
  identifier: Buffer,
  maxPduLength: number,
): Buffer {
  const sopClass = Buffer.from(request.affectedSopClassUid, 'latin1');
  const body = Buffer.concat([
    commandElement(
      0x0002,
      sopClass.length % 2 === 0 ? sopClass : Buffer.concat([sopClass, Buffer.from([0])]),
    ),
    commandElement(0x0100, us(C_FIND_RSP)),
    commandElement(0x0120, us(request.messageId)),
    commandElement(0x0800, us(DATA_SET_PRESENT)),
    commandElement(0x0900, us(status)),
  ]);
  const groupLength = Buffer.allocUnsafe(4);
  groupLength.writeUInt32LE(body.length, 0);
  const command = Buffer.concat([commandElement(0x0000, groupLength), body]);
  return Buffer.concat([
    ...pdvPdus(pcid, true, command, maxPduLength),
    ...pdvPdus(pcid, false, identifier, maxPduLength),
  ]);
}
