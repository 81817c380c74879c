import { describe, expect, it } from 'vitest';
import { buildStack, dicomwebRoot, frameImageId, frameOfImageId } from './image-ids';

const ROOT = dicomwebRoot('http://radflow.test:8080/');
const instance = (sop: string, number: number | null, frames?: number, pixels = true) => ({
  '00080018': { vr: 'UI', Value: [sop] },
  ...(number === null ? {} : { '00200013': { vr: 'IS', Value: [number] } }),
  ...(frames ? { '00280008': { vr: 'IS', Value: [String(frames)] } } : {}),
  ...(pixels ? { '7FE00010': { vr: 'OW', BulkDataURI: 'x' } } : {}),
});

describe('image ids', () => {
  it('are absolute wadors frame URLs under /api/dicomweb, whatever the page path', () => {
    expect(ROOT).toBe('http://radflow.test:8080/api/dicomweb');
    expect(
      frameImageId(ROOT, '1.2', { seriesInstanceUid: '1.2.3', sopInstanceUid: '1.2.3.4', frameNumber: 2 }),
    ).toBe(
      'wadors:http://radflow.test:8080/api/dicomweb/studies/1.2/series/1.2.3/instances/1.2.3.4/frames/2',
    );
  });

  it('name their study and frame again', () => {
    const frame = { seriesInstanceUid: '1.2.3', sopInstanceUid: '1.2.3.4', frameNumber: 7 };
    expect(frameOfImageId(frameImageId(ROOT, '1.2', frame))).toEqual({ studyInstanceUid: '1.2', ...frame });
    expect(frameOfImageId('wadouri:http://x/file.dcm')).toBeNull();
  });
});

describe('buildStack', () => {
  it('orders images by instance number, one image id per frame, and leaves out non-image objects', () => {
    const stack = buildStack(ROOT, '1', '1.1', [
      instance('1.1.3', 3),
      instance('1.1.sr', 1, undefined, false),
      instance('1.1.2', 2, 3),
      instance('1.1.9', null),
      instance('1.1.1', 1),
    ]);
    expect(stack.map((i) => i.sopInstanceUid)).toEqual(['1.1.1', '1.1.2', '1.1.3', '1.1.9']);
    expect(stack[1]?.imageIds.map((id) => id.slice(-9))).toEqual(['/frames/1', '/frames/2', '/frames/3']);
    expect(stack.flatMap((i) => i.imageIds)).toHaveLength(6);
  });
});
