import { describe, expect, it } from 'vitest';
import type { TDicomJson } from './dicom-json';
import type { TLoadedSeries } from './dicomweb-source';
import { unsupportedImageText } from './unsupported-image';

/** Issue 21 §2: what the browser will not draw says why, by syntax or by pixel layout. */
function seriesOf(syntax: string, photometric: string): TLoadedSeries {
  const metadata = { '00280004': { vr: 'CS', Value: [photometric] } } as unknown as TDicomJson;
  return {
    studyInstanceUid: '1.2',
    seriesInstanceUid: '1.2.3',
    stack: [{ sopInstanceUid: '1.2.3.4', metadata, frames: 1, imageIds: ['x'] }],
    imageIds: ['x'],
    syntaxOf: new Map([['1.2.3.4', syntax]]),
  };
}

describe('unsupportedImageText', () => {
  it('names a syntax the browser has no decoder for', () => {
    expect(unsupportedImageText(seriesOf('1.2.840.10008.1.2.4.102', 'YBR_PARTIAL_420'), '1.2.3.4')).toMatch(
      /Unsupported transfer syntax: MPEG-4 AVC\/H\.264/,
    );
  });

  it('names a photometric interpretation native pixel data may not carry', () => {
    for (const syntax of ['1.2.840.10008.1.2.1', '1.2.840.10008.1.2.8.1', '1.2.840.10008.1.2.2']) {
      expect(unsupportedImageText(seriesOf(syntax, 'YBR_RCT'), '1.2.3.4')).toMatch(
        /Unsupported image: Photometric Interpretation YBR_RCT exists only in JPEG 2000 streams/,
      );
    }
  });

  it('draws the native photometrics and the compressed ones in their own syntax', () => {
    for (const photometric of [
      'MONOCHROME1',
      'MONOCHROME2',
      'PALETTE COLOR',
      'RGB',
      'YBR_FULL',
      'YBR_FULL_422',
    ]) {
      expect(unsupportedImageText(seriesOf('1.2.840.10008.1.2.1', photometric), '1.2.3.4')).toBeNull();
    }
    expect(unsupportedImageText(seriesOf('1.2.840.10008.1.2.4.90', 'YBR_RCT'), '1.2.3.4')).toBeNull();
  });
});
