import { z } from 'zod';
import { GROUP_SECTIONS, PREFERENCE_SECTIONS, type TPreferenceSection } from './preferences.js';

const ALL_SECTIONS = Object.keys(PREFERENCE_SECTIONS) as TPreferenceSection[];
const USER_SECTIONS = ALL_SECTIONS.filter((s) => !GROUP_SECTIONS.includes(s));

/** POST /api/setting/update-group/{settingName}: a section the group owns (spec-core §7). */
export const ZGroupSettingParams = z.object({
  settingName: z.enum(GROUP_SECTIONS as [TPreferenceSection, ...TPreferenceSection[]]),
});
/** POST /api/setting/update/{settingName}: a section the user owns (spec-core §7). */
export const ZUserSettingParams = z.object({
  settingName: z.enum(USER_SECTIONS as [TPreferenceSection, ...TPreferenceSection[]]),
});

/**
 * The setting object sent to the update calls: the fields to change (the rest keep their stored or
 * default values); each field is checked against its section in preferences.ts. The answer is the
 * whole updated section.
 */
export const ZPreferenceSectionValue = z.record(z.string(), z.unknown()).meta({ id: 'PreferenceSection' });
