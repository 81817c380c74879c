import { describe, expect, it } from 'vitest';
import {
  C_STORE_RQ,
  type CommandSet,
  cStoreResponsePdu,
  PDataReceiver,
  readCommandSet,
} from './pdata-receive.js';

/** An implicit VR little endian command set of group 0000 with a correct group length. */
function commandSet(elements: Array<[number, Buffer]>): Buffer {
  const body = Buffer.concat(
    elements.map(([tag, value]) => {
      const head = Buffer.alloc(8);
      head.writeUInt16LE(0, 0);
      head.writeUInt16LE(tag, 2);
      head.writeUInt32LE(value.length, 4);
      return Buffer.concat([head, value]);
    }),
  );
  const length = Buffer.alloc(12);
  length.writeUInt32LE(4, 4);
  length.writeUInt32LE(body.length, 8);
  return Buffer.concat([length, body]);
}
const us = (n: number) => Buffer.from([n & 0xff, n >> 8]);
const ui = (uid: string) => Buffer.from(uid.length % 2 ? `${uid}\0` : uid, 'latin1');

/** A P-DATA-TF PDU with the given PDVs. */
function pdu(pdvs: Array<{ pcid: number; control: number; value: Buffer }>): Buffer {
  const items = pdvs.map(({ pcid, control, value }) => {
    const head = Buffer.alloc(6);
    head.writeUInt32BE(value.length + 2, 0);
    head.writeUInt8(pcid, 4);
    head.writeUInt8(control, 5);
    return Buffer.concat([head, value]);
  });
  const body = Buffer.concat(items);
  const head = Buffer.alloc(6);
  head.writeUInt8(0x04, 0);
  head.writeUInt32BE(body.length, 2);
  return Buffer.concat([head, body]);
}

const storeCommand = commandSet([
  [0x0002, ui('1.2.840.10008.5.1.4.1.1.2')],
  [0x0100, us(C_STORE_RQ)],
  [0x0110, us(7)],
  [0x0700, us(0)],
  [0x0800, us(0x0000)],
  [0x1000, ui('1.2.3.4.5')],
]);
const echoCommand = commandSet([
  [0x0002, ui('1.2.840.10008.1.1')],
  [0x0100, us(0x0030)],
  [0x0110, us(8)],
  [0x0800, us(0x0101)],
]);
const dataSet = Buffer.from(Array.from({ length: 1000 }, (_, i) => i % 251));
const releaseRq = Buffer.from([0x05, 0, 0, 0, 0, 4, 0, 0, 0, 0]);

/** A C-STORE (command in 2 PDVs, data set in 3 PDUs), then a C-ECHO, then an A-RELEASE-RQ. */
const stream = Buffer.concat([
  pdu([
    { pcid: 3, control: 0x01, value: storeCommand.subarray(0, 20) },
    { pcid: 3, control: 0x03, value: storeCommand.subarray(20) },
  ]),
  pdu([{ pcid: 3, control: 0x00, value: dataSet.subarray(0, 400) }]),
  pdu([{ pcid: 3, control: 0x00, value: dataSet.subarray(400, 999) }]),
  pdu([{ pcid: 3, control: 0x02, value: dataSet.subarray(999) }]),
  pdu([{ pcid: 1, control: 0x03, value: echoCommand }]),
  releaseRq,
]);

function receive(chunks: Buffer[]) {
  const seen = {
    commands: [] as Array<{ pcid: number; command: CommandSet }>,
    stored: [] as Buffer[],
    ends: 0,
    forwarded: [] as Buffer[],
    other: [] as Buffer[],
    errors: [] as Error[],
  };
  const receiver = new PDataReceiver({
    otherPdu: (p) => seen.other.push(Buffer.from(p)),
    forwardPdu: (p) => seen.forwarded.push(Buffer.from(p)),
    command: (pcid, command) => {
      seen.commands.push({ pcid, command });
      return command.commandField === C_STORE_RQ ? 'store' : 'forward';
    },
    storeData: (chunk) => seen.stored.push(Buffer.from(chunk)),
    storeEnd: () => seen.ends++,
    protocolError: (error) => seen.errors.push(error),
  });
  for (const chunk of chunks) receiver.push(chunk);
  return seen;
}

describe('PDataReceiver', () => {
  it('reads a C-STORE data set, forwards other messages and PDUs, whatever the socket reads cut', () => {
    for (let split = 1; split < stream.length; split++) {
      for (const chunks of [
        [stream.subarray(0, split), stream.subarray(split)],
        // and every byte on its own once
        ...(split === 1 ? [Array.from(stream, (b) => Buffer.from([b]))] : []),
      ]) {
        const seen = receive(chunks);
        expect(seen.errors, `split ${split}`).toEqual([]);
        expect(seen.commands.map((c) => [c.pcid, c.command.commandField, c.command.messageId])).toEqual([
          [3, C_STORE_RQ, 7],
          [1, 0x0030, 8],
        ]);
        expect(seen.commands[0]!.command.affectedSopInstanceUid).toBe('1.2.3.4.5');
        expect(seen.commands[0]!.command.hasDataSet).toBe(true);
        expect(seen.commands[1]!.command.hasDataSet).toBe(false);
        expect(Buffer.concat(seen.stored).equals(dataSet), `split ${split}`).toBe(true);
        expect(seen.ends).toBe(1);
        // The C-ECHO goes on as a P-DATA-TF PDU with its one command PDV, unchanged.
        expect(seen.forwarded).toEqual([pdu([{ pcid: 1, control: 0x03, value: echoCommand }])]);
        expect(seen.other).toEqual([releaseRq]);
      }
    }
  });

  it('refuses a data PDV without a command, and stops reading', () => {
    const seen = receive([pdu([{ pcid: 1, control: 0x02, value: Buffer.from([1, 2]) }]), releaseRq]);
    expect(seen.errors).toHaveLength(1);
    expect(seen.other).toEqual([]);
  });

  it('encodes a C-STORE-RSP that reads back with the request identifiers and the status', () => {
    const response = cStoreResponsePdu(
      5,
      { messageId: 7, affectedSopClassUid: '1.2.840.10008.5.1.4.1.1.2', affectedSopInstanceUid: '1.2.3.4.5' },
      0xa700,
      'Disk full',
    );
    expect(response.readUInt8(0)).toBe(0x04);
    expect(response.readUInt32BE(2)).toBe(response.length - 6);
    expect(response.readUInt8(10)).toBe(5);
    expect(response.readUInt8(11)).toBe(0x03);
    const command = response.subarray(12);
    const read = readCommandSet(command);
    expect(read).toMatchObject({
      commandField: 0x8001,
      hasDataSet: false,
      affectedSopClassUid: '1.2.840.10008.5.1.4.1.1.2',
      affectedSopInstanceUid: '1.2.3.4.5',
    });
    // Message ID Being Responded To, Status, Error Comment (0000,0120), (0000,0900), (0000,0902).
    expect(command.includes(Buffer.from([0, 0, 0x20, 0x01, 2, 0, 0, 0, 7, 0]))).toBe(true);
    expect(command.includes(Buffer.from([0, 0, 0x00, 0x09, 2, 0, 0, 0, 0x00, 0xa7]))).toBe(true);
    expect(command.includes(Buffer.from('Disk full ', 'latin1'))).toBe(true);
    expect(command.readUInt32LE(8)).toBe(command.length - 12);
  });
});
