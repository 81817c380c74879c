import { describe, expect, it } from 'vitest';
import { isUploadPending, uploadStateOf } from './upload-state.js';

describe('uploadStateOf (spec-core §5 upload messages)', () => {
  it('is NONE when no instance has arrived, whatever the completion mark says', () => {
    expect(uploadStateOf({ apiVersion: 2, instanceCount: 0, lastUploadCompletedAt: null })).toBe('NONE');
    expect(uploadStateOf({ apiVersion: 2, instanceCount: 0, lastUploadCompletedAt: new Date() })).toBe(
      'NONE',
    );
  });

  it('is PARTIAL while an archive study waits for its upload to be marked complete', () => {
    expect(uploadStateOf({ apiVersion: 2, instanceCount: 5, lastUploadCompletedAt: null })).toBe('PARTIAL');
  });

  it('is COMPLETE once marked, and always for version-1 studies', () => {
    expect(
      uploadStateOf({ apiVersion: 2, instanceCount: 5, lastUploadCompletedAt: '2026-11-20T10:00:00Z' }),
    ).toBe('COMPLETE');
    expect(uploadStateOf({ apiVersion: 1, instanceCount: 5, lastUploadCompletedAt: null })).toBe('COMPLETE');
    expect(uploadStateOf({ apiVersion: 2, instanceCount: null, lastUploadCompletedAt: new Date() })).toBe(
      'COMPLETE',
    );
  });

  it('isUploadPending is the worklist badge rule', () => {
    expect(isUploadPending({ apiVersion: 2, lastUploadCompletedAt: null })).toBe(true);
    expect(isUploadPending({ apiVersion: 2, lastUploadCompletedAt: '2026-01-01T00:00:00Z' })).toBe(false);
    expect(isUploadPending({ apiVersion: 1, lastUploadCompletedAt: null })).toBe(false);
  });
});
