import { describe, expect, it } from 'vitest';
import { buildWeasisLaunchUrl } from './weasis.js';

describe('buildWeasisLaunchUrl (issue 5 §4)', () => {
  it('encodes the $dicom:get command the way Weasis decodes it', () => {
    const url = buildWeasisLaunchUrl('https://rad.example/api/viewer/weasis-manifest/abc.def');
    expect(url).toBe(
      'weasis://?%24dicom%3Aget+-w+%22https%3A%2F%2Frad.example%2Fapi%2Fviewer%2Fweasis-manifest%2Fabc.def%22',
    );
    expect(decodeURIComponent(url.slice('weasis://?'.length).replaceAll('+', ' '))).toBe(
      '$dicom:get -w "https://rad.example/api/viewer/weasis-manifest/abc.def"',
    );
  });
});
