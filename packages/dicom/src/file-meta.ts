/**
 * Writing a File Meta Information header (PS3.10 §7.1): 128-byte preamble, "DICM", group 0002 in
 * explicit VR little endian. Used to turn a bare data set (a C-STORE payload, a file without
 * meta) into a Part 10 file by putting this header in front of the data set bytes.
 */

/** Radflow's Implementation Class UID (0002,0012), a PS3.5 §B.2 UUID-derived UID. */
export const IMPLEMENTATION_CLASS_UID = '2.25.337322333667244214645930924594984310092';
/** Implementation Version Name (0002,0013), at most 16 characters. */
export const IMPLEMENTATION_VERSION_NAME = 'RADFLOW_1';

export interface FileMetaFields {
  readonly sopClassUid: string;
  readonly sopInstanceUid: string;
  readonly transferSyntaxUid: string;
  /** Source Application Entity Title (0002,0016), e.g. the calling AE of a C-STORE. */
  readonly sourceAeTitle?: string;
}

function encodeAscii(text: string, pad: number): Uint8Array {
  const length = text.length + (text.length % 2);
  const out = new Uint8Array(length).fill(pad);
  for (let i = 0; i < text.length; i++) out[i] = text.charCodeAt(i) & 0x7f;
  return out;
}

function element(group: number, elementNumber: number, vr: string, value: Uint8Array): Uint8Array {
  const isLong = vr === 'OB';
  const header = new Uint8Array(isLong ? 12 : 8);
  const view = new DataView(header.buffer);
  view.setUint16(0, group, true);
  view.setUint16(2, elementNumber, true);
  header[4] = vr.charCodeAt(0);
  header[5] = vr.charCodeAt(1);
  if (isLong) view.setUint32(8, value.length, true);
  else view.setUint16(6, value.length, true);
  const out = new Uint8Array(header.length + value.length);
  out.set(header, 0);
  out.set(value, header.length);
  return out;
}

/** Preamble, "DICM" and the file meta group for a data set in `transferSyntaxUid`. */
export function createFileMetaHeader(fields: FileMetaFields): Uint8Array {
  const ui = (text: string) => encodeAscii(text, 0x00);
  const parts = [
    element(0x0002, 0x0001, 'OB', new Uint8Array([0x00, 0x01])),
    element(0x0002, 0x0002, 'UI', ui(fields.sopClassUid)),
    element(0x0002, 0x0003, 'UI', ui(fields.sopInstanceUid)),
    element(0x0002, 0x0010, 'UI', ui(fields.transferSyntaxUid)),
    element(0x0002, 0x0012, 'UI', ui(IMPLEMENTATION_CLASS_UID)),
    element(0x0002, 0x0013, 'SH', encodeAscii(IMPLEMENTATION_VERSION_NAME, 0x20)),
  ];
  if (fields.sourceAeTitle)
    parts.push(element(0x0002, 0x0016, 'AE', encodeAscii(fields.sourceAeTitle.slice(0, 16), 0x20)));
  const groupLength = parts.reduce((sum, part) => sum + part.length, 0);
  const lengthValue = new Uint8Array(4);
  new DataView(lengthValue.buffer).setUint32(0, groupLength, true);
  const all = [element(0x0002, 0x0000, 'UL', lengthValue), ...parts];
  const out = new Uint8Array(132 + all.reduce((sum, part) => sum + part.length, 0));
  out.set([0x44, 0x49, 0x43, 0x4d], 128);
  let at = 132;
  for (const part of all) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}
