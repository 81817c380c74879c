import { describe, expect, it } from 'vitest';
import { parseViewerAddress } from './viewer-address';

describe('parseViewerAddress', () => {
  it('names the first study of the address and its id', () => {
    expect(parseViewerAddress('/viewer/1.2.3%2C4.5.6/42')).toEqual({ studyInstanceUid: '1.2.3', id: 42 });
    expect(parseViewerAddress('/viewer/1.2.3,4.5.6/42/')).toEqual({ studyInstanceUid: '1.2.3', id: 42 });
  });

  it('is null off a viewer page or for a broken address', () => {
    expect(parseViewerAddress('/worklist')).toBeNull();
    expect(parseViewerAddress('/viewer/1.2.3')).toBeNull();
    expect(parseViewerAddress('/viewer/1.2.3/abc')).toBeNull();
    expect(parseViewerAddress('/viewer/%E0%A4%A/1')).toBeNull();
  });

  it('has no id when the number is not a usable one', () => {
    expect(parseViewerAddress('/viewer/1.2.3/0')).toEqual({ studyInstanceUid: '1.2.3', id: null });
    expect(parseViewerAddress('/viewer/1.2.3/99999999999999999999')).toEqual({
      studyInstanceUid: '1.2.3',
      id: null,
    });
  });
});
