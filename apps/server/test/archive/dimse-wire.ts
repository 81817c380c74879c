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

/** An A-ASSOCIATE-RQ proposing Verification in implicit VR little endian. */
export function associateRequestPdu(callingAet: string, calledAet: string): Buffer {
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
        item(0x30, Buffer.from(VERIFICATION)),
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
