import { describe, expect, it } from 'vitest';
import { REPORTING_MESSAGES as M } from './messages.js';
import { canChangeTemplate, canReadTemplates, checkTemplateWriter, templateFits } from './templates.js';

const on = { disableCreateTemplateOptionToRadiologist: true };
const off = { disableCreateTemplateOptionToRadiologist: false };

describe('template writers', () => {
  it('are doctors, typists and group admins; not a sole doctor with the switch', () => {
    expect(checkTemplateWriter({ roles: ['ROLE_DOCTOR'], flags: off })).toBeNull();
    expect(checkTemplateWriter({ roles: ['ROLE_DOCTOR'], flags: on })?.message).toBe(
      M.templateCreateDisabled,
    );
    expect(checkTemplateWriter({ roles: ['ROLE_DOCTOR', 'ROLE_TYPIST'], flags: on })).toBeNull();
    expect(checkTemplateWriter({ roles: ['ROLE_ADMIN'], flags: on })).toBeNull();
    expect(checkTemplateWriter({ roles: ['ROLE_REFERRING_DOCTOR'], flags: off })?.message).toBe(
      M.templateNotAllowed,
    );
  });
  it('change their own templates; group admins change any', () => {
    expect(canChangeTemplate({ roles: ['ROLE_DOCTOR'], userId: 1, ownerUserId: 1 })).toBe(true);
    expect(canChangeTemplate({ roles: ['ROLE_DOCTOR'], userId: 1, ownerUserId: 2 })).toBe(false);
    expect(canChangeTemplate({ roles: ['ROLE_GROUP'], userId: 1, ownerUserId: 2 })).toBe(true);
  });
});

describe('templateFits', () => {
  const ct = { modalities: ['CT'], bodyParts: ['Head'], gender: null };
  it('matches each tag list that is set, case-insensitively; empty filters and tags match all', () => {
    expect(templateFits(ct, {})).toBe(true);
    expect(templateFits(ct, { modality: 'ct', bodyPart: 'HEAD' })).toBe(true);
    expect(templateFits(ct, { modality: 'MR' })).toBe(false);
    expect(templateFits(ct, { modality: 'PT,CT' })).toBe(true);
    expect(templateFits(ct, { bodyPart: 'Chest' })).toBe(false);
    expect(
      templateFits(
        { modalities: [], bodyParts: [], gender: null },
        { modality: 'MR', bodyPart: 'x', gender: 'F' },
      ),
    ).toBe(true);
  });
  it('keeps a gendered template to that sex; an unknown sex matches all', () => {
    const female = { modalities: [], bodyParts: [], gender: 'F' as const };
    expect(templateFits(female, { gender: 'F' })).toBe(true);
    expect(templateFits(female, { gender: 'M' })).toBe(false);
    expect(templateFits(female, { gender: '' })).toBe(true);
    expect(templateFits(female, { gender: 'U' })).toBe(true);
  });
});

describe('canReadTemplates', () => {
  it('lets the template keepers, verifiers and hybrid doctors read, and no read-only or non-reporting role', () => {
    for (const role of [
      'ROLE_DOCTOR',
      'ROLE_TYPIST',
      'ROLE_ADMIN',
      'ROLE_GROUP',
      'ROLE_VERIFIER',
      'ROLE_OFFLINE_HYBRID',
    ] as const)
      expect(canReadTemplates([role]), role).toBe(true);
    for (const role of [
      'ROLE_CUSTOMER',
      'ROLE_VIEWER',
      'ROLE_REFERRING_DOCTOR',
      'ROLE_CENTER',
      'ROLE_BILLER',
    ] as const)
      expect(canReadTemplates([role]), role).toBe(false);
  });
});
