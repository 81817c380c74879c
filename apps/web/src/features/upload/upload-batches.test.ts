import { UPLOAD_MAX_FILES_PER_REQUEST } from '@radflow/core';
import { describe, expect, it } from 'vitest';
import { buildFile } from '../../test/fake-xhr';
import {
  BATCH_LIMITS,
  addPickedFiles,
  describeNoted,
  describeRefused,
  formatBytes,
  splitIntoBatches,
  uploadPercent,
  uploadedText,
} from './upload-batches';

const MB = 1024 * 1024;
const sized = (...mb: number[]) => mb.map((m, i) => ({ name: `f${i}`, size: m * MB }));
const shape = (batches: { size: number }[][]) => batches.map((b) => b.map((f) => f.size / MB));

describe('splitIntoBatches', () => {
  it('puts at most 20 files in a request', () => {
    const files = Array.from({ length: 45 }, (_, i) => ({ name: `f${i}`, size: 1000 }));
    expect(splitIntoBatches(files).map((b) => b.length)).toEqual([20, 20, 5]);
    expect(splitIntoBatches(files).flat()).toEqual(files);
  });

  it('starts a new request before 50 MB, and sends a larger file alone', () => {
    expect(BATCH_LIMITS.maxBytes).toBe(50 * MB);
    expect(shape(splitIntoBatches(sized(30, 20, 1, 60, 10, 45)))).toEqual([[30, 20], [1], [60], [10], [45]]);
    expect(shape(splitIntoBatches(sized(25, 25, 25)))).toEqual([[25, 25], [25]]);
  });

  it("never goes over the server's per-request cap, whatever the limits", () => {
    const files = Array.from({ length: 2500 }, (_, i) => ({ name: `f${i}`, size: 1 }));
    const batches = splitIntoBatches(files, { maxFiles: 10_000, maxBytes: Infinity });
    expect(batches.map((b) => b.length)).toEqual([
      UPLOAD_MAX_FILES_PER_REQUEST,
      UPLOAD_MAX_FILES_PER_REQUEST,
      500,
    ]);
  });

  it('makes no request for no files', () => {
    expect(splitIntoBatches([])).toEqual([]);
  });
});

describe('progress text', () => {
  it("says 'file uploaded N out of M' (spec-core §8)", () => {
    expect(uploadedText(2, 5)).toBe('file uploaded 2 out of 5');
  });

  it('caps the percent at 100 and rounds down', () => {
    expect(uploadPercent(150, 100)).toBe(100);
    expect(uploadPercent(1, 3)).toBe(33);
    expect(uploadPercent(0, 0)).toBe(0);
    expect(uploadPercent(-5, 10)).toBe(0);
  });

  it('writes sizes for people', () => {
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(1536)).toBe('1.5 KB');
    expect(formatBytes(50 * MB)).toBe('50 MB');
    expect(formatBytes(2 * 1024 * MB)).toBe('2 GB');
  });
});

describe('describeRefused', () => {
  const result = (fileName: string, reason: string | null) => ({
    fileName,
    ok: reason === null,
    sopInstanceUid: null,
    studyInstanceUid: null,
    reportStatusId: null,
    duplicate: false,
    reason,
  });

  it('names each refused file with its reason', () => {
    expect(
      describeRefused([
        result('a.txt', 'not a DICOM file'),
        result('ok.dcm', null),
        result('b.dcm', 'truncated in the pixel data'),
        result('c.pdf', 'not a DICOM file'),
      ]),
    ).toEqual({
      heading: '3 files were refused:',
      lines: ['a.txt — not a DICOM file', 'b.dcm — truncated in the pixel data', 'c.pdf — not a DICOM file'],
    });
    expect(describeRefused([result('a.txt', 'not a DICOM file')])?.heading).toBe('1 file was refused:');
    expect(describeRefused([result('ok.dcm', null)])).toBeNull();
  });

  it('lists the stored files the server noted (first version kept), not the refused ones', () => {
    const kept = {
      ...result('a.dcm', null),
      duplicate: true,
      reason: 'Already stored with other content: first version kept',
    };
    expect(describeNoted([kept, result('ok.dcm', null), result('b.txt', 'not a DICOM file')])).toEqual({
      heading: '1 file was stored already:',
      lines: ['a.dcm — Already stored with other content: first version kept'],
    });
    expect(describeNoted([result('ok.dcm', null)])).toBeNull();
  });
});

describe('addPickedFiles', () => {
  it('refuses a file over the per-file limit with a clear reason', () => {
    const big = buildFile('big.zip', 3000);
    const small = buildFile('small.dcm', 10);
    const { files, refused } = addPickedFiles([], [big, small], 2048);
    expect(files).toEqual([small]);
    expect(refused).toEqual([
      { name: 'big.zip', reason: 'too large (2.9 KB); one file may be at most 2 KB' },
    ]);
  });

  it('adds the same file once, and skips hidden files of a folder', () => {
    const a = buildFile('a.dcm');
    const hidden = buildFile('.DS_Store');
    Object.defineProperty(hidden, 'webkitRelativePath', { value: 'study/.DS_Store' });
    const first = addPickedFiles([], [a]);
    expect(addPickedFiles(first.files, [a, hidden]).files).toEqual([a]);
  });
});
