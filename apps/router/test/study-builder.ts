/**
 * Synthetic CT studies for the router's tests and bench: N small instances (Explicit VR Little
 * Endian, 16-bit native pixels) of one study, with fresh UIDs. Synthesised on purpose — the
 * router moves bytes and never looks at pixels, so size and count are what matter.
 */
import { randomBytes, randomInt } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createFileMetaHeader } from '@radflow/dicom';

export const CT_IMAGE_STORAGE = '1.2.840.10008.5.1.4.1.1.2';
const EXPLICIT_LE = '1.2.840.10008.1.2.1';

export function freshUid(): string {
  let digits = String(randomInt(1, 10));
  for (let i = 0; i < 36; i++) digits += String(randomInt(0, 10));
  return `2.25.${digits}`;
}

type Value = { vr: string; bytes: Buffer };
const LONG_VRS = new Set(['OB', 'OW', 'SQ', 'UN', 'UT']);
const text = (vr: string, value: string): Value => {
  const pad = vr === 'UI' ? '\0' : ' ';
  return { vr, bytes: Buffer.from(value.length % 2 ? value + pad : value, 'latin1') };
};
const us = (value: number): Value => {
  const bytes = Buffer.alloc(2);
  bytes.writeUInt16LE(value);
  return { vr: 'US', bytes };
};
function element(tag: number, value: Value): Buffer {
  const long = LONG_VRS.has(value.vr);
  const header = Buffer.alloc(long ? 12 : 8);
  header.writeUInt16LE(tag >>> 16, 0);
  header.writeUInt16LE(tag & 0xffff, 2);
  header.write(value.vr, 4, 'latin1');
  if (long) header.writeUInt32LE(value.bytes.length, 8);
  else header.writeUInt16LE(value.bytes.length, 6);
  return Buffer.concat([header, value.bytes]);
}

export interface SyntheticStudy {
  readonly studyInstanceUid: string;
  readonly seriesInstanceUid: string;
  readonly instances: readonly { sopInstanceUid: string; bytes: Buffer }[];
}

export interface SyntheticStudyOptions {
  readonly count: number;
  /** Rows = columns of each slice (16-bit): 64 gives ~8 KB instances, 256 ~128 KB. */
  readonly matrix?: number;
  /** Requested Procedure Priority (0040,1003), e.g. 'STAT'. */
  readonly priority?: string;
  readonly patientId?: string;
  /** Patient's Sex (0010,0040), Birth Date (0010,0030) and Age (0010,1010), each left out when not given. */
  readonly patientSex?: string;
  readonly patientBirthDate?: string;
  readonly patientAge?: string;
  /** The study's UID, when it must be one the cloud has already (else a fresh one). */
  readonly studyInstanceUid?: string;
}

export function buildStudy(options: SyntheticStudyOptions): SyntheticStudy {
  const studyInstanceUid = options.studyInstanceUid ?? freshUid();
  const seriesInstanceUid = freshUid();
  const matrix = options.matrix ?? 64;
  const instances = Array.from({ length: options.count }, (_, i) => {
    const sopInstanceUid = freshUid();
    const elements: [number, Value][] = [
      [0x00080016, text('UI', CT_IMAGE_STORAGE)],
      [0x00080018, text('UI', sopInstanceUid)],
      [0x00080020, text('DA', '20261127')],
      [0x00080060, text('CS', 'CT')],
      [0x00081030, text('LO', 'Router test CT')],
      [0x00100010, text('PN', 'Router^Test')],
      [0x00100020, text('LO', options.patientId ?? 'ROUTER-1')],
      [0x0020000d, text('UI', studyInstanceUid)],
      [0x0020000e, text('UI', seriesInstanceUid)],
      [0x00200013, text('IS', String(i + 1))],
      [0x00280002, us(1)],
      [0x00280004, text('CS', 'MONOCHROME2')],
      [0x00280010, us(matrix)],
      [0x00280011, us(matrix)],
      [0x00280100, us(16)],
      [0x00280101, us(12)],
      [0x00280102, us(11)],
      [0x00280103, us(0)],
    ];
    if (options.priority) elements.push([0x00401003, text('SH', options.priority)]);
    if (options.patientBirthDate) elements.push([0x00100030, text('DA', options.patientBirthDate)]);
    if (options.patientSex) elements.push([0x00100040, text('CS', options.patientSex)]);
    if (options.patientAge) elements.push([0x00101010, text('AS', options.patientAge)]);
    elements.sort(([a], [b]) => a - b);
    const pixels = randomBytes(matrix * matrix * 2);
    const bytes = Buffer.concat([
      createFileMetaHeader({ sopClassUid: CT_IMAGE_STORAGE, sopInstanceUid, transferSyntaxUid: EXPLICIT_LE }),
      ...elements.map(([tag, value]) => element(tag, value)),
      element(0x7fe00010, { vr: 'OW', bytes: pixels }),
    ]);
    return { sopInstanceUid, bytes };
  });
  return { studyInstanceUid, seriesInstanceUid, instances };
}

/** Writes the study's instances as files (for storescu); returns their paths. */
export async function writeStudy(study: SyntheticStudy, dir: string): Promise<string[]> {
  await mkdir(dir, { recursive: true });
  const paths: string[] = [];
  for (const [i, instance] of study.instances.entries()) {
    const path = join(dir, `${String(i + 1).padStart(4, '0')}.dcm`);
    await writeFile(path, instance.bytes);
    paths.push(path);
  }
  return paths;
}
