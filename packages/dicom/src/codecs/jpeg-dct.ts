/**
 * Sequential Huffman DCT JPEG (ISO 10918-1 processes 1, 2 and 4: SOF0 / SOF1) for any sample
 * precision, used for the 12-bit frames of JPEG Extended (1.2.840.10008.1.2.4.51) that the 8-bit
 * libjpeg-turbo build cannot read. Floating-point inverse DCT (Annex A.3.3), so results are within
 * ±1 of libjpeg's accurate integer IDCT. Components are returned as decoded (no colour transform),
 * upsampled by replication; non-conformant scan parameters (Ss/Se/Ah/Al) of a sequential frame are
 * ignored, as GDCM and DCMTK do.
 */
import { FrameDecodeError } from './errors.js';
import { BitReader, type HuffmanTable, buildHuffman, extend, fail } from './jpeg-entropy.js';
import type { WasmOutput } from './wasm.js';

const ZIGZAG = new Uint8Array([
  0, 1, 8, 16, 9, 2, 3, 10, 17, 24, 32, 25, 18, 11, 4, 5, 12, 19, 26, 33, 40, 48, 41, 34, 27, 20, 13, 6, 7,
  14, 21, 28, 35, 42, 49, 56, 57, 50, 43, 36, 29, 22, 15, 23, 30, 37, 44, 51, 58, 59, 52, 45, 38, 31, 39, 46,
  53, 60, 61, 54, 47, 55, 62, 63,
]);

/** cos((2x + 1)uπ/16) · C(u) / 2, indexed [x * 8 + u]. */
const IDCT = (() => {
  const table = new Float64Array(64);
  for (let x = 0; x < 8; x++) {
    for (let u = 0; u < 8; u++) {
      table[x * 8 + u] = ((u === 0 ? Math.SQRT1_2 : 1) * Math.cos(((2 * x + 1) * u * Math.PI) / 16)) / 2;
    }
  }
  return table;
})();

/** The row pass's output, reused by every block (decoding is synchronous). */
const IDCT_ROWS = new Float64Array(64);

interface Component {
  id: number;
  h: number;
  v: number;
  tq: number;
  blocksPerLine: number;
  blocksPerColumn: number;
  /** Reconstructed samples, blocksPerLine × 8 wide. */
  samples: Int32Array;
  pred: number;
  dc: HuffmanTable | undefined;
  ac: HuffmanTable | undefined;
}

function decodeBlock(
  reader: BitReader,
  component: Component,
  quant: Int32Array,
  row: number,
  col: number,
  precision: number,
  coefficients: Float64Array,
): void {
  if (!component.dc || !component.ac) fail('a scan uses a Huffman table that is not defined');
  coefficients.fill(0);
  const t = reader.decode(component.dc as HuffmanTable);
  component.pred += t ? extend(reader.receive(t), t) : 0;
  coefficients[0] = component.pred * (quant[0] as number);
  let hasAc = false;
  for (let k = 1; k < 64;) {
    const rs = reader.decode(component.ac as HuffmanTable);
    const r = rs >> 4;
    const s = rs & 15;
    if (s === 0) {
      if (r !== 15) break;
      k += 16;
      continue;
    }
    k += r;
    if (k > 63) break;
    const z = ZIGZAG[k] as number;
    coefficients[z] = extend(reader.receive(s), s) * (quant[z] as number);
    hasAc = true;
    k++;
  }
  const shift = 1 << (precision - 1);
  const max = (1 << precision) - 1;
  const width = component.blocksPerLine * 8;
  if (!hasAc) {
    // A flat block (common in image backgrounds): every sample is DC / 8.
    const value = Math.round((coefficients[0] as number) / 8 + shift);
    const flat = value < 0 ? 0 : value > max ? max : value;
    for (let y = 0; y < 8; y++) {
      const start = (row * 8 + y) * width + col * 8;
      component.samples.fill(flat, start, start + 8);
    }
    return;
  }
  // Separable inverse DCT, rows then columns, then level shift and clamp (A.3.1).
  const temp = IDCT_ROWS;
  for (let v = 0; v < 8; v++) {
    for (let x = 0; x < 8; x++) {
      let sum = 0;
      for (let u = 0; u < 8; u++) sum += (IDCT[x * 8 + u] as number) * (coefficients[v * 8 + u] as number);
      temp[v * 8 + x] = sum;
    }
  }
  for (let y = 0; y < 8; y++) {
    for (let x = 0; x < 8; x++) {
      let sum = 0;
      for (let v = 0; v < 8; v++) sum += (IDCT[y * 8 + v] as number) * (temp[v * 8 + x] as number);
      const value = Math.round(sum + shift);
      component.samples[(row * 8 + y) * width + col * 8 + x] = value < 0 ? 0 : value > max ? max : value;
    }
  }
}

