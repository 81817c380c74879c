/**
 * Test files built in code for cases no sample holds (issue 21 §2). Used by this package's tests
 * and the server's integration tests.
 */
import { parseInstance } from './parse.js';

/** An implicit VR little endian element (PS3.5 §7.1.3). */
function implicitLe(group: number, element: number, value: Uint8Array): Uint8Array {
  const out = Buffer.alloc(8 + value.length);
  out.writeUInt16LE(group, 0);
  out.writeUInt16LE(element, 2);
  out.writeUInt32LE(value.length, 4);
  out.set(value, 8);
  return out;
}

const delimiter = (element: number) => {
  const out = Buffer.alloc(8);
  out.writeUInt16LE(0xfffe, 0);
  out.writeUInt16LE(element, 2);
  out.writeUInt32LE(element === 0xe000 ? 0xffffffff : 0, 4);
  return out;
};

/**
 * A private creator and a private UN element of undefined length holding one item (a code
 * sequence item: Code Value 'X1', Coding Scheme Designator 'DCM'), big endian headers, CP-246
 * implicit little endian content — inserted in a big endian file before its first element of a
 * group above 0011.
 */
export function withPrivateUnSequence(bigEndian: Uint8Array): Uint8Array {
  const parsed = parseInstance(bigEndian);
  const after = Object.values(parsed.dataSet.elements)
    .filter((e) => parseInt(e.tag.slice(1), 16) > 0x00111001)
    .sort((a, b) => a.dataOffset - b.dataOffset)[0]!;
  const headerLength = ['OB', 'OW', 'OF', 'SQ', 'UT', 'UN'].includes(after.vr ?? '') ? 12 : 8;
  const at = after.dataOffset - headerLength;
  const creator = Buffer.alloc(8 + 8);
  creator.writeUInt16BE(0x0011, 0);
  creator.writeUInt16BE(0x0010, 2);
  creator.write('LO', 4, 'latin1');
  creator.writeUInt16BE(8, 6);
  creator.write('ACME 1.0', 8, 'latin1');
  const header = Buffer.alloc(12);
  header.writeUInt16BE(0x0011, 0);
  header.writeUInt16BE(0x1001, 2);
  header.write('UN', 4, 'latin1');
  header.writeUInt32BE(0xffffffff, 8);
  const content = Buffer.concat([
    delimiter(0xe000),
    implicitLe(0x0008, 0x0100, Buffer.from('X1', 'latin1')),
    implicitLe(0x0008, 0x0102, Buffer.from('DCM ', 'latin1')),
    delimiter(0xe00d),
    delimiter(0xe0dd),
  ]);
  return Buffer.concat([bigEndian.subarray(0, at), creator, header, content, bigEndian.subarray(at)]);
}
