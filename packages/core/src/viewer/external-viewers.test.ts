import { describe, expect, it } from 'vitest';
import { defaultPreferences, groupFlags } from '../settings/preferences.js';
import {
  externalViewerFolder,
  externalViewerLaunchUrl,
  externalViewersOf,
  savedFilePath,
} from './external-viewers.js';

const flags = (over: Partial<ReturnType<typeof groupFlags>> = {}) => ({
  ...groupFlags(defaultPreferences()),
  ...over,
});

describe('external desktop viewers (issue 5 §4)', () => {
  it('offers RadiAnt to whoever may download the zip, and Horos only with openInHoros', () => {
    expect(externalViewersOf(['ROLE_DOCTOR'], flags())).toEqual(['RADIANT']);
    expect(externalViewersOf(['ROLE_DOCTOR'], flags({ openInHoros: true }))).toEqual(['RADIANT', 'HOROS']);
    // A sole doctor of a group that disables the zip for doctors has neither (spec-core §5).
    expect(
      externalViewersOf(['ROLE_DOCTOR'], flags({ disableDownloadZipForDoctor: true, openInHoros: true })),
    ).toEqual([]);
  });

  it("asks for the study table setting's download folder first", () => {
    expect(externalViewerFolder('')).toEqual({
      ok: false,
      message: 'Please add path to download folder in Study Table setting',
    });
    expect(externalViewerFolder('   ')).toMatchObject({ ok: false });
    expect(externalViewerFolder(' C:\\Studies ')).toEqual({ ok: true, folder: 'C:\\Studies' });
  });

  it("joins the folder and the file with the folder's own separator", () => {
    expect(savedFilePath('C:\\Users\\dr\\Downloads\\', '12_345.zip')).toBe(
      'C:\\Users\\dr\\Downloads\\12_345.zip',
    );
    expect(savedFilePath('/Users/dr/Downloads', '12_345.zip')).toBe('/Users/dr/Downloads/12_345.zip');
  });

  it('starts each viewer through its URL scheme on the saved file', () => {
    expect(externalViewerLaunchUrl('RADIANT', 'C:\\S\\1_2.zip')).toBe('radiant://?n=f&v=C%3A%5CS%5C1_2.zip');
    expect(externalViewerLaunchUrl('HOROS', '/Users/dr/My Studies/1_2.zip')).toBe(
      `horos://?methodName=downloadURL&Display=YES&URL=${encodeURIComponent(
        "'file:///Users/dr/My%20Studies/1_2.zip'",
      )}`,
    );
  });
});
