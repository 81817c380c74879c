/**
 * Huffman entropy decoding of DCT JPEG (ISO 10918-1 Annex C and F.2.2): canonical tables and a
 * bit reader over the entropy-coded segment (byte stuffing, restart markers).
 */
import { FrameDecodeError } from './errors.js';

export const fail = (why: string): never => {
  throw new FrameDecodeError('CORRUPT_FRAME', `JPEG: ${why}`);
};

/** Canonical Huffman table (Annex C, F.2.2.3): per code length the largest code and value index. */
export interface HuffmanTable {
  maxCode: Int32Array;
  valPtr: Int32Array;
  minCode: Int32Array;
  values: Uint8Array;
}

export function buildHuffman(counts: Uint8Array, values: Uint8Array): HuffmanTable {
  const maxCode = new Int32Array(18).fill(-1);
  const valPtr = new Int32Array(17);
  const minCode = new Int32Array(17);
  let code = 0;
  let k = 0;
  for (let length = 1; length <= 16; length++) {
    const n = counts[length - 1] as number;
    if (n) {
      valPtr[length] = k;
      minCode[length] = code;
      code += n;
      k += n;
      maxCode[length] = code - 1;
    }
    code <<= 1;
  }
  maxCode[17] = 0x7fffffff;
  return { maxCode, valPtr, minCode, values };
}

export class BitReader {
  private bits = 0;
  private count = 0;
  constructor(
    private readonly data: Uint8Array,
    public at: number,
  ) {}

  /** Next bit; past a marker the stream reads as zeros (F.2.2.5). */
  bit(): number {
    if (this.count === 0) {
      let byte = 0;
      if (this.at < this.data.length) {
        byte = this.data[this.at] as number;
        if (byte === 0xff) {
          const next = this.data[this.at + 1];
          if (next === 0) this.at += 2;
          else byte = 0; // a marker: leave `at` on it
        } else this.at++;
      }
      this.bits = byte;
      this.count = 8;
    }
    this.count--;
    return (this.bits >> this.count) & 1;
  }

  receive(length: number): number {
    let value = 0;
    for (let i = 0; i < length; i++) value = (value << 1) | this.bit();
    return value;
  }

  decode(table: HuffmanTable): number {
    let code = this.bit();
    let length = 1;
    while (code > (table.maxCode[length] as number)) {
      code = (code << 1) | this.bit();
      if (++length > 16) return fail('bad Huffman code');
    }
    return table.values[(table.valPtr[length] as number) + code - (table.minCode[length] as number)] ?? 0;
  }

  /** After a restart interval: drop the partial byte and step over the RSTn marker. */
  restart(): void {
    this.count = 0;
    while (this.at + 1 < this.data.length) {
      if (
        this.data[this.at] === 0xff &&
        (this.data[this.at + 1] as number) >= 0xd0 &&
        (this.data[this.at + 1] as number) <= 0xd7
      ) {
        this.at += 2;
        return;
      }
      this.at++;
    }
  }
}

/** F.2.2.1 EXTEND: a received value of `bits` bits to its signed coefficient. */
export const extend = (value: number, bits: number) =>
  value < 1 << (bits - 1) ? value - (1 << bits) + 1 : value;
