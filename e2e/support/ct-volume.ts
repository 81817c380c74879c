import { freshUid } from './viewer.js';

/**
 * A small generated CT volume for the MPR story (issue 5 §3): `slices` axial slices of size×size,
 * 1 mm pixels, 2.5 mm apart, explicit VR little endian, 16-bit with rescale −1024. The phantom is
 * 3-D on purpose — a soft-tissue body (40 HU) along the whole series, a dense sphere (300 HU) in its
 * middle and a bone rod (900 HU) along the first 60 % of the slices — so the sagittal and coronal
 * reconstructions look unlike any axial slice.
 */

const CT_IMAGE_STORAGE = '1.2.840.10008.5.1.4.1.1.2';
const EXPLICIT_LE = '1.2.840.10008.1.2.1';
const LONG_LENGTH_VRS = new Set(['OB', 'OW', 'OF', 'SQ', 'UT', 'UN']);

type TElement = [tag: number, vr: string, value: string | number[] | Uint8Array | Uint16Array];

function encodeValue(vr: string, value: TElement[2]): Buffer {
  if (value instanceof Uint16Array) return Buffer.from(value.buffer, value.byteOffset, value.byteLength);
  if (value instanceof Uint8Array) return Buffer.from(value);
  if (Array.isArray(value)) {
    if (vr === 'US') return Buffer.from(new Uint16Array(value).buffer);
    if (vr === 'UL') return Buffer.from(new Uint32Array(value).buffer);
    return encodeValue(vr, value.join('\\'));
  }
  const text = Buffer.from(value, 'latin1');
  if (text.length % 2 === 0) return text;
  return Buffer.concat([text, Buffer.from(vr === 'UI' ? [0] : [0x20])]);
}

/** Explicit VR little endian elements, in the order given (callers keep tag order). */
function encodeElements(elements: TElement[]): Buffer {
  const parts: Buffer[] = [];
  for (const [tag, vr, value] of elements) {
    let bytes = encodeValue(vr, value);
    if (bytes.length % 2) bytes = Buffer.concat([bytes, Buffer.from([0])]);
    const long = LONG_LENGTH_VRS.has(vr);
    const header = Buffer.alloc(long ? 12 : 8);
    header.writeUInt16LE(tag >>> 16, 0);
    header.writeUInt16LE(tag & 0xffff, 2);
    header.write(vr, 4, 'latin1');
    if (long) header.writeUInt32LE(bytes.length, 8);
    else header.writeUInt16LE(bytes.length, 6);
    parts.push(header, bytes);
  }
  return Buffer.concat(parts);
}

const ds = (n: number) => String(Math.round(n * 1000) / 1000);

/** The pixels of slice `index`, stored values (HU + 1024). */
function phantomSlice(index: number, slices: number, size: number): Uint16Array {
  const pixels = new Uint16Array(size * size);
  const half = size / 2;
  const z = index - (slices - 1) / 2; // slices from the middle
  const sphereRadius = size * 0.2;
  const sphereZ = (z * 2.5) ** 2;
  for (let row = 0; row < size; row += 1) {
    for (let column = 0; column < size; column += 1) {
      const x = column - half;
      const y = row - half;
      let hu = -1000;
      if ((x / (size * 0.4)) ** 2 + (y / (size * 0.28)) ** 2 <= 1) hu = 40;
      if ((x - size * 0.1) ** 2 + y ** 2 + sphereZ <= sphereRadius ** 2) hu = 300;
      if (index < slices * 0.6 && (x + size * 0.22) ** 2 + (y - size * 0.08) ** 2 <= (size * 0.05) ** 2) {
        hu = 900;
      }
      pixels[row * size + column] = hu + 1024;
    }
  }
  return pixels;
}

const generatedUid = (salt: string, what: string) =>
  freshUid('1.2.826.0.1.3680043.8.498.12345678901234567890', `${salt}:${what}`);

/** The SOP Instance UID ctVolumeFiles gives slice `index` (0-based) of a series. */
export function generatedSopUid(salt: string, seriesNumber: number, index: number): string {
  return generatedUid(salt, `sop-${seriesNumber}-${index}`);
}

