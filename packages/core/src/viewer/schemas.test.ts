import { describe, expect, it } from 'vitest';
import { ZViewerAnnotationInput, ZViewerAnnotationParams } from './schemas.js';

const valid = {
  annotationUid: 'a1b2-c3.d4_e5',
  toolName: 'Length',
  seriesInstanceUid: '1.2.3',
  sopInstanceUid: '1.2.3.4',
  frameNumber: 1,
  data: {
    handles: {
      points: [
        [0, 0, 0],
        [1, 1, 0],
      ],
    },
    label: '',
  },
};

const failedField = (value: unknown) => {
  const result = ZViewerAnnotationInput.safeParse(value);
  return result.success ? null : result.error.issues[0]?.path.join('.');
};

describe('ZViewerAnnotationInput', () => {
  it('accepts a drawing of a known tool', () => {
    expect(ZViewerAnnotationInput.safeParse(valid).success).toBe(true);
  });

  it('names the field of bad input', () => {
    expect(failedField({ ...valid, toolName: 'Probe' })).toBe('toolName');
    expect(failedField({ ...valid, frameNumber: 0 })).toBe('frameNumber');
    expect(failedField({ ...valid, annotationUid: 'has space' })).toBe('annotationUid');
    expect(failedField({ ...valid, annotationUid: 'x'.repeat(65) })).toBe('annotationUid');
    expect(failedField({ ...valid, data: { text: 'x'.repeat(33 * 1024) } })).toBe('data');
  });

  it('checks the path parameters', () => {
    expect(ZViewerAnnotationParams.safeParse({ id: '12', annotationUid: 'ok' }).success).toBe(true);
    expect(ZViewerAnnotationParams.safeParse({ id: '12', annotationUid: 'a/b' }).success).toBe(false);
  });
});
