import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { toDicomJson } from './dicom-json.js';
import { assertIngestable, parseInstance } from './parse.js';
import { FIXTURES_DIR } from './test-fixtures.js';
import { withNestedPrivateUnSequence, withPrivateUnSequence } from './test-builders.js';

/**
 * Issue 21 §2: Explicit VR Big Endian files with undefined-length sequences. DCMTK writes them
 * (`dcmconv +tb -e`); toolkits that keep an unknown private sequence as UN write it with undefined
 * length and, as PS3.5 §6.2.2 (CP-246) says, its items in implicit VR little endian whatever the
 * transfer syntax. dicom-parser reads such a UN with the big-endian parser and fails with
 * "readSequenceItem: item tag (FFFE,E000) not found"; DCMTK reads it.
 */

const hasDcmtk = (() => {
  try {
    execFileSync('dcmconv', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

const CT = join(FIXTURES_DIR, 'ct/study_liver/ct_liver_01.dcm');
const SEG = join(FIXTURES_DIR, 'ct/study_liver/seg_liver_3frames.dcm');

function dcmconv(source: string, args: string[]): Uint8Array {
  const dir = mkdtempSync(join(tmpdir(), 'radflow-be-'));
  try {
    const out = join(dir, 'out.dcm');
    execFileSync('dcmconv', [...args, source, out], { stdio: 'pipe' });
    return new Uint8Array(readFileSync(out));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function dcmtkReads(bytes: Uint8Array): string {
  const dir = mkdtempSync(join(tmpdir(), 'radflow-be-'));
  try {
    const file = join(dir, 'in.dcm');
    writeFileSync(file, bytes);
    return execFileSync('dcmdump', [file], { stdio: 'pipe' }).toString('latin1');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe.skipIf(!hasDcmtk)('Explicit VR Big Endian with undefined-length sequences', () => {
  it('DCMTK-written undefined-length sequences and items (dcmconv +tb -e) parse, to the pixel data', () => {
    for (const source of [CT, SEG]) {
      const parsed = parseInstance(dcmconv(source, ['+tb', '-e']));
      assertIngestable(parsed);
      const original = parseInstance(new Uint8Array(readFileSync(source)));
      expect(parsed.transferSyntaxUid).toBe('1.2.840.10008.1.2.2');
      expect(parsed.index).toEqual(original.index);
      expect(parsed.image).toEqual(original.image);
    }
  });

  it('a private UN sequence of undefined length (CP-246 implicit little endian items) parses', () => {
    const bytes = withPrivateUnSequence(dcmconv(CT, ['+tb', '-e']));
    // DCMTK reads the file and finds the item's values.
    const dump = dcmtkReads(bytes);
    expect(dump).toContain('(0011,1001)');
    expect(dump).toContain('[X1]');

    const parsed = parseInstance(bytes);
    assertIngestable(parsed);
    expect(parsed.index.patientId).toBe('99000');
    const un = parsed.dataSet.elements['x00111001']!;
    const item = un.items?.[0]?.dataSet;
    expect(item?.string('x00080100')).toBe('X1');
    expect(item?.string('x00080102')).toBe('DCM');
    // The elements after it are read in big endian again, up to the pixel data.
    expect(parsed.image).toMatchObject({ rows: 512, columns: 512, bitsAllocated: 16 });
    expect(parsed.pixelData?.length).toBe(512 * 512 * 2);
    const json = toDicomJson(parsed, { bulkDataUri: () => 'bulk' });
    expect(json['00100020']).toMatchObject({ Value: ['99000'] });
  });

  it('the same UN nested inside a sequence item parses, and the walk goes on after the sequence', () => {
    const bytes = withNestedPrivateUnSequence(dcmconv(CT, ['+tb', '-e']));
    const dump = dcmtkReads(bytes);
    expect(dump).toContain('(0011,1002)');
    expect(dump).toContain('[X1]');

    const parsed = parseInstance(bytes);
    assertIngestable(parsed);
    const sequence = parsed.dataSet.elements['x00111002']!;
    expect(sequence.items).toHaveLength(1);
    const itemSet = sequence.items![0]!.dataSet!;
    expect(itemSet.string('x00110010')).toBe('ACME 1.0');
    const un = itemSet.elements['x00111001']!;
    const code = un.items?.[0]?.dataSet;
    expect(code?.string('x00080100')).toBe('X1');
    expect(code?.string('x00080102')).toBe('DCM');
    expect(parsed.index.patientId).toBe('99000');
    expect(parsed.image).toMatchObject({ rows: 512, columns: 512, bitsAllocated: 16 });
    expect(parsed.pixelData?.length).toBe(512 * 512 * 2);
    const original = parseInstance(new Uint8Array(readFileSync(CT)));
    expect(parsed.index).toEqual(original.index);
  });

  it('a file cut inside such a sequence is called truncated, not read as shorter', () => {
    const bytes = withNestedPrivateUnSequence(dcmconv(CT, ['+tb', '-e']));
    const sequenceAt = Buffer.from(bytes).indexOf(Buffer.from('00111002' + '5351', 'hex'));
    expect(sequenceAt).toBeGreaterThan(0);
    expect(() => parseInstance(bytes.subarray(0, sequenceAt + 30))).toThrow(
      expect.objectContaining({ code: 'TRUNCATED_DATASET' }),
    );
  });
});
