import { describe, expect, it } from 'vitest';
import { ZAdminPreferences, ZGroupSwitches, ZUserAdminVisiblePreferences } from './preferences.js';
import { GROUP_SETTING_ARRIVES_WITH, GROUP_SETTING_EXPLANATIONS } from './group-explanations.js';

const SCHEMAS = {
  USER_ADMIN_VISIBLE_PREFERENCES: ZUserAdminVisiblePreferences,
  GROUP_SWITCHES: ZGroupSwitches,
  ADMIN_PREFERENCES: ZAdminPreferences,
} as const;

describe.each(Object.entries(SCHEMAS))('GROUP_SETTING_EXPLANATIONS.%s', (section, schema) => {
  const explanations = GROUP_SETTING_EXPLANATIONS[section as keyof typeof SCHEMAS] as Record<string, string>;

  it.each(Object.keys(schema.shape))('explains %s in one plain line', (field) => {
    const line = explanations[field];
    expect(line, `${section}.${field} has no explanation`).toBeTypeOf('string');
    expect(line?.trim().length).toBeGreaterThan(10);
    expect(line).not.toContain('\n');
  });

  it('explains no field the section does not have', () => {
    expect(Object.keys(explanations).sort()).toEqual(Object.keys(schema.shape).sort());
  });
});

describe('GROUP_SETTING_ARRIVES_WITH', () => {
  it('names only group settings that exist', () => {
    const fields = new Set(
      [ZUserAdminVisiblePreferences, ZGroupSwitches, ZAdminPreferences].flatMap((s) => Object.keys(s.shape)),
    );
    for (const field of Object.keys(GROUP_SETTING_ARRIVES_WITH)) expect(fields.has(field), field).toBe(true);
  });
});
