import { type Socket, connect } from 'node:net';

/**
 * Raw DICOM upper-layer bytes for tests that play a misbehaving peer (PS3.8 §9.3): an idle TCP
 * connection, an association that then says nothing. DCMTK's tools always behave.
 */

const VERIFICATION = '1.2.840.10008.1.1';
const IMPLICIT_VR_LE = '1.2.840.10008.1.2';
const APPLICATION_CONTEXT = '1.2.840.10008.3.1.1.1';

function item(type: number, value: Buffer): Buffer {
  const head = Buffer.alloc(4);
  head.writeUInt8(type, 0);
  head.writeUInt16BE(value.length, 2);
  return Buffer.concat([head, value]);
}

const aeTitle = (title: string) => Buffer.from(title.padEnd(16, ' ').slice(0, 16), 'latin1');

/** An A-ASSOCIATE-RQ proposing one abstract syntax (default Verification) in implicit VR little endian, context 1. */
export function associateRequestPdu(
  callingAet: string,
  calledAet: string,
  abstractSyntax = VERIFICATION,
): Buffer {
  const fixed = Buffer.alloc(68);
  fixed.writeUInt16BE(1, 0);
  aeTitle(calledAet).copy(fixed, 4);
  aeTitle(callingAet).copy(fixed, 20);
  const maxLength = Buffer.alloc(4);
  maxLength.writeUInt32BE(16384, 0);
  const body = Buffer.concat([
    fixed,
    item(0x10, Buffer.from(APPLICATION_CONTEXT)),
    item(
      0x20,
      Buffer.concat([
        Buffer.from([1, 0, 0, 0]),
        item(0x30, Buffer.from(abstractSyntax)),
        item(0x40, Buffer.from(IMPLICIT_VR_LE)),
      ]),
    ),
    item(0x50, Buffer.concat([item(0x51, maxLength), item(0x52, Buffer.from('1.2.3.4'))])),
  ]);
  const head = Buffer.alloc(6);
  head.writeUInt8(0x01, 0);
  head.writeUInt32BE(body.length, 2);
  return Buffer.concat([head, body]);
}

/** A TCP connection to the SCP from `localAddress` (any 127.x.y.z works on Linux's loopback). */
export function openSocket(port: number, localAddress: string): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port, localAddress });
    socket.once('connect', () => {
      socket.off('error', reject);
      resolve(socket);
    });
    socket.once('error', reject);
  });
}

/** Resolves with the ms it took the other side to close the connection (and what it sent). */
export function whenClosed(socket: Socket): Promise<{ afterMs: number; received: Buffer }> {
  const started = performance.now();
  const chunks: Buffer[] = [];
  return new Promise((resolve) => {
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', () => undefined);
    socket.once('close', () =>
      resolve({ afterMs: performance.now() - started, received: Buffer.concat(chunks) }),
    );
  });
}

/** The first PDU the peer sends (its type byte), e.g. 0x02 A-ASSOCIATE-AC. */
export function firstPduType(socket: Socket): Promise<number> {
  return new Promise((resolve, reject) => {
    socket.once('data', (chunk: Buffer) => resolve(chunk.readUInt8(0)));
    socket.once('close', () => reject(new Error('closed before any PDU')));
  });
}

/** A P-DATA-TF PDU with one PDV (control: bit 0 command, bit 1 last fragment). */
export function pDataPdu(pcid: number, control: number, value: Buffer): Buffer {
  const pdu = Buffer.alloc(12 + value.length);
  pdu.writeUInt8(0x04, 0);
  pdu.writeUInt32BE(6 + value.length, 2);
  pdu.writeUInt32BE(2 + value.length, 6);
  pdu.writeUInt8(pcid, 10);
  pdu.writeUInt8(control, 11);
  value.copy(pdu, 12);
  return pdu;
}

/** The command set of a C-STORE-RQ with a data set to follow (implicit VR little endian, PS3.7 §9.3.1.1). */
export function cStoreCommand(sopClassUid: string, sopInstanceUid: string): Buffer {
  const even = (text: string) => Buffer.from(text.length % 2 ? `${text}\0` : text, 'latin1');
  const us = (n: number) => Buffer.from([n & 0xff, n >> 8]);
  const elements: Array<[number, Buffer]> = [
    [0x0002, even(sopClassUid)],
    [0x0100, us(0x0001)],
    [0x0110, us(1)],
    [0x0700, us(0)],
    [0x0800, us(0x0000)],
    [0x1000, even(sopInstanceUid)],
  ];
  const body = Buffer.concat(
    elements.map(([tag, value]) => {
      const head = Buffer.alloc(8);
      head.writeUInt16LE(tag, 2);
      head.writeUInt32LE(value.length, 4);
      return Buffer.concat([head, value]);
    }),
  );
  const groupLength = Buffer.alloc(12);
  groupLength.writeUInt32LE(4, 4);
  groupLength.writeUInt32LE(body.length, 8);
  return Buffer.concat([groupLength, body]);
}
