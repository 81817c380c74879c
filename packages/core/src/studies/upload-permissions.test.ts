import { describe, expect, it } from 'vitest';
import { ROLES } from '../identity/roles.js';
import { STUDY_UPLOAD_ROLES, canCreateStudy } from './upload-permissions.js';

describe('canCreateStudy (spec-core §2 Shell Create Study)', () => {
  it.each(ROLES.map((role) => [role, STUDY_UPLOAD_ROLES.includes(role)] as const))(
    '%s → %s',
    (role, allowed) => {
      expect(canCreateStudy([role])).toBe(allowed);
    },
  );

  it('allows a user when any of their roles uploads', () => {
    expect(canCreateStudy(['ROLE_DOCTOR', 'ROLE_CENTER'])).toBe(true);
    expect(canCreateStudy([])).toBe(false);
  });
});
