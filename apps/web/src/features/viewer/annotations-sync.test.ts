import { describe, expect, it } from 'vitest';
import { toCornerstoneAnnotation, toSavedAnnotation } from './annotations-sync';
import { frameImageId } from './data-source/image-ids';

const ROOT = 'http://radflow.test/api/dicomweb';
const frame = { seriesInstanceUid: '1.2.3', sopInstanceUid: '1.2.3.4', frameNumber: 2 };
const points = [
  [1, 2, 3],
  [4, 5, 6],
];
const drawn = {
  annotationUID: 'a1b2c3d4-0000-4000-8000-000000000001',
  metadata: {
    toolName: 'Length',
    referencedImageId: frameImageId(ROOT, '1.2', frame),
    FrameOfReferenceUID: '1.2.9',
    viewPlaneNormal: [0, 0, -1],
    viewUp: [0, -1, 0],
  },
  data: {
    handles: { points, activeHandleIndex: null, textBox: { hasMoved: false } },
    cachedStats: { x: {} },
  },
} as never;

describe('annotations saved per study', () => {
  it('keep the frame, the handles and the view, not the image URL or the stats', () => {
    const saved = toSavedAnnotation(drawn, '1.2');
    expect(saved).toEqual({
      annotationUid: 'a1b2c3d4-0000-4000-8000-000000000001',
      toolName: 'Length',
      ...frame,
      data: {
        handles: { points, textBox: { hasMoved: false } },
        view: { viewPlaneNormal: [0, 0, -1], viewUp: [0, -1, 0], FrameOfReferenceUID: '1.2.9' },
      },
    });
  });

  it('are not saved for other tools or for a prior shown beside the study', () => {
    expect(
      toSavedAnnotation({ ...(drawn as object), metadata: { toolName: 'Probe' } } as never, '1.2'),
    ).toBeNull();
    expect(toSavedAnnotation(drawn, '9.9')).toBeNull();
  });

  it("come back on their frame's image id, locked when someone else drew them", () => {
    const saved = { ...toSavedAnnotation(drawn, '1.2')!, createdBy: 'other@demo.local' };
    const restored = toCornerstoneAnnotation(
      saved,
      'http://elsewhere/api/dicomweb',
      '1.2',
      'doctor@demo.local',
    );
    expect(restored.metadata?.referencedImageId).toBe(
      frameImageId('http://elsewhere/api/dicomweb', '1.2', frame),
    );
    expect(restored.metadata?.FrameOfReferenceUID).toBe('1.2.9');
    expect(restored.data?.handles?.points).toEqual(points);
    expect(restored.isLocked).toBe(true);
    expect(toCornerstoneAnnotation(saved, ROOT, '1.2', 'other@demo.local').isLocked).toBe(false);
  });
});