export function decodeJpeg12(data: Uint8Array): WasmOutput {
  const quantTables: Int32Array[] = [];
  const dcTables: HuffmanTable[] = [];
  const acTables: HuffmanTable[] = [];
  let frame: { precision: number; rows: number; columns: number; hMax: number; vMax: number } | null = null;
  let components: Component[] = [];
  let restartInterval = 0;
  const coefficients = new Float64Array(64);
  const u16 = (at: number) => ((data[at] as number) << 8) | (data[at + 1] as number);

  if (u16(0) !== 0xffd8) fail('no start of image');
  let at = 2;
  while (at + 4 <= data.length) {
    if (data[at] !== 0xff) {
      at++;
      continue;
    }
    const marker = data[at + 1] as number;
    if (marker === 0xd9) break;
    if (marker === 0xff || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      at += marker === 0xff ? 1 : 2;
      continue;
    }
    const length = u16(at + 2);
    const body = at + 4;
    const end = at + 2 + length;
    switch (marker) {
      case 0xdb: // DQT
        for (let p = body; p < end;) {
          const spec = data[p++] as number;
          const table = new Int32Array(64);
          for (let j = 0; j < 64; j++) {
            table[ZIGZAG[j] as number] = spec >> 4 ? u16(p + j * 2) : (data[p + j] as number);
          }
          p += spec >> 4 ? 128 : 64;
          quantTables[spec & 15] = table;
        }
        break;
      case 0xc4: // DHT
        for (let p = body; p < end;) {
          const spec = data[p] as number;
          const counts = data.subarray(p + 1, p + 17);
          const total = counts.reduce((sum, n) => sum + n, 0);
          const table = buildHuffman(counts, data.subarray(p + 17, p + 17 + total));
          (spec >> 4 ? acTables : dcTables)[spec & 15] = table;
          p += 17 + total;
        }
        break;
      case 0xdd: // DRI
        restartInterval = u16(body);
        break;
      case 0xc0:
      case 0xc1: {
        const count = data[body + 5] as number;
        frame = {
          precision: data[body] as number,
          rows: u16(body + 1),
          columns: u16(body + 3),
          hMax: 1,
          vMax: 1,
        };
        components = [];
        for (let i = 0; i < count; i++) {
          const p = body + 6 + i * 3;
          const sampling = data[p + 1] as number;
          components.push({
            id: data[p] as number,
            h: sampling >> 4 || 1,
            v: sampling & 15 || 1,
            tq: data[p + 2] as number,
            blocksPerLine: 0,
            blocksPerColumn: 0,
            samples: new Int32Array(0),
            pred: 0,
            dc: undefined,
            ac: undefined,
          });
        }
        const f = frame;
        f.hMax = Math.max(...components.map((c) => c.h));
        f.vMax = Math.max(...components.map((c) => c.v));
        const mcusPerLine = Math.ceil(f.columns / (8 * f.hMax));
        const mcusPerColumn = Math.ceil(f.rows / (8 * f.vMax));
        for (const c of components) {
          c.blocksPerLine = mcusPerLine * c.h;
          c.blocksPerColumn = mcusPerColumn * c.v;
          c.samples = new Int32Array(c.blocksPerLine * c.blocksPerColumn * 64);
        }
        break;
      }
      case 0xda: {
        if (!frame) return fail('a scan comes before the frame header');
        const f = frame;
        const scan: Component[] = [];
        for (let i = 0; i < (data[body] as number); i++) {
          const id = data[body + 1 + i * 2] as number;
          const tables = data[body + 2 + i * 2] as number;
          const component = components.find((c) => c.id === id) ?? fail(`scan names unknown component ${id}`);
          component.dc = dcTables[tables >> 4];
          component.ac = acTables[tables & 15];
          component.pred = 0;
          scan.push(component);
        }
        const reader = new BitReader(data, end);
        const single = scan.length === 1 ? (scan[0] as Component) : null;
        const mcusPerLine = single
          ? Math.ceil(Math.ceil((f.columns * single.h) / f.hMax) / 8)
          : Math.ceil(f.columns / (8 * f.hMax));
        const mcusPerColumn = single
          ? Math.ceil(Math.ceil((f.rows * single.v) / f.vMax) / 8)
          : Math.ceil(f.rows / (8 * f.vMax));
        const total = mcusPerLine * mcusPerColumn;
        for (let mcu = 0; mcu < total; mcu++) {
          if (restartInterval && mcu > 0 && mcu % restartInterval === 0) {
            reader.restart();
            for (const c of scan) c.pred = 0;
          }
          const mcuRow = Math.floor(mcu / mcusPerLine);
          const mcuCol = mcu % mcusPerLine;
          for (const c of scan) {
            const quant = quantTables[c.tq] ?? fail(`quantisation table ${c.tq} is not defined`);
            if (single) {
              decodeBlock(reader, c, quant, mcuRow, mcuCol, f.precision, coefficients);
              continue;
            }
            for (let by = 0; by < c.v; by++) {
              for (let bx = 0; bx < c.h; bx++) {
                decodeBlock(
                  reader,
                  c,
                  quant,
                  mcuRow * c.v + by,
                  mcuCol * c.h + bx,
                  f.precision,
                  coefficients,
                );
              }
            }
          }
        }
        at = reader.at;
        continue;
      }
      case 0xc2:
      case 0xc3:
      case 0xc5:
      case 0xc6:
      case 0xc7:
      case 0xc9:
      case 0xca:
      case 0xcb:
      case 0xcd:
      case 0xce:
      case 0xcf:
        throw new FrameDecodeError(
          'UNSUPPORTED',
          `JPEG process with SOF marker FF${marker.toString(16).toUpperCase()} is not decoded`,
        );
      default:
        break; // APPn, COM, DNL…: nothing the decode needs
    }
    at = end;
  }
  if (!frame) return fail('no frame header');
  const f = frame;
  const wide = f.precision > 8;
  const out = new Uint8Array(f.rows * f.columns * components.length * (wide ? 2 : 1));
  components.forEach((c, index) => {
    const width = c.blocksPerLine * 8;
    for (let y = 0; y < f.rows; y++) {
      const sourceRow = Math.floor((y * c.v) / f.vMax) * width;
      for (let x = 0; x < f.columns; x++) {
        const value = c.samples[sourceRow + Math.floor((x * c.h) / f.hMax)] as number;
        const to = (y * f.columns + x) * components.length + index;
        if (wide) {
          out[to * 2] = value & 0xff;
          out[to * 2 + 1] = value >> 8;
        } else out[to] = value;
      }
    }
  });
  return {
    info: { width: f.columns, height: f.rows, bitsPerSample: f.precision, componentCount: components.length },
    bytes: out,
  };
}
