import { describe, expect, it } from 'vitest';
import { PDataReceiver, type PDataHandler } from './pdata-receive.js';

/** A handler that forwards everything and records what it saw. */
function recorder() {
  const seen = { other: 0, forwarded: 0, errors: [] as string[] };
  const handler: PDataHandler = {
    otherPdu: () => seen.other++,
    forwardPdu: () => seen.forwarded++,
    command: () => 'forward',
    storeData: () => undefined,
    storeEnd: () => undefined,
    protocolError: (error) => seen.errors.push(error.message),
  };
  return { seen, handler };
}

function rawPdu(type: number, body: Buffer): Buffer {
  const head = Buffer.alloc(6);
  head.writeUInt8(type, 0);
  head.writeUInt32BE(body.length, 2);
  return Buffer.concat([head, body]);
}

describe('PDataReceiver: what the SCP’s idle timer and memory rely on', () => {
  it('counts whole PDUs only: a PDU trickled byte by byte counts once, when its last byte came', () => {
    const { seen, handler } = recorder();
    const receiver = new PDataReceiver(handler);
    // A-RELEASE-RQ (type 5, 4 reserved bytes), then an empty P-DATA-TF, then one PDV of a command.
    const pdv = Buffer.from([0, 0, 0, 4, 1, 0x01, 0, 0]);
    const stream = Buffer.concat([
      rawPdu(0x05, Buffer.alloc(4)),
      rawPdu(0x04, Buffer.alloc(0)),
      rawPdu(0x04, pdv),
    ]);
    const counts: number[] = [];
    for (const byte of stream) {
      receiver.push(Buffer.from([byte]));
      counts.push(receiver.completedPdus);
    }
    expect(counts.indexOf(1)).toBe(9); // the release request's 10th byte
    expect(counts.indexOf(2)).toBe(15); // the empty P-DATA-TF's 6th
    expect(counts.indexOf(3)).toBe(stream.length - 1);
    expect(seen.other).toBe(1);
    expect(seen.errors).toEqual([]);
  });

  it('refuses a non-P-DATA PDU announcing more than 1 MB before gathering it', () => {
    const { seen, handler } = recorder();
    const receiver = new PDataReceiver(handler);
    const head = Buffer.alloc(6);
    head.writeUInt8(0x01, 0);
    head.writeUInt32BE(0xffffffff, 2);
    receiver.push(head);
    expect(seen.errors).toHaveLength(1);
    expect(seen.errors[0]).toMatch(/at most 1048576/);
  });
});