export interface TGeneratedFile {
  name: string;
  mimeType: string;
  buffer: Buffer;
  studyInstanceUid: string;
}

/**
 * The files of one generated CT series, ready for uploadFile: the study's UIDs come from `salt`
 * (series `seriesNumber` of that study), so two calls with one salt make two series of one study.
 */
export function ctVolumeFiles({
  salt,
  patientName,
  patientId,
  seriesNumber = 1,
  studyDate = '20250101',
  slices = 40,
  size = 128,
}: {
  salt: string;
  patientName: string;
  patientId: string;
  seriesNumber?: number;
  studyDate?: string;
  slices?: number;
  size?: number;
}): TGeneratedFile[] {
  const uid = (what: string) => generatedUid(salt, what);
  const study = uid('study');
  const series = uid(`series-${seriesNumber}`);
  const frameOfReference = uid(`for-${seriesNumber}`);
  return Array.from({ length: slices }, (_, index) => {
    const sop = generatedSopUid(salt, seriesNumber, index);
    const meta = encodeElements([
      [0x00020001, 'OB', new Uint8Array([0, 1])],
      [0x00020002, 'UI', CT_IMAGE_STORAGE],
      [0x00020003, 'UI', sop],
      [0x00020010, 'UI', EXPLICIT_LE],
      [0x00020012, 'UI', '2.25.337322333667244214645930924594984310092'],
    ]);
    const groupLength = encodeElements([[0x00020000, 'UL', [meta.length]]]);
    const dataset = encodeElements([
      [0x00080008, 'CS', 'ORIGINAL\\PRIMARY\\AXIAL'],
      [0x00080016, 'UI', CT_IMAGE_STORAGE],
      [0x00080018, 'UI', sop],
      [0x00080020, 'DA', studyDate],
      [0x00080030, 'TM', '120000'],
      [0x00080050, 'SH', 'PHANTOM1'],
      [0x00080060, 'CS', 'CT'],
      [0x00081030, 'LO', 'MPR phantom'],
      [0x0008103e, 'LO', `Phantom ${seriesNumber}`],
      [0x00100010, 'PN', patientName],
      [0x00100020, 'LO', patientId],
      [0x00100030, 'DA', '19700101'],
      [0x00100040, 'CS', 'O'],
      [0x00180050, 'DS', '2.5'],
      [0x0020000d, 'UI', study],
      [0x0020000e, 'UI', series],
      [0x00200010, 'SH', '1'],
      [0x00200011, 'IS', String(seriesNumber)],
      [0x00200013, 'IS', String(index + 1)],
      [0x00200032, 'DS', [-size / 2, -size / 2, -index * 2.5].map(ds).join('\\')],
      [0x00200037, 'DS', '1\\0\\0\\0\\1\\0'],
      [0x00200052, 'UI', frameOfReference],
      [0x00201041, 'DS', ds(-index * 2.5)],
      [0x00280002, 'US', [1]],
      [0x00280004, 'CS', 'MONOCHROME2'],
      [0x00280010, 'US', [size]],
      [0x00280011, 'US', [size]],
      [0x00280030, 'DS', '1\\1'],
      [0x00280100, 'US', [16]],
      [0x00280101, 'US', [12]],
      [0x00280102, 'US', [11]],
      [0x00280103, 'US', [0]],
      [0x00281050, 'DS', '40'],
      [0x00281051, 'DS', '400'],
      [0x00281052, 'DS', '-1024'],
      [0x00281053, 'DS', '1'],
      [0x7fe00010, 'OW', phantomSlice(index, slices, size)],
    ]);
    const preamble = Buffer.concat([Buffer.alloc(128), Buffer.from('DICM', 'latin1')]);
    return {
      name: `${String(index + 1).padStart(4, '0')}.dcm`,
      mimeType: 'application/dicom',
      buffer: Buffer.concat([preamble, groupLength, meta, dataset]),
      studyInstanceUid: study,
    };
  });
}
